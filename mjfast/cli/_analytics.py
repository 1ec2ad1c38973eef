"""CLI: ``report`` (the HTML report of a dataset) and ``query`` (SQL or a built-in analysis)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from ._app import _fail, app

FORMATS = ("table", "csv", "parquet", "json")


@app.command("query")
def query(
    dataset: Path = typer.Argument(..., help="Dataset folder (tables as partitioned Parquet)."),
    what: str = typer.Argument(..., help="A built-in analysis name (fan-frequency, high-low, "
                               "ev, play-stats, ...; 'list' shows them) or a SQL query over the "
                               "tables (events, deals, wins, turns, candidates, hands, ...)."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f",
                                      help="table (default on a terminal), csv, parquet, json."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file."),
    max_rows: int = typer.Option(60, "--max-rows", help="Rows shown in a terminal table."),
    by_variant: bool = typer.Option(False, "--by-variant",
                                    help="A built-in analysis with its variants side by side."),
):
    """Run SQL or a built-in analysis over a dataset's tables."""
    from ..analytics import ANALYSES, run, side_by_side, sql
    from ..errors import MjfastError
    name = what.strip().lower().replace("_", "-")
    if name == "list":
        for n, a in sorted(ANALYSES.items()):
            typer.echo(f"{n:20s} {a.doc}")
        return
    fmt = (fmt or ("table" if output is None else _format_of(output))).lower()
    if fmt not in FORMATS:
        _fail(ValueError(f"--format must be one of {', '.join(FORMATS)}"))
    try:
        if name in ANALYSES:
            df = side_by_side(name, dataset) if by_variant else run(name, dataset)
        else:
            df = sql(dataset, what)
    except MjfastError as exc:
        _fail(exc)
    if fmt == "table":
        from rich.console import Console
        from ..report import render_table
        Console(width=None if sys.stdout.isatty() else 200).print(
            render_table(df, name if name in ANALYSES else None, max_rows))
        return
    if fmt == "parquet":
        if output is None:
            _fail(ValueError("--format parquet needs --output FILE"))
        df.write_parquet(output)
        return
    text = df.write_csv() if fmt == "csv" else df.write_json()
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def _format_of(path: Path) -> str:
    ext = path.suffix.lower().lstrip(".")
    return ext if ext in FORMATS else "csv"


@app.command("report")
def report(
    dataset: Path = typer.Argument(..., help="Dataset folder."),
    out: Path = typer.Option(Path("mjfast-report"), "--out", "-o",
                             help="Folder for report.html and the PNG charts."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the page's path."),
):
    """Write one self-contained HTML report (charts and font embedded) and PNG charts."""
    from ..errors import MjfastError
    from ..report import build_report
    try:
        rep = build_report(dataset)
        path = rep.write(out)
    except MjfastError as exc:
        _fail(exc)
    if not quiet:
        from rich.console import Console
        con = Console()
        for part in rep.summary():
            con.print(part)
        for k, v in rep.errors.items():
            con.print(f"[yellow]not computed[/yellow] {k}: {v}")
    typer.echo(str(path))
