"""The hand commands: ``parse``, ``shanten``, ``score``, ``score-waits``, ``version``."""
from __future__ import annotations

from typing import Any, Optional

import typer

from ..errors import MjfastError
from ._app import RULES_HELP, _fail, _print_json, app, situation_options

@app.command()
@situation_options
def parse(text: str = typer.Argument(..., help="A hand in mpsz, MCR-calculator or Botzone notation."),
          rules: str = typer.Option("mcr", "--rules", "-r", help=RULES_HELP),
          as_json: bool = typer.Option(False, "--json", help="Print JSON."),
          situation: dict = None):
    """Parse a hand: print it normalised in every notation, and its divisions."""
    from .._decompose import decompose
    from ..notation import parse_hand
    try:
        hand = parse_hand(text, rules=rules, **situation)
        divisions = decompose(hand) if hand.winning_tile is not None else []
    except MjfastError as exc:
        _fail(exc, as_json)
    formats = {fmt: hand.to_string(fmt) for fmt in ("mcr", "mpsz", "botzone")}
    if as_json:
        _print_json({"rules": hand.rules, "hand": formats, "complete": bool(divisions),
                     "divisions": [str(d) for d in divisions]})
        return
    typer.echo(f"rules:   {hand.rules}")
    for fmt, s in formats.items():
        typer.echo(f"{fmt + ':':8} {s}")
    if hand.winning_tile is None:
        typer.echo("waiting hand (no winning tile): see `mjfast shanten`")
    elif not divisions:
        typer.echo("not a complete hand")
    else:
        typer.echo(f"{len(divisions)} division(s):")
        for d in divisions:
            typer.echo(f"  {d}")


@app.command()
def shanten(text: str = typer.Argument(..., help="A hand (13/16 tiles to see its waits, or 14/17)."),
            rules: str = typer.Option("mcr", "--rules", "-r", help=RULES_HELP),
            as_json: bool = typer.Option(False, "--json", help="Print JSON."),
            flowers: Optional[str] = typer.Option(None, "--flowers", help="Flowers: a count or letters a..h.")):
    """Shanten number, effective tiles with live counts, and the waits of a ready hand."""
    from .. import _shanten as shanten_mod
    from ..notation import parse_hand
    try:
        opts = {"flowers": flowers} if flowers is not None else {}
        hand = parse_hand(text, rules=rules, **opts)
        report = shanten_mod.report(hand)
    except MjfastError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(report)
    else:
        typer.echo(shanten_mod.format_report(report))


def _format_score(d: dict[str, Any]) -> str:
    unit = {"mcr": "points", "taiwan": "tai"}.get(d["rules"], "fan")
    lines = [f"rules: {d['rules']}" + (f" ({d['variant']})" if d.get("variant") else "")]
    for f in d["fans"]:
        mult = f" x{f['count']}" if f["count"] != 1 else ""
        lines.append(f"  {f['points'] * f['count']:>4}  {f['name_en']} {f['name_zh']}{mult}")
    lines.append(f"total: {d['total']} {unit}" + ("" if d["legal"] else "  (NOT a legal win)"))
    extra = {k: v for k, v in d.items()
             if k not in ("rules", "variant", "total", "legal", "fans", "settlement", "flowers")}
    if d.get("flowers"):
        lines.append(f"flowers: {d['flowers']}")
    for k, v in extra.items():
        lines.append(f"{k}: {v}")
    lines.append("settlement: " + "  ".join(f"{seat} {gain:+d}" for seat, gain in d["settlement"].items()))
    return "\n".join(lines)


@app.command()
@situation_options
def score(text: str = typer.Argument(..., help="A complete hand."),
          rules: str = typer.Option("mcr", "--rules", "-r", help=RULES_HELP),
          variant: Optional[str] = typer.Option(None, "--variant", help="Rule variant (e.g. botzone)."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON."),
          base: Optional[int] = typer.Option(None, "--base", help="Base stake (Tuidaohu, two-player, Taiwan)."),
          unit: Optional[int] = typer.Option(None, "--unit", help="Value of one tai (Taiwan)."),
          fee: Optional[float] = typer.Option(None, "--fee", help="Fee on winnings (two-player, default 0.05)."),
          chips: Optional[int] = typer.Option(None, "--chips", help="Chips each player brought (two-player cap)."),
          situation: dict = None):
    """Score a complete hand: fans, total, legality and each seat's gain or loss."""
    from ..notation import parse_hand
    from ..rules import rule_context
    from ..scoring import score as score_hand
    try:
        params = {k: v for k, v in dict(base=base, unit=unit, fee=fee, chips=chips).items() if v is not None}
        ctx = rule_context(rules, variant)             # resolved once, here at the edge
        hand = parse_hand(text, rules=ctx.rules, **situation)
        result = score_hand(hand, rules=ctx.rules, variant=ctx, **params)
    except MjfastError as exc:
        _fail(exc, as_json)
    d = result.to_dict()
    if as_json:
        _print_json(d)
    else:
        typer.echo(_format_score(d))


@app.command("score-waits")
@situation_options
def score_waits_cmd(text: str = typer.Argument(..., help="A ready (waiting) hand."),
                    rules: str = typer.Option("mcr", "--rules", "-r", help=RULES_HELP),
                    variant: Optional[str] = typer.Option(None, "--variant", help="Rule variant (e.g. botzone)."),
                    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                    situation: dict = None):
    """Score every winning tile of a ready hand, on a discard and on a self-draw (the
    self-drawn / discarder options are set per wait and ignored here)."""
    from ..notation import parse_hand
    from ..rules import rule_context
    from ..scoring import score_waits
    try:
        situation.pop("self_drawn", None)
        situation.pop("discarder", None)
        ctx = rule_context(rules, variant)             # resolved once, here at the edge
        hand = parse_hand(text, rules=ctx.rules, **situation)
        rows = score_waits(hand, rules=ctx.rules, variant=ctx)
    except MjfastError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(rows)
        return
    if not rows:
        typer.echo("not ready: no winning tile")
    for r in rows:
        typer.echo(f"{r['tile']:>3}  discard {r['total_discard']:>4}{'' if r['legal_discard'] else ' (illegal)':10}"
                   f"  self-drawn {r['total_self_drawn']:>4}{'' if r['legal_self_drawn'] else ' (illegal)':10}"
                   f"  live {r['live']}")


@app.command()
def version():
    """Print the mjfast version."""
    from .. import __version__
    typer.echo(__version__)
