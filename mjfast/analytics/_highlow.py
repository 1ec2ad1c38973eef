"""The MCR 8-point high/low analysis of ready hands.

A ready hand's winning tiles split into *high* tiles (the win reaches the rule set's minimum,
``legal_*`` true: 8 points in MCR) and *low* tiles (it does not: the hand cannot win on
them). A hand is ``all_high``, ``split`` or ``all_low`` by its winning tile kinds, counted
on a discard and, separately, on a self-draw; live-copy shares weigh each tile by the copies
still unseen. Ready hands come from ``hands`` (generated samples) and ``turns`` (replays and
simulations, the hand after each discard).
"""
from __future__ import annotations

import polars as pl

from ._core import Analysis, register, safe_div, wilson
from ._ev import ready_hands
from ._names import join_names

CATEGORIES = ("all_high", "split", "all_low")


def _category(n_high: pl.Expr, n: pl.Expr) -> pl.Expr:
    return (pl.when(n_high == n).then(pl.lit("all_high"))
            .when(n_high == 0).then(pl.lit("all_low")).otherwise(pl.lit("split")))


def _measures(waits: pl.Expr) -> dict[str, pl.Expr]:
    e = pl.element().struct.field
    out = {"n": waits.list.len().cast(pl.Int64),
           "live": waits.list.eval(e("live").cast(pl.Int64)).list.sum()}
    for how, leg in (("d", "legal_discard"), ("s", "legal_self_drawn")):
        hi = e(leg).fill_null(False)
        out[f"high_{how}"] = waits.list.eval(hi.cast(pl.Int64)).list.sum()
        out[f"high_live_{how}"] = waits.list.eval(
            (hi.cast(pl.Int64) * e("live").cast(pl.Int64))).list.sum()
    return out


def classify(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Add n, live, high_d/s, high_live_d/s and cat_d/cat_s to rows with a ``waits``
    column (rows without waits dropped)."""
    lf = lf.filter(pl.col("waits").list.len() > 0).with_columns(**_measures(pl.col("waits")))
    return lf.with_columns(cat_d=_category(pl.col("high_d"), pl.col("n")),
                           cat_s=_category(pl.col("high_s"), pl.col("n")))


def _counts(prefix: str, cat: str) -> list[pl.Expr]:
    return [(pl.col(cat) == c).sum().cast(pl.Int64).alias(f"{c}{prefix}") for c in CATEGORIES]


def _sums() -> list[pl.Expr]:
    c = pl.col
    return [pl.len().cast(pl.Int64).alias("ready"), *_counts("", "cat_d"),
            *_counts("_self", "cat_s"), c("n").sum().alias("waits"),
            (c("n") - c("high_d")).sum().alias("low_waits"),
            (c("n") - c("high_s")).sum().alias("low_waits_self"),
            c("live").sum().alias("live"),
            (c("live") - c("high_live_d")).sum().alias("low_live"),
            (c("live") - c("high_live_s")).sum().alias("low_live_self")]


def highlow_partial(hands: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    r = classify(ready_hands(hands, turns))
    return r.group_by("rules", "variant", "source").agg(*_sums())


def _shares(df: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    adds = {}
    for suffix in ("", "_self"):
        for cat in CATEGORIES:
            k = f"{cat}{suffix}"
            lo, hi = wilson(c(k), c("ready"))
            adds[f"share_{k}"] = safe_div(c(k), c("ready"))
            adds[f"share_{k}_low"], adds[f"share_{k}_high"] = lo, hi
    adds["low_live_share"] = safe_div(c("low_live"), c("live"))
    adds["low_live_share_self"] = safe_div(c("low_live_self"), c("live"))
    adds["low_wait_share"] = safe_div(c("low_waits"), c("waits"))
    return df.with_columns(**adds)


def highlow_finish(part: pl.DataFrame) -> pl.DataFrame:
    df = _shares(part)
    first = ["rules", "variant", "source", "ready", "share_all_high", "share_split",
             "share_all_low", "low_live_share", "share_all_high_self", "share_split_self",
             "share_all_low_self", "low_live_share_self"]
    return df.select(first + [c for c in df.columns if c not in first]).sort(
        ["rules", "variant", "source"], nulls_last=True)


# -- a self-draw against a discard: the 3 x 3 table of categories -----------------------------
def selfdraw_partial(hands: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    r = classify(ready_hands(hands, turns))
    return r.group_by("rules", "variant", "source", pl.col("cat_d").alias("discard"),
                      pl.col("cat_s").alias("self_draw")).agg(
        pl.len().cast(pl.Int64).alias("hands"))


def selfdraw_finish(part: pl.DataFrame) -> pl.DataFrame:
    keys = ["rules", "variant", "source"]
    return part.with_columns(
        share=pl.col("hands") / pl.col("hands").sum().over(keys),
        share_of_discard=pl.col("hands") / pl.col("hands").sum().over(keys + ["discard"]),
    ).sort(keys + ["discard", "self_draw"], nulls_last=True)


# -- by turn and shanten history (turns) -----------------------------------------------------
def _with_history(turns: pl.LazyFrame) -> pl.LazyFrame:
    """``prev_shanten``: the player's shanten after his previous discard in the deal."""
    return turns.sort("deal_id", "player", "step").with_columns(
        prev_shanten=pl.col("shanten_after").shift(1).over("rules", "variant", "deal_id",
                                                            "player"))


def byturn_partial(turns: pl.LazyFrame) -> pl.LazyFrame:
    r = classify(_with_history(turns))
    return r.group_by("rules", "variant", "turn", "prev_shanten").agg(*_sums())


def byturn_finish(part: pl.DataFrame) -> pl.DataFrame:
    df = _shares(part)
    first = ["rules", "variant", "turn", "prev_shanten", "ready", "share_all_high",
             "share_split", "share_all_low", "low_live_share"]
    return df.select(first + [c for c in df.columns if c not in first]).sort(
        ["rules", "variant", "turn", "prev_shanten"], nulls_last=True)


# -- how often a player stood on a low or split wait (turns, per player and deal) ------------
def stood_partial(turns: pl.LazyFrame) -> pl.LazyFrame:
    r = classify(turns)
    per = r.group_by("rules", "variant", "deal_id", "player").agg(
        (pl.col("cat_d") == "split").any().alias("split"),
        (pl.col("cat_d") == "all_low").any().alias("all_low"),
        pl.len().alias("ready_turns"),
        (pl.col("cat_d") != "all_high").sum().alias("low_turns"))
    return per.group_by("rules", "variant").agg(
        pl.len().cast(pl.Int64).alias("player_deals_ready"),
        pl.col("split").sum().cast(pl.Int64).alias("stood_split"),
        pl.col("all_low").sum().cast(pl.Int64).alias("stood_all_low"),
        (pl.col("split") | pl.col("all_low")).sum().cast(pl.Int64).alias("stood_low_or_split"),
        pl.col("ready_turns").sum().cast(pl.Int64).alias("ready_turns"),
        pl.col("low_turns").sum().cast(pl.Int64).alias("low_or_split_turns"))


def stood_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    lo, hi = wilson(c("stood_low_or_split"), c("player_deals_ready"))
    return part.with_columns(
        share_stood_low_or_split=safe_div(c("stood_low_or_split"), c("player_deals_ready")),
        ci_low=lo, ci_high=hi,
        share_turns_low_or_split=safe_div(c("low_or_split_turns"), c("ready_turns")),
    ).sort(["rules", "variant"], nulls_last=True)


# -- with candidates: what a better discard would have kept ----------------------------------
def better_partial(candidates: pl.LazyFrame) -> pl.LazyFrame:
    """Decisions whose chosen discard left a split or all-low wait: was there a ready
    discard with more live high tiles, and how many would it have kept?"""
    c = classify(candidates.filter(pl.col("shanten_after") == 0))
    dec = ["rules", "variant", "deal_id", "step", "player"]
    best = c.group_by(dec).agg(
        pl.col("high_live_d").max().alias("best_high_live"),
        (pl.col("cat_d") == "all_high").any().alias("best_all_high"))
    chosen = c.filter(pl.col("chosen").fill_null(False) & (pl.col("cat_d") != "all_high")).select(
        *dec, pl.col("cat_d").alias("chosen_category"),
        pl.col("high_live_d").alias("chosen_high_live"), pl.col("live").alias("chosen_live"))
    j = chosen.join(best, on=dec, nulls_equal=True)
    return j.group_by("rules", "variant", "chosen_category").agg(
        pl.len().cast(pl.Int64).alias("decisions"),
        (pl.col("best_high_live") > pl.col("chosen_high_live")).sum().cast(pl.Int64)
        .alias("better_exists"),
        pl.col("best_all_high").sum().cast(pl.Int64).alias("all_high_available"),
        pl.col("chosen_high_live").sum().cast(pl.Int64).alias("chosen_high_live"),
        pl.col("best_high_live").sum().cast(pl.Int64).alias("best_high_live"),
        pl.col("chosen_live").sum().cast(pl.Int64).alias("chosen_live"))


def better_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    lo, hi = wilson(c("better_exists"), c("decisions"))
    return part.with_columns(
        share_better=safe_div(c("better_exists"), c("decisions")), ci_low=lo, ci_high=hi,
        high_live_gained_per_decision=safe_div(c("best_high_live") - c("chosen_high_live"),
                                               c("decisions")),
    ).sort(["rules", "variant", "chosen_category"], nulls_last=True)


# -- which fans decide it (needs the optional per-wait fan lists) ----------------------------
def fans_partial(hands: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    """Split hands (discard): per fan, hands where the fan is on every high wait and on no
    low wait (``decides``), or on some high wait and no low one (``on_high_only``).
    fan_id -1 counts split hands with per-wait fans, -2 split hands without them."""
    def fans_of(way):
        return [pl.col("waits").list.eval(
            pl.element().struct.field(way).is_not_null()).list.all().alias("has_fans")]
    r = classify(ready_hands(hands, turns)).filter(pl.col("cat_d") == "split")
    r = r.with_columns(*fans_of("fans_discard"))
    known = r.filter(pl.col("has_fans"))
    tot = r.group_by("rules", "variant").agg(
        pl.col("has_fans").sum().cast(pl.Int64).alias("with"),
        (~pl.col("has_fans")).sum().cast(pl.Int64).alias("without"))
    tot = pl.concat([
        tot.select("rules", "variant", pl.lit(-1, pl.Int64).alias("fan_id"),
                   pl.col("with").alias("decides"), pl.lit(0, pl.Int64).alias("on_high_only")),
        tot.select("rules", "variant", pl.lit(-2, pl.Int64).alias("fan_id"),
                   pl.col("without").alias("decides"), pl.lit(0, pl.Int64).alias("on_high_only"))])
    h = known.with_row_index("hand").select(
        "rules", "variant", "hand", pl.col("high_d").alias("n_high"), "waits").explode("waits")
    h = h.select("rules", "variant", "hand", "n_high",
                 pl.col("waits").struct.field("legal_discard").fill_null(False).alias("high"),
                 pl.col("waits").struct.field("fans_discard").list.eval(
                     pl.element().struct.field("id").cast(pl.Int64)).list.unique()
                 .alias("ids")).explode("ids").filter(pl.col("ids").is_not_null())
    per = h.group_by("rules", "variant", "hand", pl.col("ids").alias("fan_id")).agg(
        pl.col("n_high").first(), pl.col("high").sum().alias("on_high"),
        (~pl.col("high")).sum().alias("on_low"))
    cnt = per.group_by("rules", "variant", "fan_id").agg(
        ((pl.col("on_high") == pl.col("n_high")) & (pl.col("on_low") == 0)).sum()
        .cast(pl.Int64).alias("decides"),
        ((pl.col("on_high") > 0) & (pl.col("on_low") == 0)).sum().cast(pl.Int64)
        .alias("on_high_only"))
    return pl.concat([cnt.select("rules", "variant", "fan_id", "decides", "on_high_only"),
                      tot.select("rules", "variant", "fan_id", "decides", "on_high_only")])


def fans_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    keys = ["rules", "variant"]
    tot = part.filter(c("fan_id") < 0).group_by(keys).agg(
        c("decides").filter(c("fan_id") == -1).sum().alias("split_hands_with_fans"),
        c("decides").filter(c("fan_id") == -2).sum().alias("split_hands_without_fans"))
    df = part.filter(c("fan_id") >= 0).join(tot, on=keys, how="left", nulls_equal=True)
    df = join_names(df.with_columns(share=safe_div(c("decides"), c("split_hands_with_fans"))))
    df = df.select("name_zh", "decides", "name_en", "share", "on_high_only", "rules", "variant",
                   "fan_id", "split_hands_with_fans", "split_hands_without_fans")
    if df.height == 0:   # say so: no per-wait fan lists in these tables
        df = tot.select(pl.lit(None, pl.String).alias("name_zh"),
                        pl.lit(0, pl.Int64).alias("decides"), pl.lit(None, pl.String)
                        .alias("name_en"), pl.lit(None, pl.Float64).alias("share"),
                        pl.lit(0, pl.Int64).alias("on_high_only"), "rules", "variant",
                        pl.lit(None, pl.Int64).alias("fan_id"), "split_hands_with_fans",
                        "split_hands_without_fans")
    return df.sort(["rules", "variant", "decides", "fan_id"],
                   descending=[False, False, True, False], nulls_last=True)


HIGH_LOW = register(Analysis(
    "high-low", "MCR high/low waits", ("hands", "turns"), ("rules", "variant", "source"),
    lambda hands, turns, **_: highlow_partial(hands, turns), highlow_finish,
    "Share of ready hands whose waits are all high / split / all low (discard and "
    "self-draw) and the share of live winning tiles that are low."))

HIGH_LOW_SELF = register(Analysis(
    "high-low-self-draw", "High/low: discard against self-draw", ("hands", "turns"),
    ("rules", "variant", "source", "discard", "self_draw"),
    lambda hands, turns, **_: selfdraw_partial(hands, turns), selfdraw_finish,
    "How a self-draw changes the split: ready hands by category on a discard and on a "
    "self-draw."))

HIGH_LOW_TURN = register(Analysis(
    "high-low-by-turn", "High/low by turn and shanten history", ("turns",),
    ("rules", "variant", "turn", "prev_shanten"),
    lambda turns, **_: byturn_partial(turns), byturn_finish,
    "Ready decisions in replays/simulations by turn and the shanten after the player's "
    "previous discard."))

HIGH_LOW_STOOD = register(Analysis(
    "high-low-stood", "How often players stood on low or split waits", ("turns",),
    ("rules", "variant"), lambda turns, **_: stood_partial(turns), stood_finish,
    "Player-deals with a ready hand in which the player stood on a split or all-low wait."))

HIGH_LOW_BETTER = register(Analysis(
    "high-low-better", "What a better discard would have kept", ("candidates",),
    ("rules", "variant", "chosen_category"),
    lambda candidates, **_: better_partial(candidates), better_finish,
    "Decisions left on a split or all-low wait where another ready discard kept more live "
    "high tiles."))

HIGH_LOW_FANS = register(Analysis(
    "high-low-fans", "Which fans decide the split", ("hands", "turns"),
    ("rules", "variant", "fan_id"),
    lambda hands, turns, **_: fans_partial(hands, turns), fans_finish,
    "Fans on every high wait and on no low wait of split hands (needs the per-wait fan "
    "lists; split_hands_without_fans says how many hands lack them)."))
