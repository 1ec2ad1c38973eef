"""A study's question and its answer, for the first screen of a report and the summary of
``mjfast run``.

The question and the headline metrics come from the dataset's manifest (the study spec's
``question`` and ``headline`` keys, ``pipelines/run.toml`` for ``mjfast run``); the answer
is the :func:`~mjfast.analytics.compare` rows of those metrics — paired rows only (the same
deals, hands or decisions under both variants), resimulated sources first — plus the
dealer's compensation from :func:`~mjfast.analytics.seat_advantage` under each variant.
Each row keeps its interval, its sample (units and walls) and the difference the sample
could detect (``mde``); :func:`answer_text` writes them as sentences.
"""
from __future__ import annotations

import polars as pl

from ._core import dataset_roots

SOURCE_ORDER = {"simulate": 0, "replay": 1, "hands": 2}
LABELS = {
    "draw_rate": "exhaustive draws", "wall_draws": "tiles drawn a deal",
    "win_rate": "wins per player-deal", "self_draw_rate": "self-draws per player-deal",
    "deal_in_rate": "deal-ins per player-deal", "false_win_rate": "false wins per player-deal",
    "points_per_deal": "points won a deal", "mean_win_total": "mean total of a win",
    "self_drawn_share": "self-drawn share of wins",
    "under_default_minimum": "wins under the default minimum",
    "dealer_net": "dealer's net a deal", "all_high_share": "ready hands whose every wait is legal",
    "split_share": "ready hands with legal and illegal waits",
    "all_low_share": "ready hands with no legal wait", "legal_live_share": "live winning tiles that are legal",
    "all_high_share_self": "ready hands whose every wait is legal (self-draw)",
    "split_share_self": "ready hands with legal and illegal waits (self-draw)",
    "all_low_share_self": "ready hands with no legal wait (self-draw)",
    "legal_live_share_self": "live winning tiles that are legal (self-draw)",
    "legal_share": "complete hands that are legal", "mean_total": "mean total of a complete hand",
    "ev_discard": "EV of a ready hand (discard)", "ev_self": "EV of a ready hand (self-draw)",
    "dealer_compensation": "dealer's compensation a deal (equal expectations)",
}
DEFAULT_HEADLINE = ("draw_rate", "win_rate", "mean_win_total", "points_per_deal", "dealer_net")


def study_config(source) -> dict:
    """The study part of the dataset's manifest config ({} when it has none)."""
    for ds in dataset_roots(source):
        try:
            m = ds.manifest()
        except (OSError, ValueError):
            continue
        cfg = (m or {}).get("config") or {}
        if cfg.get("question") or cfg.get("mode"):
            return cfg
    return {}


def study_answer(source, compare_df: pl.DataFrame | None = None,
                 seat_df: pl.DataFrame | None = None) -> pl.DataFrame:
    """The answer rows (module docstring): question, rules, source, metric, label, variant,
    reference, value, ref_value, diff, ci_low, ci_high, mde, n_units (pairs: deals, hands or
    decisions a variant), n_clusters (walls), unit, family, same (every pair equal), note.
    ``compare_df`` / ``seat_df``: results already computed (else computed here)."""
    from ._compare import compare
    from ._seat import seat_advantage
    cfg = study_config(source)
    question = cfg.get("question") or None
    headline = list(cfg.get("headline") or DEFAULT_HEADLINE)
    cmp = compare(source) if compare_df is None else compare_df
    c = pl.col
    rows = cmp.filter((c("pairing") == "paired") & c("metric").is_in(headline)
                      & c("fan_id").is_null() & c("diff").is_not_null())
    if cfg.get("rules"):
        rows = rows.filter(c("rules") == cfg["rules"])
    rows = rows.with_columns(
        _s=c("source").replace_strict(SOURCE_ORDER, default=9, return_dtype=pl.Int8),
        _m=c("metric").replace_strict({m: i for i, m in enumerate(headline)}, default=99,
                                      return_dtype=pl.Int16))
    cols = ["rules", "source", "metric", "variant", "reference", "value", "ref_value", "diff",
            "ci_low", "ci_high", "mde", "n_units", "n_clusters", "unit", "family", "same", "note"]
    out = rows.sort("_s", "_m", "variant").select(cols)
    seat = seat_advantage(source) if seat_df is None else seat_df
    if seat.height:
        d = seat.filter((c("by") == "dealer") & (c("group") == "dealer"))
        if cfg.get("rules"):
            d = d.filter(c("rules") == cfg["rules"])
        d = d.with_columns(_s=c("source").replace_strict(SOURCE_ORDER, default=9,
                                                         return_dtype=pl.Int8)).sort("_s", "variant")
        extra = d.select("rules", "source", pl.lit("dealer_compensation").alias("metric"),
                         "variant", pl.lit(None, pl.String).alias("reference"),
                         c("compensation").alias("value"), pl.lit(None, pl.Float64).alias("ref_value"),
                         c("compensation").alias("diff"), c("compensation_low").alias("ci_low"),
                         c("compensation_high").alias("ci_high"), "mde",
                         c("deals").alias("n_units"), c("walls").alias("n_clusters"),
                         pl.lit("points").alias("unit"), pl.lit("seats").alias("family"),
                         pl.lit(False).alias("same"), pl.lit(None, pl.String).alias("note"))
        out = pl.concat([out, extra.select(cols)], how="vertical_relaxed")
    return out.with_columns(pl.lit(question, pl.String).alias("question"),
                            c("metric").replace_strict(LABELS, default=c("metric"),
                                                       return_dtype=pl.String).alias("label")
                            ).select("question", "rules", "source", "metric", "label",
                                     *cols[3:])


UNIT_NAMES = {"play": "deals", "hands": "hands", "decisions": "decisions", "fans": "deals",
              "seats": "deals"}


def _fmt(x, unit: str, signed: bool = False, diff: bool = False) -> str:
    if x is None:
        return "–"
    if unit == "share":
        return f"{x * 100:+.1f} pp" if signed else (f"{x * 100:.1f} pp" if diff else f"{x * 100:.1f}%")
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def answer_text(answer: pl.DataFrame) -> list[str]:
    """The answer as sentences (the question first when the study states one)."""
    out = []
    q = answer["question"].drop_nulls()
    if q.len():
        out.append(f"Question: {q[0]}")
    for r in answer.iter_rows(named=True):
        u = r["unit"]
        what = UNIT_NAMES.get(r["family"], "units")
        sample = f"{r['n_units']:,} {what}"
        if r["n_clusters"] and r["n_clusters"] != r["n_units"]:
            sample += (f" of {r['n_clusters']:,} logged deals" if r["source"] == "replay"
                       else f" on {r['n_clusters']:,} walls")
        head = f"{r['label']} [{r['source']}"
        if r["metric"] == "dealer_compensation":
            out.append(f"{head}, {r['variant']}]: {_fmt(r['value'], u, True)} (95% CI "
                       f"{_fmt(r['ci_low'], u, True)} to {_fmt(r['ci_high'], u, True)}; {sample}; "
                       f"detectable {_fmt(r['mde'], u, diff=True)})")
        elif r["same"]:
            out.append(f"{head}]: {_fmt(r['value'], u)}, the same under {r['reference']} and "
                       f"{r['variant']} ({sample}, every one equal)")
        else:
            out.append(f"{head}, paired]: {r['reference']} {_fmt(r['ref_value'], u)} -> "
                       f"{r['variant']} {_fmt(r['value'], u)}, difference {_fmt(r['diff'], u, True)} "
                       f"(95% CI {_fmt(r['ci_low'], u, True)} to {_fmt(r['ci_high'], u, True)}; "
                       f"{sample}, each under both; detectable {_fmt(r['mde'], u, diff=True)})")
    return out


__all__ = ["study_answer", "answer_text", "study_config", "LABELS"]
