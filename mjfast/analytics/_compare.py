"""Rule-balance comparison: every analysis side by side per variant, with differences
against a reference variant and their uncertainty.

The partial is one long table of additive sums per (rules, metric, variant, paired):
``n``, ``s`` (sum) and ``s2`` (sum of squares). Unpaired metrics are proportions or means
over each variant's own rows; paired metrics are per-deal differences ``variant -
reference`` over deals present under both (same ``deal_id``: a ``rescore`` study or a
``--duplicate`` simulation), so their uncertainty is that of the mean difference.
"""
from __future__ import annotations

import polars as pl

from ._core import Z95, collect, frames, merge, safe_div
from ._ev import ev_partial, payment_partial
from ._fans import TOTAL, fan_partial
from ._highlow import highlow_partial, stood_partial
from ._names import join_names
from ._play import agree_partial, play_partial

KEYS = ("rules", "metric", "variant", "paired")
TABLES = ("deals", "wins", "turns", "hands", "candidates")
_LONG = {"rules": pl.String, "metric": pl.String, "variant": pl.String, "paired": pl.Boolean,
         "n": pl.Int64, "s": pl.Float64, "s2": pl.Float64}


def _long(df: pl.DataFrame, metric: str, n: str, s: str, s2: str | None = None) -> pl.DataFrame:
    return df.select(pl.col("rules"), pl.lit(metric).alias("metric"), pl.col("variant"),
                     pl.lit(False).alias("paired"), pl.col(n).cast(pl.Int64).alias("n"),
                     pl.col(s).cast(pl.Float64).alias("s"),
                     pl.col(s2 if s2 else s).cast(pl.Float64).alias("s2"))


def reference_variant(variants) -> str:
    vs = sorted(v for v in set(variants) if v is not None)
    return "default" if "default" in vs else (vs[0] if vs else "default")


def compare_partial(source, reference: str | None = None) -> pl.DataFrame:
    fr = frames(source, TABLES)
    if reference is None:
        vs = pl.concat([collect(fr[t].select("variant").unique()) for t in TABLES])
        reference = reference_variant(vs["variant"].to_list())
    parts = []
    play = collect(play_partial(fr["deals"], fr["wins"], fr["turns"]))
    for m, k, n in (("win_rate", "wins", "player_deals"), ("self_draw_rate", "self_draws",
                    "player_deals"), ("deal_in_rate", "deal_ins", "player_deals"),
                    ("draw_rate", "draws", "deals")):
        parts.append(_long(play, m, n, k))
    parts.append(_long(play, "mean_win_turn", "win_turn_n", "win_turn_sum", "win_turn_sq"))
    fans = collect(fan_partial(fr["wins"]))
    tot = fans.filter(pl.col("fan_id") == TOTAL).select("rules", "variant",
                                                         pl.col("wins").alias("n_wins"))
    # every fan seen under a rule set, under every variant of it (0 where absent)
    seen = fans.filter(pl.col("fan_id") != TOTAL).select("rules", "fan_id").unique()
    f = (tot.join(seen, on="rules", nulls_equal=True)
         .join(fans.select("rules", "variant", "fan_id", "wins"),
               on=["rules", "variant", "fan_id"], how="left", nulls_equal=True)
         .with_columns(pl.col("wins").fill_null(0)))
    f = join_names(f).with_columns(
        metric=pl.concat_str(pl.lit("fan share: "), pl.col("name_en")))
    if f.height:
        parts.append(f.select("rules", "metric", "variant", pl.lit(False).alias("paired"),
                              pl.col("n_wins").alias("n"), pl.col("wins").cast(pl.Float64)
                              .alias("s"), pl.col("wins").cast(pl.Float64).alias("s2")))
    hl = collect(highlow_partial(fr["hands"], fr["turns"]))
    for src in ("hands", "turns"):
        h = hl.filter(pl.col("source") == src)
        for cat in ("all_high", "split", "all_low"):
            parts.append(_long(h, f"high-low {src}: share {cat}", "ready", cat))
        # live winning tiles that are low (each tile a Bernoulli draw: an approximation)
        parts.append(_long(h, f"high-low {src}: low share of live tiles", "live", "low_live"))
    st = collect(stood_partial(fr["turns"]))
    parts.append(_long(st, "high-low: player-deals on a low or split wait",
                       "player_deals_ready", "stood_low_or_split"))
    ag = collect(agree_partial(fr["candidates"]))
    parts.append(_long(ag, "discards agreeing with the efficiency-best", "decisions",
                       "agree_efficiency"))
    ev = collect(ev_partial(fr["hands"], fr["turns"])).group_by(
        "rules", "variant", "source").agg(pl.exclude("form", "n_melds").sum())
    for src in ("hands", "turns"):
        e = ev.filter(pl.col("source") == src)
        parts.append(_long(e, f"ev {src}: discard", "hands_live", "ev_discard_sum",
                           "ev_discard_sq"))
        parts.append(_long(e, f"ev {src}: self-draw", "hands_live", "ev_self_sum",
                           "ev_self_sq"))
    pay = collect(payment_partial(fr["deals"])).filter(pl.col("dealer")).group_by(
        "rules", "variant").agg(pl.col("deals", "net_sum", "net_sq").sum())
    parts.append(_long(pay, "dealer net payment", "deals", "net_sum", "net_sq"))
    parts.append(collect(paired_partial(fr["deals"], reference)))
    kept = [p.cast(_LONG) for p in parts if p.height]
    out = (pl.concat(kept, how="vertical_relaxed") if kept
           else pl.DataFrame(schema=_LONG))
    out = out.with_columns(pl.lit(reference).alias("reference"))
    return merge([out], KEYS + ("reference",))


def _per_deal(deals: pl.LazyFrame) -> pl.LazyFrame:
    return deals.select(
        "rules", "variant", "deal_id",
        pl.col("draw").fill_null(False).cast(pl.Float64).alias("draw"),
        pl.col("total").fill_null(0).cast(pl.Float64).alias("win_total"),
        pl.col("scores").list.get(pl.col("dealer").cast(pl.Int64), null_on_oob=True)
        .cast(pl.Float64).alias("dealer_net"))


def paired_partial(deals: pl.LazyFrame, reference: str) -> pl.LazyFrame:
    """Per-deal differences ``variant - reference`` over deals under both."""
    pd = _per_deal(deals)
    ref = pd.filter(pl.col("variant") == reference).drop("variant")
    oth = pd.filter(pl.col("variant") != reference)
    j = oth.join(ref, on=["rules", "deal_id"], suffix="_ref")
    parts = []
    for m in ("draw", "win_total", "dealer_net"):
        d = (pl.col(m) - pl.col(f"{m}_ref"))
        parts.append(j.filter(d.is_not_null()).group_by("rules", "variant").agg(
            pl.lit(f"paired: {m.replace('_', ' ')}").alias("metric"), pl.lit(True).alias("paired"),
            pl.len().cast(pl.Int64).alias("n"), d.sum().alias("s"), (d ** 2).sum().alias("s2")))
    # fan indicators per deal: d = has(variant) - has(reference); s2 = |d|
    fan = deals.select("rules", "variant", "deal_id",
                       pl.col("fans").list.eval(pl.element().struct.field("id").cast(pl.Int64))
                       .list.unique().alias("fan_id")).explode("fan_id").filter(
        pl.col("fan_id").is_not_null())
    pairs = j.select("rules", "variant", "deal_id")
    fo = fan.join(pairs, on=["rules", "variant", "deal_id"], how="semi").with_columns(
        pl.lit(1.0).alias("a"))
    fr_ = (fan.filter(pl.col("variant") == reference).drop("variant")
           .join(pairs, on=["rules", "deal_id"]).with_columns(pl.lit(1.0).alias("b")))
    both = fo.join(fr_, on=["rules", "variant", "deal_id", "fan_id"], how="full",
                   coalesce=True).with_columns(
        (pl.col("a").fill_null(0.0) - pl.col("b").fill_null(0.0)).alias("d"))
    npairs = pairs.group_by("rules", "variant").agg(pl.len().cast(pl.Int64).alias("n"))
    fsum = both.group_by("rules", "variant", "fan_id").agg(
        pl.col("d").sum().alias("s"), pl.col("d").abs().sum().alias("s2"))
    fsum = fsum.join(npairs, on=["rules", "variant"]).select(
        "rules", pl.concat_str(pl.lit("paired fan: "), pl.col("fan_id").cast(pl.String))
        .alias("metric"), "variant", pl.lit(True).alias("paired"), "n", "s", "s2")
    cols = ["rules", "metric", "variant", "paired", "n", "s", "s2"]
    return pl.concat([p.select(cols) for p in parts] + [fsum.select(cols)])


def compare_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    nf = c("n").cast(pl.Float64)
    df = part.with_columns(value=safe_div(c("s"), c("n")))
    df = df.with_columns(var=pl.when(c("n") > 1).then(
        pl.max_horizontal((c("s2") - c("s") * c("s") / nf) / (nf - 1.0), pl.lit(0.0)))
        .otherwise(None))
    un = df.filter(~c("paired"))
    ref = un.filter(c("variant") == c("reference")).select(
        "rules", "metric", c("n").alias("ref_n"), c("value").alias("ref_value"),
        c("var").alias("ref_var"))
    is_ref = c("variant") == c("reference")
    u = un.join(ref, on=["rules", "metric"], how="left", nulls_equal=True).with_columns(
        diff=pl.when(is_ref).then(None).otherwise(c("value") - c("ref_value")),
        se=pl.when(is_ref).then(None).otherwise(
            (c("var") / nf + c("ref_var") / c("ref_n").cast(pl.Float64)).sqrt()))
    p = df.filter(c("paired")).with_columns(
        ref_n=c("n"), ref_value=pl.lit(None, pl.Float64), diff=c("value"),
        se=(c("var") / nf).sqrt())
    p = _name_paired_fans(p)
    cols = ["rules", "metric", "variant", "reference", "paired", "n", "value", "ref_value",
            "diff", "se"]
    out = pl.concat([u.select(cols), p.select(cols)], how="vertical_relaxed")
    out = out.with_columns(ci_low=c("diff") - Z95 * c("se"), ci_high=c("diff") + Z95 * c("se"))
    return out.sort(["rules", "paired", "metric", "variant"], nulls_last=True)


def _name_paired_fans(p: pl.DataFrame) -> pl.DataFrame:
    is_fan = pl.col("metric").str.starts_with("paired fan: ")
    fans = p.filter(is_fan)
    if not fans.height:
        return p
    fans = fans.with_columns(fan_id=pl.col("metric").str.strip_prefix("paired fan: ")
                             .cast(pl.Int64))
    fans = join_names(fans).with_columns(
        metric=pl.concat_str(pl.lit("paired fan: "), pl.col("name_en")))
    return pl.concat([p.filter(~is_fan), fans.select(p.columns)])


def compare(source, reference: str | None = None) -> pl.DataFrame:
    """Every metric side by side per variant with its difference from ``reference`` (the
    ``default`` variant when present, else the first by name) and a 95 % interval."""
    return compare_finish(compare_partial(source, reference))


def _register():
    from ._core import Analysis, register
    return register(Analysis(
        "compare", "Rule-balance comparison", TABLES, KEYS + ("reference",),
        lambda **fr: compare_partial(fr), compare_finish,
        "Every metric per variant with its difference from the reference variant, 95% "
        "interval; paired per-deal differences where deal ids repeat across variants."))


COMPARE = _register()


def side_by_side(name: str, source, values: list[str] | None = None) -> pl.DataFrame:
    """A built-in analysis with its variants side by side: one row per group (the
    analysis's keys less ``variant``), one column per (value, variant)."""
    from ._core import get_analysis
    a = get_analysis(name)
    df = a(source)
    if df.height == 0 or df["variant"].n_unique() < 1:
        return df
    keys = [k for k in a.keys if k != "variant" and k in df.columns]
    keys += [c for c in df.columns if c.startswith("name_") and c not in keys]
    if values is None:
        values = [c for c, t in df.schema.items() if t == pl.Float64 and c not in keys][:4]
    wide = df.select(*keys, "variant", *values).pivot(
        on="variant", index=keys, values=values, aggregate_function="first")
    return wide.sort(keys, nulls_last=True)
