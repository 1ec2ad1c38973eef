"""``seat-advantage``: does a seat, the dealer or the first mover win more?

Per rule set, variant and source (``simulate``: duplicate simulations, every seat rotation
of a wall; ``replay``: logs) and per grouping ``by``:

- ``position``: the player's position in the deal's record (0..3, the order of play
  around the table, ``player`` in every table);
- ``seat_wind``: E S W N (the turn order within the deal: East, the dealer, moves first);
- ``dealer``: ``dealer`` / ``non-dealer``;
- ``bot``: the policy in the seat (simulations whose seats hold different bots: the
  duplicate comparison of bots).

Per group: ``net`` (mean net points per player-deal, ``deals.scores``), ``win_rate``,
``deal_in_rate``, ``self_draw_rate`` (legal wins per player-deal), each with a 95 %
interval clustered by wall (Student t for the net, Wilson on the effective sample size for
the rates), and the **compensation**: the points per deal that, paid to (positive) or
taken from (negative) the group, would bring its expectation to the mean over all players
(``mean``; 0 for zero-sum payments): ``−(net − mean)``, with its interval (the contrast of
the group with all players of the same deals, so the shared luck of a wall cancels).
``*_adj_low`` / ``*_adj_high`` are Bonferroni intervals over the ``m`` groups of the
grouping; ``mde`` the smallest compensation the sample could tell from 0 (80 % power).
The partial holds additive moments per (rules, variant, source, by, group, metric).
"""
from __future__ import annotations

import numpy as np
import polars as pl

from . import _stats as S
from ._core import Analysis, collect, register
from ._design import deals_frame, tag

KEYS = ("rules", "variant", "source", "by", "group", "metric")
METRICS = ("net", "win_rate", "deal_in_rate", "self_draw_rate")
WINDS = ("E", "S", "W", "N")


def seat_partial(deals: pl.LazyFrame, wins: pl.LazyFrame) -> pl.DataFrame:
    d = deals_frame(deals).filter(pl.col("scores").is_not_null())
    k = ["rules", "variant", "source"]
    legal = pl.col("legal").fill_null(True)
    w = tag(wins, deals).filter(legal)
    won = w.group_by(*k, "deal_id", pl.col("winner").cast(pl.Int64).alias("player")).agg(
        pl.len().cast(pl.Float64).alias("win"),
        pl.col("self_drawn").fill_null(False).sum().cast(pl.Float64).alias("self_draw"))
    dealt = w.filter(~pl.col("self_drawn").fill_null(False) & pl.col("discarder").is_not_null()
                     & (pl.col("discarder") >= 0)).group_by(
        *k, "deal_id", pl.col("discarder").cast(pl.Int64).alias("player")).agg(
        pl.len().cast(pl.Float64).alias("deal_in"))
    p = d.select(*k, "deal_id", "cluster", "dealer", "seats", "bots", "scores",
                 pl.int_ranges(0, pl.col("scores").list.len()).alias("player"))
    p = p.explode("scores", "player").with_columns(
        pl.col("player").cast(pl.Int64),
        net=pl.col("scores").cast(pl.Float64),
        wind=pl.col("seats").list.get(pl.col("player"), null_on_oob=True).cast(pl.Int64),
        bot=pl.col("bots").list.get(pl.col("player"), null_on_oob=True),
        is_dealer=(pl.col("player") == pl.col("dealer").cast(pl.Int64)).fill_null(False))
    p = (p.join(won, on=k + ["deal_id", "player"], how="left", nulls_equal=True)
         .join(dealt, on=k + ["deal_id", "player"], how="left", nulls_equal=True)
         .with_columns(pl.col("win", "self_draw", "deal_in").fill_null(0.0)))
    p = collect(p).lazy()            # one row per player-deal, reused by every grouping
    groups = {
        "position": pl.col("player").cast(pl.String),
        "seat_wind": pl.col("wind").replace_strict(list(range(4)), list(WINDS), default=None,
                                                   return_dtype=pl.String),
        "dealer": pl.when(pl.col("is_dealer")).then(pl.lit("dealer")).otherwise(pl.lit("non-dealer")),
        "bot": pl.col("bot"),
    }
    vals = {"net": "net", "win_rate": "win", "deal_in_rate": "deal_in",
            "self_draw_rate": "self_draw"}
    # all players of each deal: the b side (the mean the compensation aims at)
    allp = collect(p.group_by(*k, "deal_id").agg(
        pl.len().cast(pl.Float64).alias("xb"),
        *[pl.col(v).sum().alias(f"all_{v}") for v in vals.values()])).lazy()
    parts = []
    for by, g in groups.items():
        q = p.with_columns(g.alias("group")).filter(pl.col("group").is_not_null())
        per = q.group_by(*k, "deal_id", "group").agg(
            pl.col("cluster").first(), pl.len().cast(pl.Float64).alias("xa"),
            *[pl.col(v).sum().alias(v) for v in vals.values()])
        per = per.join(allp, on=k + ["deal_id"], how="left", nulls_equal=True)
        for metric, v in vals.items():
            parts.append(per.select(*k, pl.lit(by).alias("by"), "group",
                                    pl.lit(metric).alias("metric"), "cluster",
                                    pl.col(v).alias("ya"), "xa",
                                    pl.col(f"all_{v}").alias("yb"), "xb"))
    units = pl.concat([collect(x) for x in parts], how="vertical_relaxed").lazy()
    return collect(S.moments(units, list(KEYS)))


def seat_finish(part: pl.DataFrame) -> pl.DataFrame:
    k = ["rules", "variant", "source", "by"]
    c = pl.col
    # a bot grouping with one bot says nothing: left out
    nb = part.filter(c("by") == "bot").group_by(k).agg(c("group").n_unique().alias("_n"))
    part = part.join(nb, on=k, how="left", nulls_equal=True).filter(
        (c("by") != "bot") | (c("_n") > 1)).drop("_n")
    est = S.estimates(part, family=k + ["metric"])
    lo, hi = S.proportion_interval(est)
    est = est.with_columns(lo.alias("p_lo"), hi.alias("p_hi"))
    kk = np.array([S.crit(S.LEVEL, d, m) if d is not None and np.isfinite(d) else np.nan
                   for d, m in zip(est["df"].to_list(), est["m"].to_list())], dtype=float)
    v = est["value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    sv = est["se_value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    est = est.with_columns(t_alo=pl.Series(v - kk * sv).fill_nan(None),
                           t_ahi=pl.Series(v + kk * sv).fill_nan(None))
    net = est.filter(c("metric") == "net").select(
        *k, "group", c("n_units").alias("deals"), c("n_clusters").alias("walls"),
        c("s_xa").cast(pl.Int64).alias("player_deals"), c("value").alias("net"),
        c("value_low").alias("net_low"), c("value_high").alias("net_high"),
        c("ref_value").alias("mean"), (-c("diff")).alias("compensation"),
        (-c("ci_high")).alias("compensation_low"), (-c("ci_low")).alias("compensation_high"),
        (-c("adj_high")).alias("compensation_adj_low"), (-c("adj_low")).alias("compensation_adj_high"),
        c("mde"), c("m"), c("t_alo").alias("net_adj_low"), c("t_ahi").alias("net_adj_high"))
    df = net
    for m in METRICS[1:]:
        sub = est.filter(c("metric") == m).select(
            *k, "group", c("value").alias(m), c("p_lo").alias(f"{m}_low"),
            c("p_hi").alias(f"{m}_high"), c("ref_value").alias(f"{m}_mean"))
        df = df.join(sub, on=k + ["group"], how="left", nulls_equal=True)
    order = {"position": 0, "seat_wind": 1, "dealer": 2, "bot": 3}
    gorder = {"E": 0, "S": 1, "W": 2, "N": 3, "dealer": 0, "non-dealer": 1}
    df = df.with_columns(
        _b=c("by").replace_strict(order, default=9, return_dtype=pl.Int8),
        _g=c("group").replace_strict(gorder, default=None, return_dtype=pl.Int8))
    cols = ["rules", "variant", "source", "by", "group", "net", "net_low", "net_high",
            "compensation", "compensation_low", "compensation_high", "win_rate", "win_rate_low",
            "win_rate_high", "deal_in_rate", "deal_in_rate_low", "deal_in_rate_high",
            "self_draw_rate", "self_draw_rate_low", "self_draw_rate_high", "deals", "walls",
            "player_deals", "mean", "win_rate_mean", "deal_in_rate_mean", "self_draw_rate_mean",
            "mde", "m", "net_adj_low", "net_adj_high", "compensation_adj_low",
            "compensation_adj_high"]
    return df.sort(["rules", "variant", "source", "_b", "_g", "group"], nulls_last=True).select(cols)


SEAT_ADVANTAGE = register(Analysis(
    "seat-advantage", "Seat advantage", ("deals", "wins"), KEYS,
    lambda deals, wins, **_: seat_partial(deals, wins), seat_finish,
    "Mean net points, win and deal-in rates by position, seat wind, dealer (and bot), with "
    "95% intervals clustered by wall, and the per-seat compensation that equalises them."))

seat_advantage = SEAT_ADVANTAGE

__all__ = ["SEAT_ADVANTAGE", "seat_advantage", "seat_partial", "seat_finish"]
