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
    """The frame's cells as strings (the analysis ``name`` picks the view). Columns the view
    formats by row (``row_value`` / ``row_diff`` / ``row_size``: a table of metrics in
    several units) carry their unit in each cell; the header has none."""
    v = view_for(name)
    cols = list(cols if cols is not None else columns(df, name))
    if not cjk:
        cols = [c for c in cols if not c.name.startswith(("name_zh", "name_ja"))]
    decimals = {c.name: F.decimals_for(df[c.name].to_list()) for c in cols
                if c.kind == F.NUMBER and c.name in df.columns
                and df.schema[c.name].is_numeric()}
    by_row = v is not None and "metric" in df.columns
    per_row = set(v.row_value + v.row_diff + v.row_size) if by_row else set()
    sizes = set(v.row_size) if v is not None else set()
    is_compare = name == "compare" and "metric" in df.columns
    headers = []
    for c in cols:
        h = F.header(c.label, F.TEXT if c.name in per_row else c.kind)
        if c.ci:
            h += " (95% CI)"
        headers.append(h)
    headers = _unique(headers, cols)
    rows = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in cols:
            val = r.get(c.name)
            kind, unit, dec = c.kind, False, decimals.get(c.name)
            if c.name in per_row:
                kind = v.row_kind(c.name, r["metric"], r.get("unit"))
                unit, dec = True, None
            if isinstance(val, (list, dict)):
                cells.append(_json(val))
                continue
            if is_compare and c.name == "diff" and r.get("paired") and val == 0 and not r.get("se"):
                cells.append("same under both")
                continue
            s = F.fmt(kind, val, unit=unit, decimals=dec,
                      signed=False if c.name in sizes else None)
            if c.ci and val is not None:
                lo, hi = _interval(r, c.ci)
                if lo is not None or hi is not None:
                    s += f" ({F.fmt_interval(kind, lo, hi, decimals=dec)})"
            cells.append(s)
        rows.append(cells)
    numeric = [c.kind not in (F.TEXT,) and (c.name not in df.columns
                                           or df.schema[c.name].is_numeric()
                                           or c.name in per_row)
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


SOURCE_ORDER = {"simulate": 0, "replay": 1, "hands": 2}
_BY_ORDER = {"dealer": 0, "seat_wind": 1, "position": 2, "bot": 3}
_GROUP_ORDER = {"dealer": 0, "non-dealer": 1, "E": 0, "S": 1, "W": 2, "N": 3}
BY_WORDS = {"dealer": "dealer", "seat_wind": "seat wind", "position": "position",
            "bot": "bot"}


def for_reading(name: str | None, df: pl.DataFrame, cjk: bool = True
                ) -> tuple[pl.DataFrame, list[str]]:
    """An analysis's table as the page and the terminal show it (machine formats keep the
    frame as computed): ``compare`` as differences (:func:`compare_for_reading`, identical
    results said once), ``seat-advantage`` grouping by grouping (dealer, seat wind,
    position), ``fan-value`` with one name column, ``sample-size`` one row per comparison
    (:func:`sample_size_for_reading`). Returns the frame and sentences to print with it."""
    if df.height == 0:
        return df, []
    if name == "compare" and "metric" in df.columns:
        return same_rows_once(compare_for_reading(df))
    if name == "seat-advantage" and "by" in df.columns:
        return seat_for_reading(df), []
    if name == "fan-value" and "name_en" in df.columns:
        return fan_value_for_reading(df, cjk), []
    if name == "sample-size" and "delta_basis" in df.columns:
        return sample_size_for_reading(df), []
    return df, []


def _source_order() -> pl.Expr:
    return pl.col("source").replace_strict(SOURCE_ORDER, default=9, return_dtype=pl.Int8)


def seat_for_reading(df: pl.DataFrame) -> pl.DataFrame:
    """Seat advantage grouping by grouping: the dealer first, then the seat winds E S W N,
    the positions, the bots, each group's variants one under the other; the study's own
    source (simulations) first."""
    c = pl.col
    keys = [k for k in ("rules", "variant") if k in df.columns]
    return df.with_columns(
        _s=_source_order(),
        _b=c("by").replace_strict(_BY_ORDER, default=9, return_dtype=pl.Int8),
        _g=c("group").replace_strict(_GROUP_ORDER, default=None, return_dtype=pl.Int64)
        .fill_null(c("group").cast(pl.Int64, strict=False)),
    ).sort(["rules", "_s", "source", "_b", "_g", "group", *keys[1:]],
           nulls_last=True).with_columns(
        c("by").replace_strict(BY_WORDS, default=c("by"), return_dtype=pl.String)
    ).drop("_s", "_b", "_g")


def fan_value_for_reading(df: pl.DataFrame, cjk: bool = True) -> pl.DataFrame:
    """The price list with one ``fan`` column (the Chinese name and the English one; the
    English alone without a CJK font), in rank order."""
    c = pl.col
    en = c("name_en").fill_null(c("fan_id").cast(pl.String))
    fan = (pl.when(c("name_zh").is_not_null()).then(pl.concat_str(c("name_zh"), pl.lit(" "), en))
           .otherwise(en) if cjk and "name_zh" in df.columns else en)
    keys = [k for k in ("rules", "variant") if k in df.columns]
    return df.with_columns(fan.alias("fan"), _s=_source_order()).sort(
        [*keys, "_s", "source", "rank"], nulls_last=True).drop("_s")


def _fewest_decimals(values: Sequence[float], scale: float) -> int:
    for d in range(4):
        if all(abs(round(x * scale, d) - x * scale) < 1e-9 for x in values):
            return d
    return 3


def sample_size_for_reading(df: pl.DataFrame) -> pl.DataFrame:
    """One row per comparison (rules, source, metric, variant against its reference): the
    observed difference, the units needed to confirm it, what the sample detects now, and
    the units needed for the planning grid in one cell (``1 pp: 5,465 · 2 pp: 1,367``).
    Clusters needed only where units are clustered (not for the hands sample, each hand its
    own cluster). The play metrics first, fans last by the size of their change."""
    c = pl.col
    keys = ["rules", "source", "metric", "fan_id", "variant", "reference", "pairing"]
    keys = [k for k in keys if k in df.columns]
    obs = df.filter(c("delta_basis") == "observed")
    grid_rows = df.filter(c("delta_basis") == "grid").sort("delta")
    cells: dict[tuple, str] = {}
    for g, sub in grid_rows.group_by(keys, maintain_order=True):
        unit = sub["unit"][0]
        kind = F.DIFF.get(F.metric_kind(str(sub["metric"][0]), unit), F.NUMBER)
        dec = _fewest_decimals(sub["delta"].to_list(), F.SCALE.get(kind, 1.0))
        cells[tuple(g)] = " · ".join(
            f"{F.fmt(kind, d, unit=True, decimals=dec, signed=False)}: {F.fmt(F.COUNT, n)}"
            .replace(" ", "\u00a0")
            for d, n in zip(sub["delta"].to_list(), sub["units_needed"].to_list()))
    grid_col = [cells.get(tuple(r[k] for k in keys), F.MISSING)
                for r in obs.iter_rows(named=True)]
    label = (c("label") if "label" in obs.columns else c("metric"))
    out = obs.with_columns(
        pl.Series("grid", grid_col, dtype=pl.String),
        (label.str.slice(0, 1).str.to_uppercase() + label.str.slice(1)).alias("label"),
        pl.when(c("n_clusters") < c("n_units")).then(c("clusters_needed"))
        .otherwise(None).alias("clusters_needed"),
        _s=_source_order(), _f=c("fan_id").is_not_null(),
        _a=pl.when(c("fan_id").is_not_null()).then(-c("diff").abs()))
    if "sample_unit" not in out.columns:
        out = out.with_columns(pl.lit(None, pl.String).alias("sample_unit"))
    return out.sort(["rules", "_s", "source", "_f", "_a", "label", "variant"],
                    nulls_last=True).drop(
        "_s", "_f", "_a", "delta_basis", "delta", "detectable_now")


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
           "same_rows_once", "for_reading", "seat_for_reading", "fan_value_for_reading",
           "sample_size_for_reading"]
