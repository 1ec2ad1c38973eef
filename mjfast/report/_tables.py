"""Tables as text cells, the same for the HTML page and the terminal: each analysis's
columns from its view (:data:`mjfast.report._format.VIEWS`), each value in its kind's
format, an interval beside its estimate in the same format."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence

import polars as pl

from . import _format as F

Z95 = 1.959963984540054
METRIC_VALUE = ("value", "ref_value")          # compare: the metric's own kind
METRIC_DIFF = ("diff", "detectable", "se")     # compare: the kind of a difference


@dataclass
class Grid:
    cols: list[F.Col]
    headers: list[str]
    rows: list[list[str]]
    numeric: list[bool]


def view_for(name: str | None) -> F.View | None:
    return F.VIEWS.get(name) if name else None


def columns(df: pl.DataFrame, name: str | None = None) -> list[F.Col]:
    v = view_for(name)
    if v is None:      # a SQL result: its rule set and variant first, then its own order
        first = [F.Col(k, k, F.TEXT, None, 0) for k in ("rules", "variant") if k in df.columns]
        return first + [F.guess(c, df.schema[c]) for c in df.columns
                        if c not in ("rules", "variant")]
    return v.columns(df.columns, dict(df.schema))


def _json(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=str)


def grid(df: pl.DataFrame, name: str | None = None, cols: Sequence[F.Col] | None = None,
         cjk: bool = True) -> Grid:
    """The frame's cells as strings (the analysis ``name`` picks the view)."""
    cols = list(cols if cols is not None else columns(df, name))
    if not cjk:
        cols = [c for c in cols if not c.name.startswith(("name_zh", "name_ja"))]
    decimals = {c.name: F.decimals_for(df[c.name].to_list()) for c in cols
                if c.kind == F.NUMBER and c.name in df.columns
                and df.schema[c.name].is_numeric()}
    is_compare = name == "compare" and "metric" in df.columns
    headers = []
    for c in cols:
        h = F.header(c.label, c.kind if not is_compare or c.name not in
                     METRIC_VALUE + METRIC_DIFF else F.TEXT)
        if c.ci:
            h += " (95% CI)"
        headers.append(h)
    headers = _unique(headers, cols)
    rows = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in cols:
            v = r.get(c.name)
            kind, unit, dec = c.kind, False, decimals.get(c.name)
            if is_compare and c.name in METRIC_VALUE + METRIC_DIFF:
                kind = F.metric_kind(r["metric"], r.get("unit"))
                if c.name in METRIC_DIFF:
                    kind = F.DIFF.get(kind, F.NUMBER)
                unit, dec = True, None
            if isinstance(v, (list, dict)):
                cells.append(_json(v))
                continue
            if is_compare and c.name == "diff" and r.get("paired") and v == 0 and not r.get("se"):
                cells.append("same under both")
                continue
            s = F.fmt(kind, v, unit=unit, decimals=dec)
            if c.ci and v is not None:
                lo, hi = _interval(r, c.ci)
                if lo is not None or hi is not None:
                    s += f" ({F.fmt_interval(kind, lo, hi, decimals=dec)})"
            cells.append(s)
        rows.append(cells)
    numeric = [c.kind not in (F.TEXT,) and (c.name not in df.columns
                                           or df.schema[c.name].is_numeric()
                                           or c.name in METRIC_VALUE + METRIC_DIFF)
               for c in cols]
    return Grid(cols, headers, rows, numeric)


def compare_for_reading(df: pl.DataFrame) -> pl.DataFrame:
    """The compare table as a person reads it: one row per variant against the reference
    (the reference's own rows are its "reference value"), metrics named in words, the
    paired differences first, then the other metrics, then the fans by the size of their
    change."""
    from ._summary import metric_label
    if "metric_id" in df.columns:      # already for reading
        return df
    sub = df.filter(pl.col("variant") != pl.col("reference"))
    if "pairing" in sub.columns:       # the studies' compare: a level is not a difference
        sub = sub.filter(pl.col("pairing") != "all")
    is_fan = pl.col("metric").str.contains("fan")
    order = (pl.when(~is_fan & pl.col("paired")).then(0).when(~is_fan).then(1)
             .when(pl.col("paired")).then(2).otherwise(3))
    keys = [k for k in ("rules", "source") if k in sub.columns]
    sub = sub.with_columns(_o=order, _a=-pl.col("diff").abs().fill_null(0)).sort(
        [*keys, "_o", "_a", "metric"], nulls_last=True).drop("_o", "_a")
    if "unit" not in sub.columns:     # the kind, read from the metric's name before renaming
        sub = sub.with_columns(pl.col("metric").map_elements(
            F.metric_kind, return_dtype=pl.String).alias("unit"))
    label = (pl.col("metric").map_elements(metric_label, return_dtype=pl.String)
             if "label" not in sub.columns else      # compare's own words (fans named)
             pl.col("label").str.slice(0, 1).str.to_uppercase() + pl.col("label").str.slice(1))
    return sub.with_columns(
        pl.col("metric").alias("metric_id"), pl.col("metric").str.contains("fan").alias("fan"),
        label.alias("metric"))


def same_rows_once(df: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """A compare table for reading without its paired rows that are exactly zero (the
    same under both variants in every paired deal): they are named once, in a sentence per
    rule set and variant."""
    if "metric_id" not in df.columns:
        df = compare_for_reading(df)
    same = pl.col("paired") & (pl.col("diff") == 0) & (pl.col("se").fill_null(0) == 0)
    if "same" in df.columns:           # compare says so itself (every pair equal)
        same = pl.col("same").fill_null(False)
    rows = df.filter(same)
    notes = []
    keys = [k for k in ("rules", "source", "variant", "reference") if k in df.columns]
    for g in rows.select(keys).unique(maintain_order=True).rows():
        sub = rows.filter(*[pl.col(k) == v for k, v in zip(keys, g)])
        d = dict(zip(keys, g))
        plain = [m for m, f in zip(sub["metric"], sub["fan"]) if not f]
        fans = [m.replace(" held (paired per deal)", "").replace(": share of wins", "")
                for m, f in zip(sub["metric"], sub["fan"]) if f]
        what = [m.replace(" (paired per deal)", "") for m in plain]
        if fans:
            what.append(f"whether each of {len(fans)} fans is held ({', '.join(fans)})")
        where = " · ".join(str(d[k]) for k in ("rules", "source") if d.get(k))
        notes.append(f"Same under {d['variant']} and {d['reference']} ({where}) in every one "
                     f"of {sub['n'].max():,} paired deals: " + "; ".join(what) + ".")
    return df.filter(~same), notes


def _interval(r: dict, ci: tuple[str, str]):
    a, b = ci
    if a == "±":        # value ± 1.96 standard errors (the analysis gives the se)
        v, se = r.get(b.split(":")[0]), r.get(b.split(":")[-1])
        return (None, None) if v is None or se is None else (v - Z95 * se, v + Z95 * se)
    return r.get(a), r.get(b)


def _unique(headers: list[str], cols: Sequence[F.Col]) -> list[str]:
    seen: dict[str, int] = {}
    for h in headers:
        seen[h] = seen.get(h, 0) + 1
    return [h if seen[h] == 1 else f"{h} [{c.name}]" for h, c in zip(headers, cols)]


def width(s: str) -> int:
    """Terminal cells of a string (East Asian wide characters take two)."""
    from rich.cells import cell_len
    return cell_len(s)


__all__ = ["Grid", "grid", "columns", "view_for", "width", "compare_for_reading",
           "same_rows_once"]
