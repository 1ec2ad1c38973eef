"""The Typer application and what every command shares (options, error exit, JSON)."""
from __future__ import annotations

import functools
import inspect
import json
from typing import Any, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Fast analysis of Chinese-family mahjong (MCR, Taiwan, Tuidaohu, two-player).")

RULES_HELP = "Rule set: mcr, taiwan, tuidaohu, two_player."


# The one situation vocabulary: (keyword of parse_hand/score, Python type, Typer option).
SITUATION_OPTIONS = [
    ("seat", Optional[str], typer.Option(None, "--seat", help="Seat wind of the player: E S W N.")),
    ("prevalent", Optional[str], typer.Option(None, "--prevalent", help="Prevalent (round) wind: E S W N.")),
    ("dealer", Optional[str], typer.Option(None, "--dealer", help="Seat wind of the dealer (default E).")),
    ("self_drawn", Optional[bool], typer.Option(None, "--tsumo/--ron", help="Self-drawn (tsumo) or discard (ron) win.")),
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
        return fn(situation={k: v for k, v in given.items() if v is not None}, **kwargs)

    sig = inspect.signature(fn)
    params = [p for p in sig.parameters.values() if p.name != "situation"]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
               for name, kind, option in SITUATION_OPTIONS]
    command.__signature__ = sig.replace(parameters=params)
    return command


def _fail(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(code=2)


def _print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
