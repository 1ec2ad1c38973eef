"""The Typer application and what every command shares (options, error exit, JSON)."""
from __future__ import annotations

import functools
import inspect
import json
from typing import Any, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Fast analysis of Chinese-family mahjong (MCR, Taiwan, Tuidaohu, two-player).")


def _version_callback(value: bool) -> None:
    if value:
        from .. import __version__
        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                       help="Print the mjfast version and exit.")) -> None:
    """Fast analysis of Chinese-family mahjong (MCR, Taiwan, Tuidaohu, two-player)."""

RULES_HELP = "Rule set: mcr, taiwan, tuidaohu, two_player."


# The one situation vocabulary: (keyword of parse_hand/score, Python type, Typer option).
SITUATION_OPTIONS = [
    ("seat", Optional[str], typer.Option(None, "--seat", help="Seat wind of the player: E S W N.")),
    ("prevalent", Optional[str], typer.Option(None, "--prevalent", help="Prevalent (round) wind: E S W N.")),
    ("dealer", Optional[str], typer.Option(None, "--dealer", help="Seat wind of the dealer (default E).")),
    ("tsumo", bool, typer.Option(False, "--tsumo", help="A self-drawn (tsumo) win.")),
    ("ron", bool, typer.Option(False, "--ron", help="A discard (ron) win.")),
    ("discarder", Optional[str], typer.Option(None, "--discarder", help="Seat wind of the discarder (a discard win).")),
    ("streak", Optional[int], typer.Option(None, "--streak", help="Dealer's previous consecutive wins.")),
    ("flowers", Optional[str], typer.Option(None, "--flowers", help="Flowers: a count or letters a..h.")),
    ("table_discards", Optional[int], typer.Option(None, "--table-discards", help="Discards on the table at the win.")),
    ("original_ready", Optional[bool], typer.Option(None, "--original-ready/--no-original-ready",
                                                    help="Declared original ready (Taiwan).")),
    ("last_tile", Optional[bool], typer.Option(None, "--last-tile/--no-last-tile",
                                               help="Won on the last tile (of the wall / its discard).")),
    ("kong_replacement", Optional[bool], typer.Option(None, "--kong-replacement/--no-kong-replacement",
                                                      help="Self-drawn on a kong's replacement tile.")),
    ("robbing_kong", Optional[bool], typer.Option(None, "--robbing-kong/--no-robbing-kong",
                                                  help="Won by robbing an added kong.")),
    ("fourth_tile", Optional[bool], typer.Option(None, "--fourth-tile/--no-fourth-tile",
                                                 help="Winning tile's other three copies were visible (MCR).")),
    ("first_turn", Optional[bool], typer.Option(None, "--first-turn/--no-first-turn",
                                                help="Won on the first turn (heavenly/earthly hand).")),
]


def situation_options(fn):
    """Give a command every situation option; the command receives them as one dict
    ``situation`` holding only the options the user gave."""
    names = [name for name, _, _ in SITUATION_OPTIONS]

    @functools.wraps(fn)
    def command(**kwargs):
        given = {k: kwargs.pop(k) for k in names}
        tsumo, ron = given.pop("tsumo"), given.pop("ron")
        if tsumo and ron:
            from ..errors import SituationError
            _fail(SituationError("--tsumo --ron", None,
                                 "contradictory options: a win is either self-drawn (--tsumo) "
                                 "or on a discard (--ron)"), kwargs.get("as_json", False))
        if tsumo or ron:
            given["self_drawn"] = bool(tsumo)
        return fn(situation={k: v for k, v in given.items() if v is not None}, **kwargs)

    sig = inspect.signature(fn)
    params = [p for p in sig.parameters.values() if p.name != "situation"]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
               for name, kind, option in SITUATION_OPTIONS]
    command.__signature__ = sig.replace(parameters=params)
    return command


def error_json(exc: Exception) -> dict[str, Any]:
    """The JSON shape of an error: ``{"error": {"type", "message", "input", "position",
    "reason"}}`` (``input``/``position``/``reason`` null when the error has none)."""
    return {"error": {"type": type(exc).__name__, "message": str(exc),
                      "input": _plain(getattr(exc, "text", None)),
                      "position": getattr(exc, "position", None),
                      "reason": getattr(exc, "reason", None)}}


def _plain(x: Any) -> Any:
    return x if x is None or isinstance(x, (str, int, float, bool)) else repr(x)


def _fail(exc: Exception, as_json: bool = False) -> None:
    """Exit 2 with the error: ``error: <message>`` on stderr, or with ``--json`` the
    :func:`error_json` object on stdout (where the command's JSON would have gone)."""
    if as_json:
        typer.echo(json.dumps(error_json(exc), ensure_ascii=False, indent=2))
    else:
        typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(code=2)


def _print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
