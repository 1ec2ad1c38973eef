"""CLI: ``report`` (the HTML report of a dataset) and ``query`` (SQL or a built-in analysis).

On a terminal a query prints a table fitted to the terminal's width (``COLUMNS``; 100 when
the output is not a terminal), in the report's number formats (:mod:`mjfast.report`);
``--format csv|json|parquet`` write the stored values and column names (nested columns in
CSV as JSON text). Every failure is one ``error:`` line and exit status 2."""
from __future__ import annotations

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
                                      help="table (default on a terminal), csv, parquet, json. "
                                           "csv/json/parquet keep the stored values (rates as "
                                           "fractions); nested columns become JSON text in csv."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file."),
    max_rows: int = typer.Option(60, "--max-rows", help="Rows shown in a terminal table "
                                 "(shared among the rule sets and variants)."),
    all_columns: bool = typer.Option(False, "--all", help="Show every column in a terminal "
                                     "table (default: the columns that fit the width)."),
    width: Optional[int] = typer.Option(None, "--width", help="Width of a terminal table "
                                        "(default: the terminal's, or 100)."),
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
    if fmt == "parquet" and output is None:
        _fail(ValueError("--format parquet needs --output FILE"))
    try:
        if name in ANALYSES:
            df = side_by_side(name, dataset) if by_variant else run(name, dataset)
        else:
            df = sql(dataset, what)
    except MjfastError as exc:
        _fail(exc)
    except Exception as exc:   # noqa: BLE001  (one line, never a traceback)
        _fail(ValueError(f"{type(exc).__name__}: {exc}"))
    analysis = name if name in ANALYSES and not by_variant else None
    try:
        _write(df, fmt, output, analysis, name if name in ANALYSES else None, dataset,
               max_rows, all_columns, width)
    except Exception as exc:   # noqa: BLE001
        _fail(ValueError(f"cannot write {fmt}: {type(exc).__name__}: {exc}"))


def _write(df, fmt: str, output: Optional[Path], analysis, title, dataset, max_rows: int,
           all_columns: bool, width: Optional[int]) -> None:
    if fmt == "table":
        from rich.console import Console
        from ..report import render_table, terminal_width
        w = width or terminal_width()
        more = None
        if analysis:
            import shlex
            more = f"mjfast query {shlex.quote(str(dataset))} {analysis} --format csv"
        if analysis:
            from ..analytics import get_analysis
            title = f"{get_analysis(analysis).title} ({analysis})"
        table = render_table(df, title, max_rows, name=analysis, width=w,
                             all_columns=all_columns, more=more)
        if all_columns:     # every column at its natural width (the terminal may wrap)
            from rich.measure import Measurement
            probe = Console(width=10_000)
            w = max(w, Measurement.get(probe, probe.options, table).maximum)
        if output is None:
            Console(width=w, color_system=None, soft_wrap=False).print(table)
        else:
            with output.open("w", encoding="utf-8") as fh:
                Console(width=w, color_system=None, file=fh).print(table)
        return
    if fmt == "parquet":
        df.write_parquet(output)
        return
    text = csv_text(df) if fmt == "csv" else df.write_json()
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def csv_text(df) -> str:
    """CSV of a frame: nested columns (lists, structs) as JSON text, binary as hex."""
    import polars as pl
    fixed = []
    for c, t in df.schema.items():
        if t.is_nested():
            # {"c":VALUE} -> VALUE: Polars encodes a struct; the wrapper's key goes
            enc = (pl.struct(pl.col(c)).struct.json_encode()
                   .str.replace(r'^\{"(?:[^"\\]|\\.)*":', "").str.head(-1))
            fixed.append(pl.when(pl.col(c).is_null()).then(None).otherwise(enc).alias(c))
        elif t == pl.Binary:
            fixed.append(pl.col(c).bin.encode("hex").alias(c))
        elif t == pl.Object:
            fixed.append(pl.col(c).map_elements(str, return_dtype=pl.String).alias(c))
    return (df.with_columns(fixed) if fixed else df).write_csv()


def _format_of(path: Path) -> str:
    ext = path.suffix.lower().lstrip(".")
    return ext if ext in FORMATS else "csv"


@app.command("report")
def report(
    dataset: Path = typer.Argument(..., help="Dataset folder (mjfast run's output: "
                                   "mjfast-out)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="Folder for report.html and its charts (.svg). "
                                            "Default: DATASET/report, where mjfast run "
                                            "writes it (mjfast-out/report)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the page's path."),
):
    """Write one self-contained HTML report (charts and font embedded) of a dataset, and
    print its headline findings."""
    from ..errors import MjfastError
    from ..report import build_report
    out = out if out is not None else dataset / "report"
    try:
        rep = build_report(dataset)
        path = rep.write(out)
    except MjfastError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ValueError(f"cannot write the report into {out}: {exc}"))
    if not quiet:
        from rich.console import Console
        from ..report import terminal_width
        con = Console(width=terminal_width(), color_system=None)
        for part in rep.summary():
            con.print(part)
        for k, v in rep.errors.items():
            con.print(f"not computed {k}: {v}")
    typer.echo(str(path))
