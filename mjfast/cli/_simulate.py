"""CLI: ``mjfast simulate`` (engine + bots -> events, deals, games, wins), a job of the one
runner: same folder layout, resume, executors and exit codes as ``mjfast hands``."""
from __future__ import annotations

import time
from typing import Optional

import typer

from ._app import RULES_HELP, app
from ._pipelines import _DASK, _JSON, _QUIET, _SCHEDULER, _WORKERS, _load_job, _run_and_exit


@app.command("simulate")
def simulate_command(
    rules: str = typer.Option("mcr", "--rules", help=RULES_HELP),
    variant: Optional[str] = typer.Option(None, "--variant",
                                          help="Rule variant: a name (e.g. botzone) or a "
                                               ".toml file (default: the base tables)."),
    bots: str = typer.Option("efficiency", "--bots",
                             help="One bot or one per player, comma-separated: efficiency, "
                                  "value, planner, planner_defend, or cmd:<command> (an "
                                  "external Botzone-protocol bot)."),
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
    games_per_shard: int = typer.Option(64, "--games-per-shard",
                                        help="Whole games per shard (one task, one file per table)."),
    workers: Optional[int] = _WORKERS, dask: bool = _DASK, scheduler: Optional[str] = _SCHEDULER,
    quiet: bool = _QUIET, json_out: bool = _JSON,
) -> None:
    """Simulate deals with bots and write the events, deals, games and wins tables."""
    t0 = time.perf_counter()

    def build():
        from ..rules import rule_context
        from ..simulation import simulate_job
        ctx = rule_context(rules, variant)
        return simulate_job([ctx], bots, deals, seed, wall=wall,
                            duplicate=(permutations or True) if duplicate else None,
                            games_per_shard=games_per_shard, chips=chips, jsonl=jsonl,
                            botzone_text=botzone_text)
    job = _load_job(build)

    def extra(summary) -> dict:
        errors = [e for m in summary.manifest["shards"].values() for e in m.get("errors", [])]
        return {"line": (f"  {len(errors)} deals stopped by the engine (see the done markers)"
                         if errors else None), "json": {"engine_errors": len(errors)}}
    _run_and_exit(job, out, workers, dask, scheduler, quiet, json_out, "simulate", t0, extra)
