"""CLI: ``mjfast replay`` (log readers + the engine's fold -> turn-level tables), a job of
the one runner: same folder layout, resume, executors and exit codes as ``mjfast hands``
(1 when a deal was quarantined)."""
from __future__ import annotations

import time
from typing import List, Optional

import typer

from ._app import RULES_HELP, app
from ._pipelines import _DASK, _JSON, _QUIET, _SCHEDULER, _WORKERS, _load_job, _run_and_exit


@app.command("replay")
def replay_command(
    paths: List[str] = typer.Argument(..., help="Log files, folders or globs."),
    fmt: str = typer.Option(..., "--format", "-f",
                            help="botzone (text), botzone-json, jsonl, or events (Parquet "
                                 "files, dataset folders, JSON lines)."),
    out: str = typer.Option(..., "--out", "-o", help="Output dataset folder."),
    rules: str = typer.Option("mcr", "--rules", help=RULES_HELP),
    variant: Optional[str] = typer.Option(None, "--variant",
                                          help="Rule variant: a name or a .toml file (default: "
                                               "the rules the logs were produced under -- "
                                               "Botzone logs botzone, own events what their "
                                               "dataset records)."),
    candidates: bool = typer.Option(False, "--candidates",
                                    help="Also write every possible discard at each decision."),
    chunk: int = typer.Option(2000, "--chunk", help="Deals per shard (a piece of a text log)."),
    workers: Optional[int] = _WORKERS, dask: bool = _DASK, scheduler: Optional[str] = _SCHEDULER,
    quiet: bool = _QUIET, json_out: bool = _JSON,
) -> None:
    """Replay game logs through the engine and write deals, events, turns, wins,
    win_chances, discrepancies and quarantine tables (candidates with --candidates)."""
    t0 = time.perf_counter()

    def build():
        from ..replay import replay_job
        return replay_job({fmt: list(paths)}, rules, None if variant is None else [variant],
                          candidates, chunk)
    job = _load_job(build)

    def extra(summary) -> dict:
        from ..replay import stats_of
        s = stats_of(summary.manifest).as_dict()
        line = (f"  deals in {s['deals_in']}: replayed {s['replayed']}, quarantined "
                f"{s['quarantined']}; wins {s['wins']}, draws {s['draws']}; turns "
                f"{s['turns']}; discrepancies {s['discrepancies']}"
                + (f" (canHu values compared: {s['can_hu_compared']})"
                   if s["can_hu_compared"] else ""))
        return {"line": line, "json": {"stats": s}}
    _run_and_exit(job, out, workers, dask, scheduler, quiet, json_out, "replay", t0, extra)
