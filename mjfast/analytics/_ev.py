"""Expected value of a ready hand, and each player's net payment per deal.

The winner's gain on a winning tile is what the rule set's settlement
(:mod:`mjfast.scoring`'s settlement functions) pays a non-dealer winner, with the
parameters of the variant the data was written under (its recorded rule context, never
today's files): a discard by another non-dealer, or a self-draw.

- MCR (``settle_mcr``): on a discard ``F + 3 x seat_payment`` (the discarder pays
  ``F + 8``, the two others ``8``); on a self-draw ``3 x (F + 8)``; a wait under the
  minimum gains 0 (counted as not legal).
- Taiwan (``settle_win``): each payer pays ``base + unit x tai``: discard one payer,
  self-draw three.
- Tuidaohu / two-player (``settle``, the win's part before chips and fee):
  ``base x 2^(min(fan, cap) - 1)`` from each payer the policy names.

A hand's EV is the mean gain over its winning tiles weighted by their live copies; a hand
whose winning tiles are all dead has no EV (counted in ``hands`` but not ``hands_live``).
"""
from __future__ import annotations

import functools

import polars as pl

from ..rules import RuleContext
from ._core import Z95, Analysis, collect, mean_sd, register, safe_div
from ._names import contexts_of

EV_KEYS = ("rules", "variant", "source", "form", "n_melds")
PAY_KEYS = ("rules", "variant", "player", "seat", "dealer")
MAX_TOTAL = 1024
"""Totals priced per variant (0 .. MAX_TOTAL - 1): more than any hand scores."""


def _w(field: str) -> pl.Expr:
    return pl.element().struct.field(field)


def winner_gain(ctx: RuleContext, total: int, self_drawn: bool) -> int:
    """What a non-dealer winner gains for a legal win of ``total`` under ``ctx``: a
    self-draw, or a discard by another non-dealer (the settlement functions of
    :mod:`mjfast.scoring`, with the context's parameters)."""
    from ..scoring import mcr, taiwan, tuidaohu
    from ..tiles import WIND_LETTERS
    winner, discarder = 1, 2                  # South wins; West deals in; East deals
    if ctx.rules == "mcr":
        fw = ctx.params.get("false_win", (30, 10))
        g = mcr.settle_mcr(total, True, winner, self_drawn, None if self_drawn else discarder,
                           int(ctx.params.get("seat_payment", 8)), (int(fw[0]), int(fw[1])))
        return int(g[WIND_LETTERS[winner]])
    if ctx.rules == "taiwan":
        g = taiwan.settle_win(total, winner, self_drawn=self_drawn,
                              discarder=None if self_drawn else discarder, dealer=0,
                              variant=ctx)
        return int(g[WIND_LETTERS[winner]])
    players = ctx.structure.players
    winner, discarder = (1, 0) if players == 2 else (1, 2)
    g = tuidaohu.settle(total, seat=winner, self_drawn=self_drawn,
                        discarder=None if self_drawn else discarder, rules=ctx.rules,
                        variant=ctx, base=int(ctx.params.get("base", 1)), dealer=0)
    return int(g["win"][WIND_LETTERS[winner]])


@functools.lru_cache(maxsize=32)
def gain_table(ctx: RuleContext, self_drawn: bool) -> tuple[list[int], list[float]]:
    """(totals, gains) of :func:`winner_gain` for every total below :data:`MAX_TOTAL`."""
    totals = list(range(MAX_TOTAL))
    return totals, [float(winner_gain(ctx, t, self_drawn)) for t in totals]


def _wait_sums(waits: pl.Expr, ctx: RuleContext) -> dict[str, pl.Expr]:
    """Per hand: live copies, live legal copies and live-weighted gains, both ways."""
    out = {"live": waits.list.eval(_w("live").cast(pl.Int64)).list.sum(),
           "waits_n": waits.list.len().cast(pl.Int64)}
    for how, tot, leg, self_drawn in (("d", "total_discard", "legal_discard", False),
                                      ("s", "total_self_drawn", "legal_self_drawn", True)):
        old, new = gain_table(ctx, self_drawn)
        lv = _w("live").cast(pl.Float64) * _w(leg).fill_null(False).cast(pl.Float64)
        gain = _w(tot).replace_strict(old, new, default=None, return_dtype=pl.Float64)
        out[f"L{how}"] = waits.list.eval(lv).list.sum()
        out[f"G{how}"] = waits.list.eval(lv * gain).list.sum()
    return out


def priced(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Rows with ``waits`` (rules, variant and any other columns kept) with each way's
    live legal copies ``Ld`` / ``Ls``, live-weighted gains ``Gd`` / ``Gs`` and the hand's
    EV ``ev_d`` / ``ev_s`` (null without live copies), every variant priced by its own
    recorded settlement (:func:`gain_table`)."""
    pairs = collect(lf.select("rules", "variant").unique()).rows()
    parts = []
    for (rules, variant), ctx in sorted(contexts_of(pairs).items()):
        r = lf.filter((pl.col("rules") == rules) & (pl.col("variant") == variant))
        sums = _wait_sums(pl.col("waits"), ctx)
        live = sums.pop("live")
        sums.pop("waits_n")
        r = r.with_columns(_live=live, **sums)
        parts.append(r.with_columns(ev_d=safe_div(pl.col("Gd"), pl.col("_live")),
                                    ev_s=safe_div(pl.col("Gs"), pl.col("_live"))).drop("_live"))
    if not parts:
        return lf.with_columns(Ld=pl.lit(0.0), Ls=pl.lit(0.0), Gd=pl.lit(0.0), Gs=pl.lit(0.0),
                               ev_d=pl.lit(None, pl.Float64), ev_s=pl.lit(None, pl.Float64))
    return pl.concat(parts, how="diagonal_relaxed")


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
    """Per (rules, variant, source, form, n_melds): the EV sums, each variant priced by
    its own recorded settlement (:func:`gain_table`)."""
    ready = ready_hands(hands, turns)
    pairs = collect(ready.select("rules", "variant").unique()).rows()
    parts = []
    for (rules, variant), ctx in sorted(contexts_of(pairs).items()):
        r = ready.filter((pl.col("rules") == rules) & (pl.col("variant") == variant))
        r = r.with_columns(**_wait_sums(pl.col("waits"), ctx))
        parts.append(r.with_columns(ev_d=safe_div(pl.col("Gd"), pl.col("live")),
                                    ev_s=safe_div(pl.col("Gs"), pl.col("live"))))
    if not parts:
        parts = [ready.with_columns(live=pl.lit(0, pl.Int64), waits_n=pl.lit(0, pl.Int64),
                                    Ld=pl.lit(0.0), Ls=pl.lit(0.0),
                                    ev_d=pl.lit(None, pl.Float64), ev_s=pl.lit(None, pl.Float64))]
    r = pl.concat(parts, how="diagonal_relaxed")
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

