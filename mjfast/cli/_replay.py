"""CLI: ``mjfast replay`` (log readers + the engine's fold -> turn-level tables)."""
from __future__ import annotations

from typing import List, Optional

import typer

from ._app import RULES_HELP, _fail, _print_json, app


@app.command("replay")
def replay_command(
    paths: List[str] = typer.Argument(..., help="Log files, folders or globs."),
    fmt: str = typer.Option(..., "--format", "-f",
                            help="botzone (text), botzone-json, or events (Parquet / JSON lines)."),
    out: str = typer.Option(..., "--out", "-o", help="Output dataset folder."),
    rules: str = typer.Option("mcr", "--rules", help=RULES_HELP),
    variant: Optional[str] = typer.Option(None, "--variant",
                                          help="Rule variant (Botzone logs: botzone by default)."),
    candidates: bool = typer.Option(False, "--candidates",
                                    help="Also write every possible discard at each decision."),
    chunk: int = typer.Option(2000, "--chunk", help="Deals per shard."),
    workers: int = typer.Option(1, "--workers", "-w", help="Processes replaying shards."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Replay game logs through the engine and write deals, events, turns, wins,
    win_chances, discrepancies and quarantine tables (candidates with --candidates)."""
    from ..errors import MjfastError
    try:
        from ..replay._write import replay_to_dataset
        summary = replay_to_dataset(paths, fmt, out, rules=rules, variant=variant,
                                    candidates=candidates, chunk_deals=chunk, workers=workers,
                                    progress=not quiet and not json_out)
    except MjfastError as exc:
        _fail(exc)
        return
    if json_out:
        _print_json(summary)
        return
    s = summary["stats"]
    typer.echo(f"deals in {s['deals_in']}: replayed {s['replayed']}, quarantined "
               f"{s['quarantined']}; wins {s['wins']}, draws {s['draws']}; turns {s['turns']}; "
               f"discrepancies {s['discrepancies']}"
               + (f" (canHu values compared: {s['can_hu_compared']})"
                  if s["can_hu_compared"] else "") + f"  -> {summary['out']}")
