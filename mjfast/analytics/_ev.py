"""Expected value of a ready hand, and each player's net payment per deal.

The winner's gain on a winning tile follows each rule set's settlement with its default
parameters (the rule profile's ``[params]``), for a non-dealer winner:

- MCR: on a discard ``(8 + F)`` from the discarder and ``8`` from each other player
  (``F + 24``); on a self-draw ``3 x (8 + F)``; a wait under 8 points gains 0.
- Taiwan: each payer pays ``base + unit x tai``: discard one payer, self-draw three.
- Tuidaohu: ``base x 2^(min(fan, cap) - 1)``: discard one payer, self-draw three.
- Two-player: the other player pays ``2^(min(fan, cap) - 1)`` either way (gross, before fee).

A hand's EV is the mean gain over its winning tiles weighted by their live copies; a hand
whose winning tiles are all dead has no EV (counted in ``hands`` but not ``hands_live``).
"""
from __future__ import annotations

import polars as pl

from ._core import Z95, Analysis, mean_sd, register, safe_div
from ._names import settlement

EV_KEYS = ("rules", "variant", "source", "form", "n_melds")
PAY_KEYS = ("rules", "variant", "player", "seat", "dealer")


def _w(field: str) -> pl.Expr:
    return pl.element().struct.field(field)


def _mult(total: pl.Expr, cap: int) -> pl.Expr:
    return (pl.when(total >= 1)
            .then(pl.lit(2.0).pow(pl.min_horizontal(total, pl.lit(cap)).cast(pl.Float64) - 1.0))
            .otherwise(0.0))


def _wait_sums(waits: pl.Expr) -> dict[str, pl.Expr]:
    """Per hand: live copies, live legal copies and live-weighted fan sums, both ways."""
    cap = int(settlement("tuidaohu", None).get("fan_cap", 6))
    cap2 = int(settlement("two_player", None).get("fan_cap", cap))
    out = {"live": waits.list.eval(_w("live").cast(pl.Int64)).list.sum(),
           "waits_n": waits.list.len().cast(pl.Int64)}
    for how, tot, leg in (("d", "total_discard", "legal_discard"),
                          ("s", "total_self_drawn", "legal_self_drawn")):
        lv = _w("live").cast(pl.Float64) * _w(leg).fill_null(False).cast(pl.Float64)
        f = _w(tot).cast(pl.Float64)
        out[f"L{how}"] = waits.list.eval(lv).list.sum()
        out[f"F{how}"] = waits.list.eval(lv * f).list.sum()
        out[f"M{how}"] = waits.list.eval(lv * _mult(_w(tot), cap)).list.sum()
        out[f"N{how}"] = waits.list.eval(lv * _mult(_w(tot), cap2)).list.sum()
    return out


def _gains(rules: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Live-weighted gain sums on a discard and on a self-draw, by rule set."""
    m = settlement("mcr", None)
    seat = float(m.get("seat_payment", 8))
    t = settlement("taiwan", None)
    tb, tu = float(t.get("base", 0)), float(t.get("unit", 1))
    d = settlement("tuidaohu", None)
    db = float(d.get("base", 1))
    c = pl.col
    gd = (pl.when(rules == "mcr").then(c("Fd") + 3 * seat * c("Ld"))
          .when(rules == "taiwan").then(tb * c("Ld") + tu * c("Fd"))
          .when(rules == "tuidaohu").then(db * c("Md"))
          .when(rules == "two_player").then(c("Nd"))
          .otherwise(None))
    gs = (pl.when(rules == "mcr").then(3 * (c("Fs") + seat * c("Ls")))
          .when(rules == "taiwan").then(3 * (tb * c("Ls") + tu * c("Fs")))
          .when(rules == "tuidaohu").then(3 * db * c("Ms"))
          .when(rules == "two_player").then(c("Ns"))
          .otherwise(None))
    return gd, gs


def ready_hands(hands: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    """Ready hands with their waits: ``hands`` rows (form, n_melds) and ``turns`` rows
    (source ``turns``; form and meld count unknown there)."""
    h = hands
    if "error" in h.collect_schema().names():
        h = h.filter(pl.col("error").is_null())
    h = h.filter(pl.col("waits").list.len() > 0).select(
        "rules", "variant", pl.lit("hands").alias("source"),
        pl.col("form").cast(pl.Int8), pl.col("n_melds").cast(pl.Int8), "waits")
    t = turns.filter(pl.col("waits").list.len() > 0).select(
        "rules", "variant", pl.lit("turns").alias("source"),
        pl.lit(None, pl.Int8).alias("form"), pl.lit(None, pl.Int8).alias("n_melds"), "waits")
    return pl.concat([h, t])


def ev_partial(hands: pl.LazyFrame, turns: pl.LazyFrame) -> pl.LazyFrame:
    r = ready_hands(hands, turns).with_columns(**_wait_sums(pl.col("waits")))
    gd, gs = _gains(pl.col("rules"))
    r = r.with_columns(ev_d=safe_div(gd, pl.col("live")), ev_s=safe_div(gs, pl.col("live")))
    return r.group_by(*EV_KEYS).agg(
        pl.len().cast(pl.Int64).alias("hands"),
        (pl.col("live") > 0).sum().cast(pl.Int64).alias("hands_live"),
        pl.col("ev_d").sum().alias("ev_discard_sum"),
        (pl.col("ev_d") ** 2).sum().alias("ev_discard_sq"),
        pl.col("ev_s").sum().alias("ev_self_sum"),
        (pl.col("ev_s") ** 2).sum().alias("ev_self_sq"),
        pl.col("waits_n").sum().alias("waits"),
        pl.col("live").sum().alias("live"),
        pl.col("Ld").sum().cast(pl.Int64).alias("legal_live_discard"),
        pl.col("Ls").sum().cast(pl.Int64).alias("legal_live_self"))


def ev_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    md, sd = mean_sd(c("ev_discard_sum"), c("ev_discard_sq"), c("hands_live"))
    ms, ss = mean_sd(c("ev_self_sum"), c("ev_self_sq"), c("hands_live"))
    df = part.with_columns(
        ev_discard=md, ev_discard_sd=sd, ev_self=ms, ev_self_sd=ss,
        legal_share_discard=safe_div(c("legal_live_discard"), c("live")),
        legal_share_self=safe_div(c("legal_live_self"), c("live")),
        live_per_hand=safe_div(c("live"), c("hands")),
        waits_per_hand=safe_div(c("waits"), c("hands")))
    df = df.with_columns(
        ev_discard_se=c("ev_discard_sd") / c("hands_live").cast(pl.Float64).sqrt(),
        ev_self_se=c("ev_self_sd") / c("hands_live").cast(pl.Float64).sqrt())
    from ..rules.registry import FORM_NAMES
    df = df.with_columns(form_name=c("form").replace_strict(
        list(range(len(FORM_NAMES))), list(FORM_NAMES), default=None, return_dtype=pl.String))
    return df.select("rules", "variant", "source", "form_name", "n_melds", "hands",
                     "hands_live", "ev_discard", "ev_discard_sd", "ev_discard_se", "ev_self",
                     "ev_self_sd", "ev_self_se", "legal_share_discard", "legal_share_self",
                     "live_per_hand", "waits_per_hand", "form").sort(
        ["rules", "variant", "source", "form", "n_melds"], nulls_last=True)


def payment_partial(deals: pl.LazyFrame) -> pl.LazyFrame:
    """Per (rules, variant, player, seat, dealer): deals, sum and sum of squares of the
    player's net payment for the deal (``deals.scores``)."""
    d = deals.filter(pl.col("scores").is_not_null()).select(
        "rules", "variant", "dealer", "seats", "scores",
        pl.int_ranges(0, pl.col("scores").list.len()).alias("player"))
    d = d.explode("scores", "player").with_columns(
        seat=pl.col("seats").list.get(pl.col("player").cast(pl.Int64), null_on_oob=True)
        .cast(pl.Int8),
        dealer=(pl.col("player") == pl.col("dealer")).fill_null(False),
        net=pl.col("scores").cast(pl.Int64))
    return d.group_by("rules", "variant", pl.col("player").cast(pl.Int8), "seat", "dealer").agg(
        pl.len().cast(pl.Int64).alias("deals"), pl.col("net").sum().alias("net_sum"),
        (pl.col("net") ** 2).sum().alias("net_sq"))


def payment_finish(part: pl.DataFrame) -> pl.DataFrame:
    c = pl.col
    mean, sd = mean_sd(c("net_sum").cast(pl.Float64), c("net_sq").cast(pl.Float64), c("deals"))
    df = part.with_columns(mean=mean, sd=sd).with_columns(
        se=c("sd") / c("deals").cast(pl.Float64).sqrt())
    df = df.with_columns(ci_low=c("mean") - Z95 * c("se"), ci_high=c("mean") + Z95 * c("se"))
    return df.select("rules", "variant", "player", "seat", "dealer", "deals", "mean", "sd",
                     "se", "ci_low", "ci_high", "net_sum").sort(
        ["rules", "variant", "player", "seat", "dealer"], nulls_last=True)


EV = register(Analysis(
    "ev", "Expected value of a ready hand", ("hands", "turns"), EV_KEYS,
    lambda hands, turns, **_: ev_partial(hands, turns), ev_finish,
    "Mean gain over a ready hand's winning tiles weighted by live copies, discard and "
    "self-draw, with the share of live tiles that win legally; by form and meld count."))

PAYMENTS = register(Analysis(
    "payments", "Net payment per deal", ("deals",), PAY_KEYS,
    lambda deals, **_: payment_partial(deals), payment_finish,
    "Mean and spread of each player's net payment per deal played, by seat and dealer."))

