"""Rule-balance comparison that compares like with like.

Per **source** (``replay``, ``simulate``, ``hands``) and per variant against a reference
variant (``default`` when present), every metric is estimated three ways, labelled in the
``pairing`` column and never mixed across sources:

- ``paired``: over the units present under both variants (the same deal id: a rescored log
  or a resimulated wall; the same hand id; the same decision), the per-unit differences;
- ``unpaired``: the units present under only one of the two (different deals: a
  difference between them is not a rule effect alone);
- ``all``: each variant's own level over all its units (the reference's too).

Units (deals, hands, decisions) are clustered by wall (:mod:`._design`): the seat rotations
of a duplicate simulation and the same deal under each variant are one cluster, so the
intervals are cluster-robust (:mod:`._stats`). A metric that the source's mode cannot
change (draws and wall tiles drawn when a log or a hand sample is only rescored) is
reported as a level only (``note``), never as a difference. Every difference row carries
``mde``: the smallest true difference its sample detects with 80 % power at the 95 % level.
Intervals are per row (95 %); ``adj_low`` / ``adj_high`` are Bonferroni-adjusted over the
``m`` rows of the row's family (a source, variant and pairing's play metrics, fan shares,
hand metrics or decision metrics).

Metrics (``metric``; ``unit`` says how to show it: ``share`` in [0, 1], ``points``,
``count``):

- deals (replay, simulate): ``draw_rate``, ``win_rate``, ``self_draw_rate``,
  ``deal_in_rate``, ``false_win_rate`` (per player-deal), ``points_per_deal`` (legal win
  totals), ``mean_win_total``, ``self_drawn_share`` (of wins), ``under_default_minimum``
  (share of legal wins under the rule set's default minimum, flowers not counted: MCR),
  ``dealer_net`` (the dealer's net payment per deal), ``wall_draws`` (tiles drawn per deal);
- ``fan_share`` (each fan: share of legal wins holding it; ``fan_id`` and names);
- ready hands (``hands`` rows, ``turns`` decisions): ``all_high_share``, ``split_share``,
  ``all_low_share`` (by winning-tile kinds, on a discard; ``_self`` on a self-draw),
  ``legal_live_share`` (live winning tiles that win legally; ``_self``), ``ev_discard``,
  ``ev_self`` (the EV of ``ev``); complete hands: ``legal_share``, ``mean_total``.

The partial is a long frame of additive moments (:data:`mjfast.analytics._stats.MOMENTS`)
per (rules, source, metric, fan_id, variant, reference, pairing); shards merge by adding
them (a wall's rotations and both variants of a deal must be in the same partial).
"""
from __future__ import annotations

import polars as pl

from . import _stats as S
from ._core import collect, frames
from ._design import (INVARIANT, RESCORED, deals_frame, membership, reference_of, sides, tag)
from ._names import join_names, settlement

KEYS = ("rules", "source", "metric", "fan_id", "variant", "reference", "pairing", "family")
TABLES = ("deals", "wins", "turns", "hands", "events")

# metric -> (family, unit)
PLAY = {"draw_rate": "share", "win_rate": "share", "self_draw_rate": "share",
        "deal_in_rate": "share", "false_win_rate": "share", "points_per_deal": "points",
        "mean_win_total": "points", "self_drawn_share": "share",
        "under_default_minimum": "share", "dealer_net": "points", "wall_draws": "count"}
READY = {"all_high_share": "share", "split_share": "share", "all_low_share": "share",
         "all_high_share_self": "share", "split_share_self": "share",
         "all_low_share_self": "share", "legal_live_share": "share",
         "legal_live_share_self": "share", "ev_discard": "points", "ev_self": "points"}
COMPLETE = {"legal_share": "share", "mean_total": "points"}
UNITS = {**PLAY, **READY, **COMPLETE, "fan_share": "share"}
FLOWER_ID = {"mcr": 81}           # MCR: flowers do not count towards the minimum
K_DRAW = 1                        # EventKind.DRAW


def _minimums(rules) -> pl.DataFrame:
    rows = []
    for r in sorted(set(rules)):
        p = settlement(r, None)
        m = int(p.get("minimum", p.get("minimum_fan", 0)) or 0)
        rows.append((r, m, FLOWER_ID.get(r, -1)))
    return pl.DataFrame(rows, schema={"rules": pl.String, "minimum": pl.Int64,
                                      "flower_id": pl.Int64}, orient="row")


# ---------------------------------------------------------------------------------------
# per-unit values
# ---------------------------------------------------------------------------------------
def deal_values(deals: pl.LazyFrame, wins: pl.LazyFrame, events: pl.LazyFrame | None = None
                ) -> pl.LazyFrame:
    """One row per deal and variant: rules, source, variant, unit (the deal id), cluster
    and the per-deal quantities the metrics are made of."""
    d = deals_frame(deals)
    rules = collect(d.select("rules").unique())["rules"].to_list()
    mins = _minimums(rules).lazy()
    w = tag(wins, deals).join(mins, on="rules", how="left")
    legal = pl.col("legal").fill_null(True)
    # the flower fan's points (MCR: flowers do not count towards the minimum)
    fl_pts = pl.col("fans").list.eval(
        pl.element().struct.field("points").cast(pl.Int64)
        * pl.element().struct.field("count").cast(pl.Int64)
        * (pl.element().struct.field("id").cast(pl.Int64) == FLOWER_ID["mcr"]).cast(pl.Int64)
    ).list.sum()
    counted = pl.col("total").cast(pl.Int64) - pl.when(pl.col("flower_id") == FLOWER_ID["mcr"]
                                                        ).then(fl_pts).otherwise(0)
    per = w.group_by("rules", "variant", "deal_id").agg(
        legal.sum().cast(pl.Float64).alias("wins"),
        (legal & pl.col("self_drawn").fill_null(False)).sum().cast(pl.Float64).alias("self_draws"),
        (legal & ~pl.col("self_drawn").fill_null(False)).sum().cast(pl.Float64).alias("deal_ins"),
        (~legal).sum().cast(pl.Float64).alias("false_wins"),
        pl.col("total").filter(legal).cast(pl.Float64).sum().alias("points"),
        (legal & (pl.col("minimum") > 0) & (counted < pl.col("minimum"))).sum()
        .cast(pl.Float64).alias("low_wins"))
    out = d.select("rules", "source", "variant", pl.col("deal_id").alias("unit"), "cluster",
                   pl.col("players").cast(pl.Float64),
                   pl.col("draw").fill_null(False).cast(pl.Float64).alias("draw"),
                   pl.col("scores").list.get(pl.col("dealer").cast(pl.Int64), null_on_oob=True)
                   .cast(pl.Float64).alias("dealer_net"))
    out = out.join(per.rename({"deal_id": "unit"}), on=["rules", "variant", "unit"],
                   how="left", nulls_equal=True)
    if events is not None:
        dr = events.filter(pl.col("kind") == K_DRAW).group_by("rules", "variant", "deal_id").agg(
            pl.len().cast(pl.Float64).alias("wall_draws")).rename({"deal_id": "unit"})
        out = out.join(dr, on=["rules", "variant", "unit"], how="left", nulls_equal=True)
    else:
        out = out.with_columns(pl.lit(None, pl.Float64).alias("wall_draws"))
    fill = ["wins", "self_draws", "deal_ins", "false_wins", "points", "low_wins"]
    return out.with_columns(pl.col(fill).fill_null(0.0))


def _play_long(v: pl.LazyFrame, has_events: bool) -> pl.LazyFrame:
    one = pl.lit(1.0)
    c = pl.col
    spec = {"draw_rate": (c("draw"), one), "win_rate": (c("wins"), c("players")),
            "self_draw_rate": (c("self_draws"), c("players")),
            "deal_in_rate": (c("deal_ins"), c("players")),
            "false_win_rate": (c("false_wins"), c("players")),
            "points_per_deal": (c("points"), one), "mean_win_total": (c("points"), c("wins")),
            "self_drawn_share": (c("self_draws"), c("wins")),
            "under_default_minimum": (c("low_wins"), c("wins")),
            "dealer_net": (c("dealer_net"), pl.when(c("dealer_net").is_not_null()).then(1.0)
                           .otherwise(0.0))}
    if has_events:
        spec["wall_draws"] = (c("wall_draws"), pl.when(c("wall_draws").is_not_null())
                              .then(1.0).otherwise(0.0))
    base = ["rules", "source", "variant", "unit", "cluster"]
    return pl.concat([v.select(*base, pl.lit(m).alias("metric"),
                               y.fill_null(0.0).alias("y"), x.alias("x"))
                      for m, (y, x) in spec.items()], how="vertical_relaxed")


def _fan_hits(wins: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per deal and fan: the legal wins holding it (sparse)."""
    w = tag(wins, deals).filter(pl.col("legal").fill_null(True))
    f = w.select("rules", "source", "variant", pl.col("deal_id").alias("unit"),
                 pl.col("fans").list.eval(pl.element().struct.field("id").cast(pl.Int64))
                 .list.unique().alias("fan_id")).explode("fan_id").filter(
        pl.col("fan_id").is_not_null())
    return f.group_by("rules", "source", "variant", "unit", "fan_id").agg(
        pl.len().cast(pl.Float64).alias("y"))


def _ready_values(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Per ready hand (rows with ``waits``; rules, source, variant, unit, cluster kept):
    the measures of the ready-hand metrics."""
    from ._ev import priced
    from ._highlow import classify
    # each variant settled with its own recorded parameters (mjfast.analytics._ev)
    return priced(classify(lf))


READY_COLS = ("rules", "source", "variant", "unit", "cluster", "cat_d", "cat_s", "live",
              "high_live_d", "high_live_s", "ev_d", "ev_s")


def _collected(r: pl.LazyFrame) -> pl.LazyFrame:
    """The per-hand measures computed once (the list evaluations), then reused by every
    metric (one row per ready hand in memory: a dozen small columns)."""
    return collect(r.select(READY_COLS)).lazy()


def _ready_long(r: pl.LazyFrame) -> pl.LazyFrame:
    c = pl.col
    one = pl.lit(1.0)
    has_live = pl.when(c("live") > 0).then(1.0).otherwise(0.0)
    spec = {}
    for suffix, cat in (("", "cat_d"), ("_self", "cat_s")):
        for name in ("all_high", "split", "all_low"):
            spec[f"{name}_share{suffix}"] = ((c(cat) == name).cast(pl.Float64), one)
    spec["legal_live_share"] = (c("high_live_d").cast(pl.Float64), c("live").cast(pl.Float64))
    spec["legal_live_share_self"] = (c("high_live_s").cast(pl.Float64), c("live").cast(pl.Float64))
    spec["ev_discard"] = (c("ev_d").fill_null(0.0), has_live)
    spec["ev_self"] = (c("ev_s").fill_null(0.0), has_live)
    base = ["rules", "source", "variant", "unit", "cluster"]
    return pl.concat([r.select(*base, pl.lit(m).alias("metric"), y.alias("y"), x.alias("x"))
                      for m, (y, x) in spec.items()], how="vertical_relaxed")


def _hands_units(hands: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """(ready-hand rows, complete-hand rows) of the ``hands`` table with source, unit and
    cluster (a hand is its own cluster)."""
    h = hands
    if "error" in h.collect_schema().names():
        h = h.filter(pl.col("error").is_null())
    uid = pl.col("hand_id").cast(pl.String)
    h = h.with_columns(pl.lit("hands").alias("source"), uid.alias("unit"), uid.alias("cluster"))
    ready = h.filter(pl.col("waits").list.len() > 0).select(
        "rules", "source", "variant", "unit", "cluster", "waits")
    done = h.filter(pl.col("shanten") == -1).select(
        "rules", "source", "variant", "unit", "cluster", "total", "legal")
    return ready, done


def _complete_long(done: pl.LazyFrame) -> pl.LazyFrame:
    base = ["rules", "source", "variant", "unit", "cluster"]
    ok = pl.col("total").is_not_null() & (pl.col("total") >= 0)
    return pl.concat([
        done.filter(ok).select(*base, pl.lit("legal_share").alias("metric"),
                               pl.col("legal").fill_null(False).cast(pl.Float64).alias("y"),
                               pl.lit(1.0).alias("x")),
        done.filter(ok).select(*base, pl.lit("mean_total").alias("metric"),
                               pl.col("total").cast(pl.Float64).alias("y"), pl.lit(1.0).alias("x"))])


def _turn_units(turns: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    t = tag(turns.filter(pl.col("waits").list.len() > 0), deals)
    return t.select("rules", "source", "variant",
                    pl.concat_str(pl.col("deal_id"), pl.lit(":"), pl.col("step").cast(pl.String))
                    .alias("unit"), "cluster", "waits")


# ---------------------------------------------------------------------------------------
# the partial
# ---------------------------------------------------------------------------------------
def _dense(long: pl.LazyFrame, family: str, reference: str) -> pl.LazyFrame:
    units = long.select("rules", "source", "variant", "unit", "cluster").unique()
    mem = membership(units, reference)
    s = sides(mem, long.select("rules", "source", "variant", "unit", "metric", "y", "x"),
              ["metric"], ["y", "x"])
    m = S.moments(s, ["rules", "source", "metric", "variant", "reference", "pairing"])
    return m.with_columns(pl.lit(None, pl.Int64).alias("fan_id"), pl.lit(family).alias("family"))


def _fans(values: pl.LazyFrame, hits: pl.LazyFrame, reference: str) -> pl.LazyFrame:
    units = values.select("rules", "source", "variant", "unit", "cluster")
    mem = membership(units, reference)
    xs = sides(mem, values.select("rules", "source", "variant", "unit", pl.col("wins").alias("x")),
               [], ["x"])
    ys = sides(mem, hits, ["fan_id"], ["y"])
    keys = ["rules", "source", "variant", "reference", "pairing"]
    m = S.family_moments(xs, ys, keys, "fan_id")
    return m.with_columns(pl.lit("fan_share").alias("metric"), pl.lit("fans").alias("family"))


COLS = list(KEYS) + list(S.MOMENTS)


def compare_partial(source, reference: str | None = None) -> pl.DataFrame:
    """The additive partial of :func:`compare` (moments per metric, variant, pairing)."""
    fr = frames(source, TABLES)
    if reference is None:
        vs = pl.concat([collect(fr[t].select(pl.col("variant").cast(pl.String)).unique())
                        for t in TABLES])
        reference = reference_of(vs["variant"].to_list())
    parts = []
    has_events = collect(fr["events"].select(pl.len()))[0, 0] > 0
    dv = deal_values(fr["deals"], fr["wins"], fr["events"] if has_events else None)
    dv = dv.collect().lazy()
    parts.append(_dense(_play_long(dv, has_events), "play", reference))
    parts.append(_fans(dv, _fan_hits(fr["wins"], fr["deals"]), reference))
    ready, done = _hands_units(fr["hands"])
    parts.append(_dense(_ready_long(_collected(_ready_values(ready))), "hands", reference))
    parts.append(_dense(_complete_long(done), "hands", reference))
    turns = _ready_values(_turn_units(fr["turns"], fr["deals"]))
    parts.append(_dense(_ready_long(_collected(turns)), "decisions", reference))
    out = [collect(p.select(COLS)) for p in parts]
    out = [p for p in out if p.height]
    if not out:
        return pl.DataFrame(schema={c: (pl.String if c in ("rules", "source", "metric", "variant",
                                                            "reference", "pairing", "family")
                                        else pl.Int64 if c in ("fan_id", "n_units", "n_clusters")
                                        else pl.Float64) for c in COLS})
    df = pl.concat(out, how="vertical_relaxed")
    return df.sort(list(KEYS), nulls_last=True)


# ---------------------------------------------------------------------------------------
# finish
# ---------------------------------------------------------------------------------------
def compare_finish(part: pl.DataFrame) -> pl.DataFrame:
    """Estimates, intervals, MDE and notes (module docstring) of a (merged) partial."""
    c = pl.col
    fan = c("metric") == "fan_share"
    fk = ["rules", "source", "metric", "variant", "reference", "pairing", "family"]
    part = pl.concat([part.filter(~fan),
                      S.complete_family(part.filter(fan), fk, "fan_id").select(part.columns)],
                     how="vertical_relaxed")
    df = part.with_columns(unit=c("metric").replace_strict(UNITS, default="points",
                                                           return_dtype=pl.String))
    invariant = c("metric").is_in(list(INVARIANT)) & c("source").is_in(list(RESCORED))
    df = df.filter(~(invariant & (c("pairing") != "all")))
    fam = ["rules", "source", "variant", "pairing", "family"]
    est = S.estimates(df, family=fam)
    # proportions: Wilson intervals on the effective sample size for each level
    lo, hi = S.proportion_interval(est)
    share = c("unit") == "share"
    est = est.with_columns(lo.alias("_lo"), hi.alias("_hi")).with_columns(
        value_low=pl.when(share).then(c("_lo")).otherwise(c("value_low")),
        value_high=pl.when(share).then(c("_hi")).otherwise(c("value_high"))).drop("_lo", "_hi")
    scale = (c("u_ya_ya") + c("u_yb_yb") + c("u_xa_xa") + c("u_xb_xb")).abs() + 1.0
    dy = c("u_ya_ya") - 2 * c("u_ya_yb") + c("u_yb_yb")
    dx = c("u_xa_xa") - 2 * c("u_xa_xb") + c("u_xb_xb")
    same = (c("pairing") == "paired") & (dy.abs() <= 1e-9 * scale) & (dx.abs() <= 1e-9 * scale)
    est = est.with_columns(same=same)
    note = (pl.when(invariant).then(pl.lit("same under every variant: rescoring does not "
                                           "change the play"))
            .when(c("same")).then(pl.lit("same under both (every paired unit equal)"))
            .when((c("pairing") == "unpaired") & c("diff").is_not_null())
            .then(pl.lit("unpaired: different units under each variant, not a rule effect alone"))
            .when((c("pairing") == "unpaired")).then(pl.lit("units under one variant only"))
            .otherwise(pl.lit(None, pl.String)))
    what = (c("family").replace_strict({"play": "deals", "fans": "deals", "hands": "hands",
                                         "decisions": "decisions"}, default="units",
                                        return_dtype=pl.String))
    est = est.with_columns(note=note, paired=c("pairing") == "paired", n=c("n_units"),
                           detectable=c("mde"),
                           sample_unit=pl.when(c("pairing") == "paired")
                           .then(pl.concat_str(pl.lit("paired "), what)).otherwise(what))
    has_fan = est.filter(c("fan_id").is_not_null())
    if has_fan.height:
        named = join_names(has_fan)
        rest = est.filter(c("fan_id").is_null()).with_columns(
            *[pl.lit(None, pl.String).alias(x) for x in ("name_zh", "name_en", "name_ja")])
        est = pl.concat([rest, named.select(rest.columns)], how="vertical_relaxed")
    else:
        est = est.with_columns(*[pl.lit(None, pl.String).alias(x)
                                 for x in ("name_zh", "name_en", "name_ja")])
    from ._answer import LABELS
    est = est.with_columns(label=pl.when(c("fan_id").is_not_null())
                           .then(pl.concat_str(c("name_en"), pl.lit(": share of wins")))
                           .otherwise(c("metric").replace_strict(LABELS, default=c("metric"),
                                                                 return_dtype=pl.String)))
    cols = ["rules", "source", "metric", "name_en", "variant", "reference", "pairing", "value",
            "value_low", "value_high", "ref_value", "diff", "ci_low", "ci_high", "mde",
            "n_units", "n_clusters", "unit", "family", "fan_id", "name_zh", "name_ja", "se",
            "se_value", "se_ref", "se_iid", "deff", "df", "m", "adj_low", "adj_high", "same", "note",
            "label", "sample_unit", "paired", "n", "detectable"]
    order = pl.col("pairing").replace_strict({"paired": 0, "unpaired": 1, "all": 2},
                                             return_dtype=pl.Int8)
    return est.with_columns(_o=order).sort(
        ["rules", "source", "family", "metric", "fan_id", "_o", "variant"],
        nulls_last=True).select(cols)


def compare(source, reference: str | None = None) -> pl.DataFrame:
    """Every metric per source and variant against ``reference`` (the ``default`` variant
    when present, else the first by name): paired, unpaired and level rows with clustered
    95 % intervals and the minimum detectable difference (module docstring)."""
    return compare_finish(compare_partial(source, reference))


def _register():
    from ._core import Analysis, register
    return register(Analysis(
        "compare", "Rule-balance comparison", TABLES, KEYS,
        lambda **fr: compare_partial(fr), compare_finish,
        "Every metric per source and variant against the reference variant: paired per "
        "unit (same deal, hand or decision) with intervals clustered by wall, unpaired and "
        "level rows labelled, the difference each sample can detect."))


COMPARE = _register()


def side_by_side(name: str, source, values: list[str] | None = None) -> pl.DataFrame:
    """A built-in analysis with its variants side by side: one row per group (the
    analysis's keys less ``variant``), one column per (value, variant)."""
    from ._core import get_analysis
    a = get_analysis(name)
    df = a(source)
    if df.height == 0 or df["variant"].n_unique() < 1:
        return df
    keys = [k for k in a.keys if k not in ("variant", "reference") and k in df.columns]
    keys += [c for c in df.columns if c.startswith("name_") and c not in keys]
    if values is None:
        values = [c for c, t in df.schema.items() if t == pl.Float64 and c not in keys][:4]
    wide = df.select(*keys, "variant", *values).pivot(
        on="variant", index=keys, values=values, aggregate_function="first")
    return wide.sort(keys, nulls_last=True)
