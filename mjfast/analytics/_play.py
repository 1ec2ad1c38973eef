"""Play statistics from replays and simulations: outcomes, winning turn, shanten and ready
rate by turn, agreement of real discards with the efficiency-best discard."""
from __future__ import annotations

import polars as pl

from ._core import Analysis, mean_sd, register, safe_div, wilson


def _legal(wins: pl.LazyFrame) -> pl.LazyFrame:
    return wins.filter(pl.col("legal").fill_null(True))


def play_partial(deals: pl.LazyFrame, wins: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    """Per (rules, variant): deals, player-deals, draws, legal wins, self-draws, deal-ins
    (wins on a discard), false wins, and the winning turn (the winner's discards before
    the win + 1) summed over wins in deals that have turn rows."""
    k = ["rules", "variant"]
    players = pl.coalesce(pl.col("scores").list.len(), pl.col("seats").list.len(),
                          pl.col("start_scores").list.len(), pl.lit(4)).cast(pl.Int64)
    d = deals.group_by(k).agg(pl.len().cast(pl.Int64).alias("deals"),
                              players.sum().alias("player_deals"),
                              pl.col("draw").fill_null(False).sum().cast(pl.Int64).alias("draws"))
    lw = _legal(wins)
    w = wins.group_by(k).agg(
        pl.col("legal").fill_null(True).sum().cast(pl.Int64).alias("wins"),
        (pl.col("legal").fill_null(True) & pl.col("self_drawn").fill_null(False)).sum()
        .cast(pl.Int64).alias("self_draws"),
        (pl.col("legal").fill_null(True) & ~pl.col("self_drawn").fill_null(False)).sum()
        .cast(pl.Int64).alias("deal_ins"),
        (~pl.col("legal").fill_null(True)).sum().cast(pl.Int64).alias("false_wins"),
        pl.col("total").filter(pl.col("legal").fill_null(True)).cast(pl.Int64).sum()
        .alias("win_total_sum"))
    t = turns.select(*k, "deal_id", "player", "step")
    with_turns = t.select(*k, "deal_id").unique()
    ws = (lw.select(*k, "deal_id", pl.col("winner").alias("player"), pl.col("step").alias("wstep"))
          .join(with_turns, on=k + ["deal_id"], how="semi", nulls_equal=True)
          .with_row_index("win"))
    wt = (ws.join(t, on=k + ["deal_id", "player"], how="left", nulls_equal=True)
          .group_by(*k, "win").agg(
              ((pl.col("step") < pl.col("wstep")).fill_null(False).sum() + 1)
              .cast(pl.Int64).alias("win_turn")))
    wt = wt.group_by(k).agg(pl.len().cast(pl.Int64).alias("win_turn_n"),
                            pl.col("win_turn").sum().alias("win_turn_sum"),
                            (pl.col("win_turn") ** 2).sum().alias("win_turn_sq"))
    keys = pl.concat([d.select(k), w.select(k), wt.select(k)]).unique()
    out = (keys.join(d, on=k, how="left", nulls_equal=True)
           .join(w, on=k, how="left", nulls_equal=True)
           .join(wt, on=k, how="left", nulls_equal=True))
    return out.with_columns(pl.exclude(k).fill_null(0))


def play_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    adds = {"draw_rate": safe_div(c("draws"), c("deals")),
            "win_rate": safe_div(c("wins"), c("player_deals")),
            "self_draw_rate": safe_div(c("self_draws"), c("player_deals")),
            "deal_in_rate": safe_div(c("deal_ins"), c("player_deals")),
            "self_draw_share": safe_div(c("self_draws"), c("wins")),
            "wins_per_deal": safe_div(c("wins"), c("deals")),
            "mean_win_total": safe_div(c("win_total_sum"), c("wins"))}
    df = part.with_columns(**adds)
    m, s = mean_sd(c("win_turn_sum").cast(pl.Float64), c("win_turn_sq").cast(pl.Float64),
                   c("win_turn_n"))
    lo, hi = wilson(c("wins"), c("player_deals"))
    df = df.with_columns(mean_win_turn=m, win_turn_sd=s, win_rate_low=lo, win_rate_high=hi)
    for rate, k, n in (("self_draw_rate", "self_draws", "player_deals"),
                       ("deal_in_rate", "deal_ins", "player_deals"),
                       ("draw_rate", "draws", "deals")):
        lo, hi = wilson(c(k), c(n))      # Wilson 95% interval of each rate
        df = df.with_columns(lo.alias(f"{rate}_low"), hi.alias(f"{rate}_high"))
    first = ["rules", "variant", "deals", "draw_rate", "win_rate", "self_draw_rate",
             "deal_in_rate", "mean_win_turn"]
    return df.select(first + [x for x in df.columns if x not in first]).sort(
        ["rules", "variant"], nulls_last=True)


def turn_partial(turns: pl.LazyFrame) -> pl.LazyFrame:
    return turns.group_by("rules", "variant", "turn").agg(
        pl.len().cast(pl.Int64).alias("decisions"),
        pl.col("shanten").cast(pl.Int64).sum().alias("shanten_sum"),
        (pl.col("shanten").cast(pl.Int64) ** 2).sum().alias("shanten_sq"),
        (pl.col("shanten_after") == 0).sum().cast(pl.Int64).alias("ready"),
        (pl.col("shanten") == -1).sum().cast(pl.Int64).alias("complete"))


def turn_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    m, s = mean_sd(c("shanten_sum").cast(pl.Float64), c("shanten_sq").cast(pl.Float64),
                   c("decisions"))
    lo, hi = wilson(c("ready"), c("decisions"))
    return part.with_columns(mean_shanten=m, shanten_sd=s,
                             ready_rate=safe_div(c("ready"), c("decisions")),
                             ready_low=lo, ready_high=hi).select(
        "rules", "variant", "turn", "decisions", "mean_shanten", "shanten_sd", "ready_rate",
        "ready_low", "ready_high", "ready", "complete", "shanten_sum", "shanten_sq").sort(
        ["rules", "variant", "turn"], nulls_last=True)


def agree_partial(candidates: pl.LazyFrame) -> pl.LazyFrame:
    ch = candidates.filter(pl.col("chosen").fill_null(False))
    return ch.group_by("rules", "variant").agg(
        pl.len().cast(pl.Int64).alias("decisions"),
        (pl.col("rank_efficiency") == 1).sum().cast(pl.Int64).alias("agree_efficiency"),
        (pl.col("rank_value") == 1).sum().cast(pl.Int64).alias("agree_value"),
        pl.col("rank_efficiency").cast(pl.Int64).sum().alias("rank_efficiency_sum"))


def agree_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    lo, hi = wilson(c("agree_efficiency"), c("decisions"))
    return part.with_columns(
        agreement=safe_div(c("agree_efficiency"), c("decisions")), ci_low=lo, ci_high=hi,
        agreement_value=safe_div(c("agree_value"), c("decisions")),
        mean_rank_efficiency=safe_div(c("rank_efficiency_sum"), c("decisions"))).select(
        "rules", "variant", "decisions", "agreement", "ci_low", "ci_high", "agreement_value",
        "mean_rank_efficiency", "agree_efficiency", "agree_value", "rank_efficiency_sum").sort(
        ["rules", "variant"], nulls_last=True)


PLAY_STATS = register(Analysis(
    "play-stats", "Play statistics", ("deals", "wins", "turns"), ("rules", "variant"),
    lambda deals, wins, turns, **_: play_partial(deals, wins, turns), play_finish,
    "Win, self-draw, deal-in and draw rates (per player-deal; draws per deal) and the mean "
    "winning turn."))

PLAY_BY_TURN = register(Analysis(
    "play-by-turn", "Shanten and ready rate by turn", ("turns",), ("rules", "variant", "turn"),
    lambda turns, **_: turn_partial(turns), turn_finish,
    "Mean 14-tile shanten and the share of decisions that leave a ready hand, by turn."))

DISCARD_AGREEMENT = register(Analysis(
    "discard-agreement", "Real discards against the efficiency-best", ("candidates",),
    ("rules", "variant"), lambda candidates, **_: agree_partial(candidates), agree_finish,
    "Share of real discards that were the efficiency-best (rank 1) and value-best."))
