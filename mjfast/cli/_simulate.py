"""CLI: ``mjfast simulate`` (engine + bots -> events, deals, games, wins)."""
from __future__ import annotations

import sys
from typing import Optional

import typer

from ._app import RULES_HELP, _fail, _print_json, app


@app.command("simulate")
def simulate_command(
    rules: str = typer.Option("mcr", "--rules", help=RULES_HELP),
    variant: Optional[str] = typer.Option(None, "--variant", help="Rule variant (e.g. botzone)."),
    bots: str = typer.Option("efficiency", "--bots",
                             help="One bot or one per player, comma-separated: efficiency, "
                                  "value, or cmd:<command> (an external Botzone-protocol bot)."),
    deals: int = typer.Option(100, "--deals",
                              help="Deals to play: ceil(N/16) games by the rule set's game "
                                   "structure (Taiwan's run to the end of the North round, so "
                                   "more deals)."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed gives the same files."),
    out: str = typer.Option(..., "--out", "-o", help="Output dataset folder."),
    wall: Optional[str] = typer.Option(None, "--wall", help="botzone: the Botzone judge's wall (MCR)."),
    duplicate: bool = typer.Option(False, "--duplicate",
                                   help="Play every wall once per seat rotation."),
    permutations: int = typer.Option(0, "--permutations",
                                     help="With --duplicate: 24 for every seat permutation."),
    jsonl: bool = typer.Option(False, "--jsonl", help="Also write the events as JSON lines."),
    botzone_text: bool = typer.Option(False, "--botzone-text",
                                      help="Also write Botzone text logs (MCR, --wall botzone, "
                                           "--variant botzone)."),
    chips: Optional[int] = typer.Option(None, "--chips",
                                        help="Two-player: chips each player brings (pays at "
                                             "most his stack; the game ends when one is spent)."),
    workers: int = typer.Option(1, "--workers", help="Worker processes."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Simulate deals with bots and write the events, deals, games and wins tables."""
    from ..errors import MjfastError
    from ..simulation import simulate
    dup = (permutations or True) if duplicate else None
    progress = None
    bar = None
    if not quiet and not json_out:
        if sys.stderr.isatty():
            from rich.progress import Progress
            bar = Progress(transient=False)
            task = bar.add_task("simulate", total=None)
            bar.start()

            def progress(done, total, n_deals):
                bar.update(task, completed=done, total=total,
                           description=f"simulate: {n_deals} deals")
        else:
            def progress(done, total, n_deals):
                typer.echo(f"shard {done}/{total}: {n_deals} deals", err=True)
    try:
        res = simulate(rules, bots, deals, seed, variant=variant, wall=wall, duplicate=dup,
                       out=out, jsonl=jsonl, botzone_text=botzone_text, workers=workers,
                       chips=chips, progress=progress)
    except MjfastError as exc:
        if bar is not None:
            bar.stop()
        _fail(exc, json_out)
        return
    if bar is not None:
        bar.stop()
    from ..datasets import Dataset
    summary = {"out": res.path, "deals": res.n_deals, "errors": len(res.errors),
               "tables": Dataset(res.path).row_counts()}
    if json_out:
        _print_json(summary)
    else:
        typer.echo(f"{summary['deals']} deals, tables {summary['tables']}"
                   + (f", {summary['errors']} engine errors" if res.errors else "")
                   + f"  -> {res.path}")
