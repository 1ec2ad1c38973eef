"""What every analysis shares: partial aggregates that add, their merge, the Wilson interval.

An analysis runs in two steps. ``partial`` turns input tables (Polars lazy frames) into a
small frame of group keys and *additive* columns (counts, sums, sums of squares); partials of
shards merge by adding them group by group (:func:`merge`), so ``merge(partial(A),
partial(B)) == partial(A + B)``. ``finish`` turns a (merged) partial into the table a person
reads: shares, means, spreads, intervals, names.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import polars as pl

from ..datasets import Dataset
from ..errors import InputError

Z95 = 1.959963984540054   # two-sided 95 % normal quantile


def wilson(k: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score interval of a proportion ``k / n`` (null where ``n == 0``)."""
    nf = n.cast(pl.Float64)
    p = k.cast(pl.Float64) / nf
    denom = 1.0 + z * z / nf
    centre = (p + z * z / (2.0 * nf)) / denom
    half = z / denom * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt()
    ok = n > 0
    return (pl.when(ok).then(centre - half).otherwise(None),
            pl.when(ok).then(centre + half).otherwise(None))


def mean_sd(total: pl.Expr, sq: pl.Expr, n: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Mean and sample standard deviation from a count, a sum and a sum of squares."""
    nf = n.cast(pl.Float64)
    mean = pl.when(n > 0).then(total / nf).otherwise(None)
    var = (sq - total * total / nf) / (nf - 1.0)
    sd = pl.when(n > 1).then(pl.max_horizontal(var, pl.lit(0.0)).sqrt()).otherwise(None)
    return mean, sd


def merge(parts: Iterable[pl.DataFrame], keys: Iterable[str]) -> pl.DataFrame:
    """Add partial aggregates group by group (every non-key column is summed)."""
    keys = list(keys)
    parts = [p for p in parts if p is not None]
    if not parts:
        raise InputError("merge", None, "no partial results to merge")
    df = pl.concat(parts, how="vertical_relaxed")
    return (df.group_by(keys).agg(pl.exclude(keys).sum())
            .select(parts[0].columns).sort(keys, nulls_last=True))


Frames = Mapping[str, pl.LazyFrame]


def _as_lazy(x) -> pl.LazyFrame:
    if isinstance(x, pl.LazyFrame):
        return x
    if isinstance(x, pl.DataFrame):
        return x.lazy()
    return pl.from_arrow(x).lazy()


def _is_dataset(path: Path) -> bool:
    from ..datasets import TABLES
    # a table folder holds rules=* partitions (a dataset named like a table, e.g. the
    # hands job's output folder "hands/", holds a manifest and table folders instead)
    return (path / "manifest.json").exists() or any(
        next((path / t).glob("rules=*"), None) is not None for t in TABLES)


def dataset_roots(source) -> list[Dataset]:
    """The datasets of ``source``: itself, or, for a folder of datasets (``mjfast run``'s
    output: replay/, simulate/, hands/ ...), each dataset inside it (two levels at most)."""
    ds = source if isinstance(source, Dataset) else Dataset(source)
    root = Path(ds.path)
    if not root.is_dir():
        raise InputError(str(root), None, "no such dataset folder")
    if _is_dataset(root):
        return [ds]
    found = [Dataset(p) for p in sorted(root.iterdir()) if p.is_dir() and _is_dataset(p)]
    if not found:
        found = [Dataset(q) for p in sorted(root.iterdir()) if p.is_dir()
                 for q in sorted(p.iterdir()) if q.is_dir() and _is_dataset(q)]
    return found or [ds]


def frames(source, tables: Iterable[str]) -> dict[str, pl.LazyFrame]:
    """Lazy frames of ``tables`` from a dataset (a :class:`Dataset` or its folder) or from a
    mapping of table name to frame (tables missing from a dataset are empty frames). The
    rule contexts the data records (a mapping: under ``"rule_contexts"``; a mapping without
    them keeps those in use, e.g. the frames of a dataset read by the caller) are put in use
    for names and values (:mod:`._names`)."""
    from ._names import merge_contexts, recorded_rules, use_contexts
    if isinstance(source, (str, os.PathLike, Dataset)):
        roots = dataset_roots(source)
        use_contexts(recorded_rules(roots))
        out = {}
        for t in tables:
            scans = [ds.scan(t) for ds in roots if ds.files(t)] or [roots[0].scan(t)]
            scans = [lf.with_columns(pl.col("rules").cast(pl.String),
                                     pl.col("variant").cast(pl.String)) for lf in scans]
            out[t] = scans[0] if len(scans) == 1 else pl.concat(scans, how="vertical_relaxed")
        return out
    if isinstance(source, Mapping):
        if "rule_contexts" in source:       # else: the contexts of the data read before
            use_contexts(merge_contexts([source["rule_contexts"]]))
        out = {}
        for t in tables:
            if t in source:
                out[t] = _as_lazy(source[t])
            else:
                from ..datasets import empty_table
                out[t] = pl.from_arrow(empty_table(t)).lazy().with_columns(
                    pl.lit(None, pl.String).alias("rules"),
                    pl.lit(None, pl.String).alias("variant"))
        return out
    raise InputError(repr(source)[:80], None, "expected a dataset folder or a mapping of frames")


def collect(lf) -> pl.DataFrame:
    """Run a lazy frame on the streaming engine (a DataFrame passes through)."""
    if isinstance(lf, pl.DataFrame):
        return lf
    return lf.collect(engine="streaming")


@dataclass(frozen=True)
class Analysis:
    """A named analysis: ``partial`` (tables -> additive partial), ``finish``."""
    name: str
    title: str
    tables: tuple[str, ...]
    keys: tuple[str, ...]
    partial_fn: Callable[..., pl.LazyFrame]
    finish_fn: Callable[[pl.DataFrame], pl.DataFrame]
    doc: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)

    def partial(self, source) -> pl.DataFrame:
        """The additive partial of ``source`` (dataset, folder, or mapping of frames)."""
        fr = frames(source, self.tables)
        try:
            return collect(self.partial_fn(**fr)).sort(list(self.keys), nulls_last=True)
        except (pl.exceptions.PolarsError, OSError) as exc:
            where = source if isinstance(source, (str, os.PathLike)) else getattr(
                source, "path", "frames")
            raise InputError(str(where), None,
                             f"{self.name}: cannot read the tables ({exc})") from None

    def merge(self, *parts: pl.DataFrame) -> pl.DataFrame:
        return merge(parts, self.keys)

    def finish(self, part: pl.DataFrame) -> pl.DataFrame:
        return self.finish_fn(part)

    def __call__(self, source) -> pl.DataFrame:
        return self.finish(self.partial(source))


ANALYSES: dict[str, Analysis] = {}


def register(a: Analysis) -> Analysis:
    ANALYSES[a.name] = a
    return a


def get_analysis(name: str) -> Analysis:
    key = name.strip().lower().replace("_", "-")
    if key not in ANALYSES:
        raise InputError(name, None, f"unknown analysis (known: {', '.join(sorted(ANALYSES))})")
    return ANALYSES[key]


def run(name: str, source) -> pl.DataFrame:
    """Run the built-in analysis ``name`` over ``source``."""
    return get_analysis(name)(source)


def safe_div(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    return pl.when(b != 0).then(a.cast(pl.Float64) / b.cast(pl.Float64)).otherwise(None)


__all__ = ["Z95", "wilson", "mean_sd", "merge", "frames", "collect", "Analysis", "ANALYSES",
           "register", "get_analysis", "run", "safe_div", "dataset_roots"]
