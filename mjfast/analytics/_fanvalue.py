"""``fan-value``: a price list of the fans, per rule set, variant and source.

Per fan, over the legal wins (``legal`` true or unknown):

- ``frequency``: the share of wins holding it;
- ``points``: its value in the partition's table;
- ``mean_total``: the mean total of the wins holding it;
- ``points_share``: its share of all points won (points x count over the wins' totals);
- ``pivotal_share`` (rule sets with a minimum, MCR): the share of the wins holding it that
  are no longer legal when the hand is scored again with the fan switched off
  (:func:`mjfast.rules.without_fans`: the best reading and the exclusions are recomputed,
  so a fan that only displaces a cheaper one is not pivotal). The hands are read back from
  the ``events`` table (:mod:`._wins`); wins whose hand the record does not determine are
  counted in ``not_rescored`` and left out of the pivotal share.

Wins are clustered by wall (:mod:`._design`). Intervals (``*_low`` / ``*_high``) are 95 %
per fan: Wilson on the effective sample size for the shares, Student t for the mean total;
they are **not adjusted** for the number of fans compared — ``*_adj_low`` /
``*_adj_high`` are the Bonferroni intervals over the ``m`` fans of the partition
(family-wise 95 %). Fans are ranked by ``points_share`` (``rank``); ``base`` marks the
rule set's plain-win item held by every win (Tuidaohu 胡牌, Taiwan 和牌).

The partial holds additive moments per (rules, variant, source, fan_id, measure); it merges
by adding (a wall's deals in one partial).
"""
from __future__ import annotations

import numpy as np
import polars as pl

from . import _stats as S
from ._core import Analysis, collect, register
from ._design import tag
from ._names import fan_names, join_names

KEYS = ("rules", "variant", "source", "fan_id", "measure")
MEASURES = ("frequency", "points_share", "mean_total", "pivotal_share")
BASE_KEYS = ("win", "win_shape")
COLS = list(KEYS) + list(S.MOMENTS) + ["not_rescored"]


def _profile(rules: str, variant: str | None):
    """The rule profile a partition was scored with: the dataset's recorded rule context
    (never today's files); None when the data records none."""
    from ._names import recorded
    ctx = recorded(rules, variant)
    return None if ctx is None else ctx.profile


def _legal_wins(wins: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    w = tag(wins, deals).filter(pl.col("legal").fill_null(True))
    return w.with_columns(unit=pl.concat_str(pl.col("deal_id"), pl.lit(":"),
                                             pl.col("step").cast(pl.String), pl.lit(":"),
                                             pl.col("winner").cast(pl.String)))


def _pivotal(w: pl.DataFrame, events: pl.LazyFrame, deals: pl.LazyFrame) -> pl.DataFrame:
    """Per legal win and fan it holds (rule sets with a minimum): ``pivotal`` 1/0, or no
    row when its hand was not read back; with the per-partition ``not_rescored`` count."""
    from ..rules import without_fans
    from ._wins import winning_hands
    from ..scoring import score_batch, take_rows
    out, missing = [], []
    for (rules, variant), part in w.group_by(["rules", "variant"], maintain_order=True):
        prof = _profile(rules, variant)
        if prof is None or rules != "mcr" or int(prof.params.get("minimum", 0)) <= 0:
            continue
        part = part.sort("unit")
        batch, ok = winning_hands(part, events, deals, rules, prof)
        ids = part["fans"].to_list()
        held: dict[int, list[int]] = {}
        for i in np.flatnonzero(ok):
            for f in {int(x["id"]) for x in (ids[i] or [])}:
                held.setdefault(f, []).append(int(i))
        srcs = part["source"].to_list()
        for src in sorted(set(srcs)):
            n_bad = int(sum(1 for i, s in enumerate(srcs) if s == src and not ok[i]))
            missing.append((rules, variant, src, n_bad))
        units, clusters = part["unit"].to_list(), part["cluster"].to_list()
        for f, rows in sorted(held.items()):
            if not prof.row(f).enabled:
                continue
            sc = score_batch(take_rows(batch, np.asarray(rows, dtype=np.int64)),
                             variant=without_fans(prof, [f]),
                             threads=1 if len(rows) < 4096 else None)
            piv = (~sc.legal).astype(np.float64)
            for j, i in enumerate(rows):
                out.append((rules, variant, srcs[i], f, units[i], clusters[i], piv[j]))
    schema = {"rules": pl.String, "variant": pl.String, "source": pl.String, "fan_id": pl.Int64,
              "unit": pl.String, "cluster": pl.String, "y": pl.Float64}
    miss = pl.DataFrame(missing, schema={"rules": pl.String, "variant": pl.String,
                                         "source": pl.String, "not_rescored": pl.Int64},
                        orient="row")
    return pl.DataFrame(out, schema=schema, orient="row"), miss


def fan_value_partial(wins: pl.LazyFrame, deals: pl.LazyFrame,
                      events: pl.LazyFrame | None = None) -> pl.DataFrame:
    k = ["rules", "variant", "source"]
    w = collect(_legal_wins(wins, deals).select(*k, "deal_id", "step", "winner", "self_drawn",
                                                "discarder", "tile", "flags", "total", "fans",
                                                "unit", "cluster"))
    hits = (w.lazy().select(*k, "unit", "cluster", "fans").explode("fans")
            .filter(pl.col("fans").is_not_null())
            .select(*k, "unit", "cluster",
                    pl.col("fans").struct.field("id").cast(pl.Int64).alias("fan_id"),
                    (pl.col("fans").struct.field("points").cast(pl.Float64)
                     * pl.col("fans").struct.field("count").cast(pl.Float64)).alias("pts"))
            .group_by(*k, "fan_id", "unit").agg(pl.col("cluster").first(), pl.col("pts").sum()))
    hits = collect(hits).lazy()
    xs = w.lazy().select(*k, "unit", "cluster", pl.lit(1.0).alias("xa"),
                         pl.lit(0.0).alias("xb"))
    freq = S.family_moments(xs, hits.select(*k, "fan_id", "unit", "cluster",
                                            pl.lit(1.0).alias("ya"), pl.lit(0.0).alias("yb")),
                            k, "fan_id")
    xt = w.lazy().select(*k, "unit", "cluster", pl.col("total").cast(pl.Float64).alias("xa"),
                         pl.lit(0.0).alias("xb"))
    share = S.family_moments(xt, hits.select(*k, "fan_id", "unit", "cluster",
                                             pl.col("pts").alias("ya"), pl.lit(0.0).alias("yb")),
                             k, "fan_id")
    tot = hits.join(w.lazy().select(*k, "unit", "total"), on=k + ["unit"], how="left",
                    nulls_equal=True)
    mean = S.moments(tot.select(*k, "fan_id", "cluster", pl.col("total").alias("ya"),
                                pl.lit(1.0).alias("xa")), k + ["fan_id"])
    parts = [collect(freq.with_columns(pl.lit("frequency").alias("measure"))),
             collect(share.with_columns(pl.lit("points_share").alias("measure"))),
             collect(mean.with_columns(pl.lit("mean_total").alias("measure")))]
    miss = None
    if events is not None:
        piv, miss = _pivotal(w, events, deals)
        if piv.height:
            parts.append(collect(S.moments(piv.lazy().select(
                *k, "fan_id", "cluster", pl.col("y").alias("ya"), pl.lit(1.0).alias("xa")),
                k + ["fan_id"])).with_columns(pl.lit("pivotal_share").alias("measure")))
    out = pl.concat([p.select(*KEYS, *S.MOMENTS) for p in parts if p.height],
                    how="vertical_relaxed") if any(p.height for p in parts) else \
        pl.DataFrame(schema={c: (pl.String if c in ("rules", "variant", "source", "measure")
                                 else pl.Int64 if c in ("fan_id", "n_units", "n_clusters")
                                 else pl.Float64) for c in list(KEYS) + list(S.MOMENTS)})
    out = out.with_columns(pl.lit(0, pl.Int64).alias("not_rescored"))
    if miss is not None and miss.height:
        # the count of wins not read back, on the partition's frequency row of fan -1
        extra = miss.select(*k, pl.lit(-1, pl.Int64).alias("fan_id"),
                            pl.lit("not_rescored").alias("measure"), "not_rescored")
        extra = extra.with_columns(*[pl.lit(0, pl.Int64 if c in ("n_units", "n_clusters")
                                            else pl.Float64).alias(c) for c in S.MOMENTS])
        out = pl.concat([out, extra.select(out.columns)], how="vertical_relaxed")
    return out.select(COLS).sort(list(KEYS), nulls_last=True)


def fan_value_finish(part: pl.DataFrame) -> pl.DataFrame:
    k = ["rules", "variant", "source"]
    c = pl.col
    miss = part.filter(c("measure") == "not_rescored").group_by(k).agg(
        c("not_rescored").sum())
    part = part.filter(c("measure") != "not_rescored")
    fam = c("measure").is_in(["frequency", "points_share"])
    part = pl.concat([part.filter(~fam), S.complete_family(
        part.filter(fam), k + ["measure"], "fan_id").select(part.columns)], how="vertical_relaxed")
    est = S.estimates(part, family=k + ["measure"])
    lo, hi = S.proportion_interval(est)
    alo, ahi = S.proportion_interval(est, m=est["m"])
    est = est.with_columns(lo.alias("p_lo"), hi.alias("p_hi"), alo.alias("pa_lo"),
                           ahi.alias("pa_hi"))
    # the adjusted t interval of the mean total
    kk = np.array([S.crit(S.LEVEL, d, m) if d is not None and np.isfinite(d) else np.nan
                   for d, m in zip(est["df"].to_list(), est["m"].to_list())], dtype=float)
    v = est["value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    s = est["se_value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    est = est.with_columns(t_alo=pl.Series(v - kk * s).fill_nan(None),
                           t_ahi=pl.Series(v + kk * s).fill_nan(None))
    is_mean = c("measure") == "mean_total"
    est = est.with_columns(
        lo=pl.when(is_mean).then(c("value_low")).otherwise(c("p_lo")),
        hi=pl.when(is_mean).then(c("value_high")).otherwise(c("p_hi")),
        alo=pl.when(is_mean).then(c("t_alo")).otherwise(c("pa_lo")),
        ahi=pl.when(is_mean).then(c("t_ahi")).otherwise(c("pa_hi")))
    frames = []
    for m in MEASURES:
        sub = est.filter(c("measure") == m).select(
            *k, "fan_id", c("value").alias(m), c("lo").alias(f"{m}_low"),
            c("hi").alias(f"{m}_high"), c("alo").alias(f"{m}_adj_low"),
            c("ahi").alias(f"{m}_adj_high"),
            *([c("s_ya").round().cast(pl.Int64).alias("wins"),
               c("s_xa").round().cast(pl.Int64).alias("n_wins"), c("n_clusters").alias("walls"),
               c("m")] if m == "frequency" else []),
            *([c("s_xa").round().cast(pl.Int64).alias("rescored"),
               c("s_ya").round().cast(pl.Int64).alias("pivotal")]
              if m == "pivotal_share" else []))
        frames.append(sub)
    df = frames[0]
    for f in frames[1:]:
        df = df.join(f, on=k + ["fan_id"], how="left", nulls_equal=True)
    if df.height == 0:
        df = df.with_columns(*[pl.lit(None, pl.String).alias(x) for x in
                               ("name_zh", "name_en", "name_ja")], pl.lit(None, pl.Int64).alias("points"),
                             pl.lit(None, pl.Boolean).alias("base"),
                             pl.lit(None, pl.UInt32).alias("rank"),
                             pl.lit(None, pl.Int64).alias("not_rescored"))
    else:
        df = join_names(df)
        vals = fan_names(df.select("rules", "variant").unique().rows()).select(
            "rules", "variant", "fan_id", c("value").alias("points"), "key")
        df = df.join(vals, on=["rules", "variant", "fan_id"], how="left", nulls_equal=True)
        df = df.with_columns(base=c("key").is_in(list(BASE_KEYS)).fill_null(False)).drop("key")
        df = df.join(miss, on=k, how="left", nulls_equal=True).with_columns(
            c("not_rescored").fill_null(0))
        df = df.with_columns(rank=c("points_share").rank("ordinal", descending=True).over(k))
    cols = ["rules", "variant", "source", "rank", "fan_id", "name_zh", "name_en", "points",
            "frequency", "frequency_low", "frequency_high", "mean_total", "mean_total_low",
            "mean_total_high", "points_share", "points_share_low", "points_share_high",
            "pivotal_share", "pivotal_share_low", "pivotal_share_high", "wins", "n_wins",
            "walls", "pivotal", "rescored", "not_rescored", "base", "m",
            "frequency_adj_low", "frequency_adj_high", "mean_total_adj_low",
            "mean_total_adj_high", "points_share_adj_low", "points_share_adj_high",
            "pivotal_share_adj_low", "pivotal_share_adj_high", "name_ja"]
    return df.select(cols).sort(k + ["rank"], nulls_last=True)


FAN_VALUE = register(Analysis(
    "fan-value", "Fan value: a price list", ("wins", "deals", "events"), KEYS,
    lambda wins, deals, events, **_: fan_value_partial(wins, deals, events), fan_value_finish,
    "Per fan: frequency among legal wins, points, mean total of the wins holding it, share of "
    "all points and (rule sets with a minimum) the pivotal share, with clustered 95% intervals "
    "(unadjusted; Bonferroni over the fans in *_adj_*), ranked by share of points."))

fan_value = FAN_VALUE

__all__ = ["FAN_VALUE", "fan_value", "fan_value_partial", "fan_value_finish"]
