"""CLI: ``mjfast run`` (the main job), ``mjfast hands``, ``mjfast study``, and what every
job command shares (``simulate`` and ``replay`` too: options, progress, exit codes).

Exit codes (the same for every job command):

- 0: finished, every input row in an output table;
- 1: finished, some input rows quarantined (the dataset is complete and consistent;
  ``quarantine`` says which rows and why);
- 2: bad input (spec file, options, input paths): nothing was run;
- 3: some shards failed: the dataset is incomplete; the same command resumes it.

Progress: a rich progress bar on a terminal, one log line per shard otherwise (stderr);
``--quiet`` prints neither. Heavy imports stay inside the functions.
"""
from __future__ import annotations

import sys
import time
from typing import List, Optional

import typer

from ._app import _print_json, app

EXIT_OK, EXIT_QUARANTINED, EXIT_BAD_INPUT, EXIT_SHARDS_FAILED = 0, 1, 2, 3

_WORKERS = typer.Option(None, "--workers", "-w",
                        help="Worker processes (local pool; with --dask a LocalCluster). "
                             "Default: run in this process.")
_DASK = typer.Option(False, "--dask", help="Run the shards on a Dask LocalCluster of --workers.")
_SCHEDULER = typer.Option(None, "--scheduler",
                          help="Run the shards on an existing Dask cluster (its address); "
                               "the output folder must be shared with its workers.")
_QUIET = typer.Option(False, "--quiet", "-q", help="No progress, only the summary.")
_JSON = typer.Option(False, "--json", help="Print the summary as JSON.")


class _Progress:
    """A rich bar on a terminal, else one log line per shard on stderr."""

    def __init__(self, label: str, quiet: bool):
        self.quiet = quiet
        self.bar = None
        self.label = label
        if not quiet and sys.stderr.isatty():
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn)
            from rich.console import Console
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeElapsedColumn(),
                                console=Console(stderr=True), transient=True)

    def __enter__(self):
        if self.bar is not None:
            self.bar.__enter__()
            self.task = None
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def __call__(self, key: str, info: dict, done: int, total: int) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            if self.task is None:
                self.task = self.bar.add_task(self.label, total=total, completed=done - 1)
            self.bar.update(self.task, completed=done, description=f"{self.label} {key}")
            return
        rows = ", ".join(f"{k} {v}" for k, v in sorted(info.get("rows", {}).items()))
        typer.echo(f"[{done}/{total}] {key}: {info.get('n_in', 0)} in, {rows or 'no rows'}"
                   + (f", {info['n_quarantined']} quarantined" if info.get("n_quarantined") else ""),
                   err=True)


def _execute(job, out: str, workers, dask: bool, scheduler, quiet: bool, label: str):
    """Run a job; returns (summary, exit code). Shard failures exit 3 with their list."""
    from ..pipelines import ShardFailure, make_executor, run_job
    ex = make_executor(workers, scheduler=scheduler, dask=dask)
    try:
        with _Progress(label, quiet) as prog:
            summary = run_job(job, out, ex, progress=prog)
    except ShardFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        for k, v in list(exc.failures.items())[:20]:
            typer.echo(f"  {k}: {v}", err=True)
        raise typer.Exit(EXIT_SHARDS_FAILED)
    return summary, (EXIT_QUARANTINED if summary.n_quarantined else EXIT_OK)


def _summary_dict(s, seconds: float) -> dict:
    return {"out": str(s.out), "job": s.job, "shards": s.shards_total, "shards_run": s.shards_run,
            "shards_skipped": s.shards_skipped, "inputs": s.n_in, "outputs": s.n_out,
            "quarantined": s.n_quarantined, "tables": s.tables, "seconds": round(seconds, 2)}


def _print_summary(s, seconds: float, json_out: bool) -> None:
    if json_out:
        _print_json(_summary_dict(s, seconds))
        return
    typer.echo(f"{s.job}: {s.shards_total} shards ({s.shards_run} run, {s.shards_skipped} "
               f"already done) in {seconds:.1f} s -> {s.out}")
    typer.echo(f"  inputs {s.n_in} = outputs {s.n_out} + quarantined {s.n_quarantined}")
    if s.tables:
        typer.echo("  tables: " + ", ".join(f"{k} {v}" for k, v in sorted(s.tables.items())))


def _bad_input(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def _load_job(build):
    """``build()`` (a job from a spec and options); a bad spec or option exits 2."""
    from ..errors import MjfastError
    try:
        return build()
    except MjfastError as exc:
        _bad_input(exc)


def _run_and_exit(job, out: str, workers, dask: bool, scheduler, quiet: bool,
                  json_out: bool, label: str, t0: float, extra=None) -> None:
    """Run ``job``, print its summary and exit with the job's code (``hands``, ``study``,
    ``simulate``, ``replay``). ``extra(summary)``: the command's own ``line`` (printed
    after the summary) and ``json`` (merged into the JSON summary)."""
    summary, code = _execute(job, out, workers, dask, scheduler, quiet or json_out, label)
    seconds = time.perf_counter() - t0
    more = extra(summary) if extra is not None else {}
    if json_out:
        _print_json({**_summary_dict(summary, seconds), **more.get("json", {})})
    else:
        _print_summary(summary, seconds, False)
        if more.get("line"):
            typer.echo(more["line"])
    raise typer.Exit(code)


@app.command("hands")
def hands_command(
    spec: Optional[str] = typer.Option(None, "--spec", help="A hands spec TOML file "
                                       "(keys of mjfast/pipelines/hands.toml)."),
    files: Optional[List[str]] = typer.Argument(None, help="Hand-string files (.txt one a "
                                                "line, .parquet with a hand column); none: "
                                                "generate hands."),
    rules: Optional[str] = typer.Option(None, "--rules", help="Rule sets, comma separated."),
    variant: Optional[List[str]] = typer.Option(None, "--variant",
                                                help="Variant name or .toml path (repeat)."),
    kind: Optional[str] = typer.Option(None, "--kind", help="ready or complete (generated)."),
    n: Optional[int] = typer.Option(None, "--n", "-n", help="Hands per rule set and variant."),
    seed: Optional[int] = typer.Option(None, "--seed"),
    shard_size: Optional[int] = typer.Option(None, "--shard-size", help="Hands (rows) per shard."),
    strings: Optional[bool] = typer.Option(None, "--strings/--no-strings",
                                           help="Write each generated hand's string."),
    wait_fans: Optional[bool] = typer.Option(None, "--wait-fans/--no-wait-fans",
                                             help="Each wait's fan lists too."),
    out: str = typer.Option("mjfast-hands", "--out", "-o", help="Output dataset folder."),
    workers: Optional[int] = _WORKERS, dask: bool = _DASK, scheduler: Optional[str] = _SCHEDULER,
    quiet: bool = _QUIET, json_out: bool = _JSON,
) -> None:
    """Generate (or read) hands and write shanten, waits, every wait scored and the
    scores of complete hands as the ``hands`` table."""
    t0 = time.perf_counter()
    over = dict(kind=kind, n=n, seed=seed, shard_size=shard_size, strings=strings,
                wait_fans=wait_fans,
                rules=[r.strip() for r in rules.split(",")] if rules else None,
                variants=list(variant) if variant else None)
    if files:
        over.update(source="files", files=list(files))

    def build():
        from ..pipelines import hands
        return hands.job_from_spec(spec, **over)
    job = _load_job(build)
    _run_and_exit(job, out, workers, dask, scheduler, quiet, json_out, "hands", t0)


@app.command("study")
def study_command(
    spec: str = typer.Argument(..., help="The study's TOML file (keys of "
                               "mjfast/pipelines/study.toml)."),
    out: str = typer.Option("mjfast-study", "--out", "-o", help="Output dataset folder."),
    workers: Optional[int] = _WORKERS, dask: bool = _DASK, scheduler: Optional[str] = _SCHEDULER,
    quiet: bool = _QUIET, json_out: bool = _JSON,
) -> None:
    """Run a rule-balance study: the same deals or hands under each variant (rescore) or
    the same walls played again (resimulate), into one dataset."""
    t0 = time.perf_counter()

    def build():
        from ..pipelines import study
        return study.job_from_spec(spec)
    job = _load_job(build)
    _run_and_exit(job, out, workers, dask, scheduler, quiet, json_out, "study", t0)


@app.command("run")
def run_command(
    out: str = typer.Option("mjfast-out", "--out", "-o",
                            help="Output folder: the dataset, and the report in report/."),
    spec: Optional[str] = typer.Option(None, "--spec", help="Another study TOML file "
                                       "instead of the default (mjfast/pipelines/run.toml)."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write the HTML report."),
    workers: Optional[int] = _WORKERS, dask: bool = _DASK, scheduler: Optional[str] = _SCHEDULER,
    quiet: bool = _QUIET, json_out: bool = _JSON,
) -> None:
    """The main job: the default study on embedded data (the bundled Botzone logs replayed
    under each MCR variant, a small simulation of each rule set, a ready-hand sample),
    written to ./mjfast-out/ with its report, and a summary printed."""
    from pathlib import Path

    from ..errors import MjfastError
    t0 = time.perf_counter()

    def build():
        from ..pipelines import study
        return study.job_from_spec(spec, default="run")
    job = _load_job(build)
    if not quiet and not json_out:
        typer.echo(f"mjfast run: {len(job.shards)} shards -> {out}/ "
                   "(the first run compiles the kernels once)", err=True)
    summary, code = _execute(job, out, workers, dask, scheduler, quiet or json_out, "run")
    seconds = time.perf_counter() - t0
    page = None
    if report:
        try:
            from ..report import build_report
            rep = build_report(out)
            page = rep.write(Path(out) / "report")
        except (MjfastError, OSError) as exc:   # the dataset stands without its report
            typer.echo(f"report not written: {type(exc).__name__}: {exc}", err=True)
            rep = None
            code = max(code, EXIT_SHARDS_FAILED)
    seconds = time.perf_counter() - t0
    if json_out:
        d = _summary_dict(summary, seconds)
        d["report"] = None if page is None else str(page)
        _print_json(d)
        raise typer.Exit(code)
    _print_summary(summary, seconds, False)
    if page is not None:
        if not quiet:
            from rich.console import Console
            con = Console()
            for part in rep.summary():
                con.print(part)
        typer.echo(f"  report: {page}")
    raise typer.Exit(code)
