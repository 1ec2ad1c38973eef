"""Fan (yaku) frequency and co-occurrence over won hands: the ``wins`` table (source
``wins``) and the complete hands of a ``hands`` sample (source ``hands``, shanten -1).

A win counts when it is legal (``legal`` true or unknown): false wins (Botzone's declared
wins under 8 points) hold no fans a player earned.

A rule set's *base* fan, the plain-win item every ordinary win holds (rows keyed
:data:`BASE_KEYS` in the rule files: Taiwan 胡牌 ``win_shape``, Tuidaohu and two-player
和牌 ``win``), is kept in the fan table with ``base`` true; the co-occurrence ranking leaves
it out (it comes with every fan).
"""
from __future__ import annotations

import polars as pl

from ._core import Analysis, register, safe_div, wilson
from ._names import fan_names, join_names

KEYS = ("rules", "variant", "source", "fan_id")
TOTAL = -1          # fan_id of the row that holds every win (the denominator)
TOP = 10            # fans shown in the co-occurrence table
BASE_KEYS = ("win_shape", "win")   # row keys of the plain-win items (held by every win)


def _legal_wins(wins: pl.LazyFrame, hands: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Legal won hands: rules, variant, source, total, fans."""
    w = wins.filter(pl.col("legal").fill_null(True)).select(
        "rules", "variant", pl.lit("wins").alias("source"), pl.col("total").cast(pl.Int32),
        "fans")
    if hands is None:
        return w
    h = hands
    if "error" in h.collect_schema().names():
        h = h.filter(pl.col("error").is_null())
    h = h.filter((pl.col("shanten") == -1) & pl.col("fans").is_not_null()
                 & pl.col("legal").fill_null(True)).select(
        "rules", "variant", pl.lit("hands").alias("source"), pl.col("total").cast(pl.Int32),
        "fans")
    return pl.concat([w, h])


def fan_partial(wins: pl.LazyFrame, hands: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Per (rules, variant, source, fan_id): ``wins`` holding the fan, its ``count`` summed
    and the ``points`` it contributed (points x count); fan_id -1 holds all wins and their
    totals."""
    w = _legal_wins(wins, hands)
    per = (w.select("rules", "variant", "source", "fans").explode("fans")
           .filter(pl.col("fans").is_not_null())
           .select("rules", "variant", "source",
                   pl.col("fans").struct.field("id").cast(pl.Int64).alias("fan_id"),
                   pl.col("fans").struct.field("count").cast(pl.Int64).alias("c"),
                   (pl.col("fans").struct.field("points").cast(pl.Int64)
                    * pl.col("fans").struct.field("count").cast(pl.Int64)).alias("p"))
           .group_by("rules", "variant", "source", "fan_id")
           .agg(pl.len().cast(pl.Int64).alias("wins"), pl.col("c").sum().alias("count"),
                pl.col("p").sum().alias("points")))
    tot = (w.group_by("rules", "variant", "source")
           .agg(pl.lit(TOTAL, pl.Int64).alias("fan_id"), pl.len().cast(pl.Int64).alias("wins"),
                pl.lit(0, pl.Int64).alias("count"),
                pl.col("total").cast(pl.Int64).sum().alias("points")))
    return pl.concat([per, tot.select(per.collect_schema().names())])


def fan_finish(part: pl.DataFrame) -> pl.DataFrame:
    tot = part.filter(pl.col("fan_id") == TOTAL).select(
        "rules", "variant", "source", pl.col("wins").alias("n_wins"),
        pl.col("points").alias("all_points"))
    df = part.filter(pl.col("fan_id") != TOTAL).join(tot, on=["rules", "variant", "source"],
                                                      how="left", nulls_equal=True)
    lo, hi = wilson(pl.col("wins"), pl.col("n_wins"))
    df = df.with_columns(share=safe_div(pl.col("wins"), pl.col("n_wins")),
                         ci_low=lo, ci_high=hi,
                         points_per_win=safe_div(pl.col("points"), pl.col("wins")),
                         points_share=safe_div(pl.col("points"), pl.col("all_points")))
    df = _mark_base(join_names(df))
    return df.select("name_zh", "wins", "name_en", "share", "ci_low", "ci_high", "rules",
                     "variant", "source", "fan_id", "name_ja", "n_wins", "count", "points",
                     "points_per_win", "points_share", "base").sort(
        ["rules", "variant", "source", "wins", "fan_id"],
        descending=[False, False, True, True, False], nulls_last=True)


def _mark_base(df: pl.DataFrame, id_col: str = "fan_id", out: str = "base") -> pl.DataFrame:
    """``out``: the fan is its partition's base fan (see the module docstring)."""
    pairs = df.select("rules", "variant").unique().rows()
    names = fan_names(pairs)
    base = names.filter(pl.col("key").is_in(BASE_KEYS)).select(
        "rules", "variant", pl.col("fan_id").alias(id_col), pl.lit(True).alias(out)).cast(
        {"rules": df.schema["rules"], "variant": df.schema["variant"]})
    return df.join(base, on=["rules", "variant", id_col], how="left",
                   nulls_equal=True).with_columns(pl.col(out).fill_null(False))


def pair_partial(wins: pl.LazyFrame, hands: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Per (rules, variant, source, fan_a <= fan_b): wins holding both (a == b: holding
    a); (-1, -1) holds all wins."""
    w = _legal_wins(wins, hands).select(
        "rules", "variant", "source",
        pl.col("fans").list.eval(pl.element().struct.field("id").cast(pl.Int64))
        .list.unique().list.sort().alias("ids"))
    pairs = (w.with_columns(pl.col("ids").alias("fan_a"), pl.col("ids").alias("fan_b"))
             .explode("fan_a").explode("fan_b")
             .filter(pl.col("fan_a").is_not_null() & pl.col("fan_b").is_not_null()
                     & (pl.col("fan_a") <= pl.col("fan_b")))
             .group_by("rules", "variant", "source", "fan_a", "fan_b")
             .agg(pl.len().cast(pl.Int64).alias("wins")))
    tot = w.group_by("rules", "variant", "source").agg(
        pl.lit(TOTAL, pl.Int64).alias("fan_a"), pl.lit(TOTAL, pl.Int64).alias("fan_b"),
        pl.len().cast(pl.Int64).alias("wins"))
    return pl.concat([pairs, tot.select("rules", "variant", "source", "fan_a", "fan_b",
                                        "wins")])


def pair_finish(part: pl.DataFrame, top: int = TOP) -> pl.DataFrame:
    """Pairs among each partition's ``top`` most frequent fans (base fans aside): wins
    holding both, their share of all wins, P(b | a), P(a | b) and the lift
    P(a, b) / (P(a) P(b))."""
    keys = ["rules", "variant", "source"]
    n = part.filter(pl.col("fan_a") == TOTAL).select(*keys, pl.col("wins").alias("n_wins"))
    single = _mark_base(part.filter((pl.col("fan_a") == pl.col("fan_b"))
                                    & (pl.col("fan_a") != TOTAL)), "fan_a").filter(
        ~pl.col("base")).drop("base")
    ranked = single.sort(["wins", "fan_a"], descending=[True, False]).with_columns(
        pl.col("wins").cum_count().over(keys).alias("rank"))
    chosen = ranked.filter(pl.col("rank") <= top)
    sa = chosen.select(*keys, "fan_a", pl.col("wins").alias("wins_a"), pl.col("rank").alias("rank_a"))
    sb = chosen.select(*keys, pl.col("fan_a").alias("fan_b"), pl.col("wins").alias("wins_b"),
                       pl.col("rank").alias("rank_b"))
    df = (part.filter((pl.col("fan_a") < pl.col("fan_b")) & (pl.col("fan_a") != TOTAL))
          .join(sa, on=keys + ["fan_a"], nulls_equal=True)
          .join(sb, on=keys + ["fan_b"], nulls_equal=True)
          .join(n, on=keys, how="left", nulls_equal=True))
    df = df.with_columns(
        share=safe_div(pl.col("wins"), pl.col("n_wins")),
        p_b_given_a=safe_div(pl.col("wins"), pl.col("wins_a")),
        p_a_given_b=safe_div(pl.col("wins"), pl.col("wins_b")),
        lift=safe_div(pl.col("wins") * pl.col("n_wins"), pl.col("wins_a") * pl.col("wins_b")))
    df = join_names(join_names(df, "fan_a", "_a"), "fan_b", "_b")
    return df.select("name_zh_a", "name_zh_b", "wins", "share", "p_b_given_a", "p_a_given_b",
                     "lift", "rules", "variant", "source", "fan_a", "fan_b", "name_en_a",
                     "name_en_b", "wins_a", "wins_b", "n_wins").sort(
        ["rules", "variant", "source", "wins", "fan_a", "fan_b"],
        descending=[False, False, True, True, False, False], nulls_last=True)


FAN_FREQUENCY = register(Analysis(
    "fan-frequency", "Fan frequency", ("wins", "hands"), KEYS,
    lambda wins, hands, **_: fan_partial(wins, hands), fan_finish,
    "Share of wins holding each fan (Wilson 95% interval) and the points it contributes."))

FAN_COOCCURRENCE = register(Analysis(
    "fan-cooccurrence", "Co-occurrence of the top fans", ("wins", "hands"),
    ("rules", "variant", "source", "fan_a", "fan_b"),
    lambda wins, hands, **_: pair_partial(wins, hands), pair_finish,
    f"Wins holding both of two of the {TOP} most frequent fans, with P(b|a) and lift."))
