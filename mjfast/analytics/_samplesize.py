"""``sample-size``: how many deals a comparison needs.

For every difference :func:`~mjfast.analytics.compare` estimates (a metric, a source, a
variant against the reference, paired or unpaired), from its observed per-unit variance —
clustered by wall, and paired when the units are — the units (deals, hands, decisions)
needed to detect a difference ``delta`` with a two-sided 95 % test and 80 % power:
``n = (z_{0.975} + z_{0.8})² σ² / Δ²`` with ``σ² = n_obs · Var(diff)`` (the clusters keeping
their size). Rows:

- ``delta_basis = "observed"``: Δ = the observed |difference| (the sample a replication
  would need to confirm it);
- ``delta_basis = "grid"``: standard differences by the metric's unit: shares 0.01, 0.02,
  0.05 (1, 2, 5 percentage points); points 0.25, 0.5, 1; counts 0.5, 1, 2.

``units_needed`` (per variant; with ``clusters_needed``: walls at the observed units per
wall) and, for paired rows, ``units_needed_unpaired``: what the same Δ would need per
variant if the two variants were played on different walls (the variances of the two
levels added, their covariance lost) — the gain of pairing. ``mde``: the difference the present sample detects (80 % power).
``label`` and ``sample_unit``: the metric in words and what ``n_units`` counts, as in
``compare``.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from . import _stats as S
from ._compare import KEYS, TABLES, compare_finish, compare_partial
from ._core import Analysis, register

GRID = {"share": (0.01, 0.02, 0.05), "points": (0.25, 0.5, 1.0), "count": (0.5, 1.0, 2.0)}


def sample_size_finish(part: pl.DataFrame, grid: dict | None = None) -> pl.DataFrame:
    grid = GRID if grid is None else grid
    est = compare_finish(part).filter(pl.col("diff").is_not_null() & pl.col("se").is_not_null()
                                      & ~pl.col("same"))
    rows = []
    for r in est.iter_rows(named=True):
        n = r["n_units"]
        sig2 = r["se"] ** 2 * n
        sig2_u = None
        if r["pairing"] == "paired" and r["se_value"] is not None and r["se_ref"] is not None:
            # the same levels measured on different walls: the two variances add
            sig2_u = (r["se_value"] ** 2 + r["se_ref"] ** 2) * n
        per_cluster = n / r["n_clusters"] if r["n_clusters"] else None
        deltas = [("observed", abs(r["diff"]))] + [("grid", d) for d in grid.get(r["unit"], ())]
        for basis, d in deltas:
            if not d:
                continue
            need = float(S.n_needed(sig2, d))
            need_u = float(S.n_needed(sig2_u, d)) if sig2_u is not None else None
            rows.append({**{k: r[k] for k in ("rules", "source", "metric", "name_en", "fan_id",
                                              "variant", "reference", "pairing", "unit")},
                         "n_units": n, "n_clusters": r["n_clusters"], "diff": r["diff"],
                         "se": r["se"], "sd_unit": math.sqrt(sig2), "deff": r["deff"],
                         "mde": r["mde"], "delta_basis": basis, "delta": d,
                         "units_needed": _ceil(need),
                         "clusters_needed": _ceil(need / per_cluster) if per_cluster else None,
                         "units_needed_unpaired": _ceil(need_u),
                         "detectable_now": bool(r["mde"] is not None and d >= r["mde"]),
                         "label": r["label"], "sample_unit": r["sample_unit"]})
    schema = {"rules": pl.String, "source": pl.String, "metric": pl.String, "name_en": pl.String,
              "fan_id": pl.Int64, "variant": pl.String, "reference": pl.String,
              "pairing": pl.String, "unit": pl.String, "n_units": pl.Int64,
              "n_clusters": pl.Int64, "diff": pl.Float64, "se": pl.Float64,
              "sd_unit": pl.Float64, "deff": pl.Float64, "mde": pl.Float64,
              "delta_basis": pl.String, "delta": pl.Float64, "units_needed": pl.Int64,
              "clusters_needed": pl.Int64, "units_needed_unpaired": pl.Int64,
              "detectable_now": pl.Boolean, "label": pl.String, "sample_unit": pl.String}
    df = pl.DataFrame(rows, schema=schema, orient="row")
    cols = ["rules", "source", "metric", "name_en", "variant", "reference", "pairing",
            "delta_basis", "delta", "units_needed", "clusters_needed", "units_needed_unpaired",
            "n_units", "n_clusters", "diff", "mde", "detectable_now", "sd_unit", "se", "deff",
            "unit", "fan_id", "label", "sample_unit"]
    # the play metrics first, fans last; the observed difference before the grid
    return df.with_columns(_f=pl.col("fan_id").is_not_null(),
                           _b=pl.col("delta_basis") != "observed").sort(
        ["rules", "source", "_f", "metric", "fan_id", "variant", "pairing", "_b", "delta"],
        nulls_last=True).select(cols)


def _ceil(x):
    return None if x is None or not np.isfinite(x) else int(math.ceil(x - 1e-9))


def sample_size(source, grid: dict | None = None) -> pl.DataFrame:
    """The sample-size table of ``source`` (module docstring); ``grid`` maps a metric unit
    (``share``, ``points``, ``count``) to the differences to plan for."""
    return sample_size_finish(compare_partial(source), grid)


SAMPLE_SIZE = register(Analysis(
    "sample-size", "Sample size", TABLES, KEYS,
    lambda **fr: compare_partial(fr), sample_size_finish,
    "Deals (units) needed to detect a difference at 95% confidence and 80% power, from each "
    "comparison's observed per-deal variance (clustered, paired or not)."))

__all__ = ["SAMPLE_SIZE", "sample_size", "sample_size_finish", "GRID"]
