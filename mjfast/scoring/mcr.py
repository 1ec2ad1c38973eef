"""MCR (Chinese Official, 国标麻将) scorer: the scorer contract over the compiled kernel.

- :data:`FAN_TABLE` — the default rule table (``mjfast/rules/mcr.toml``, 81 fans + 明暗杠 off;
  a :class:`~mjfast.rules.RuleProfile`, like every scorer's)
- :func:`score_hand` — one :class:`~mjfast.hand.Hand` → :class:`ScoreResult`
- :func:`score_batch` — a :class:`~mjfast.hand.HandBatch` → ``BatchScores`` (kernel)
- :func:`score_waits_batch` — ready hands → every wait's discard / self-draw totals (kernel)
- :func:`settle_mcr` — the seed's settlement (8 from every loser, + the total from the
  discarder or, on a self-draw, from everyone)

Variants: ``None`` (official) or ``"botzone"`` (the reference calculator: 明暗杠 5).
Every decision is in docs/rules-mcr.md.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import IncompleteHandError, RuleSetError, SituationError
from ..hand import Hand, HandBatch
from ..kernels import context_of
from . import _settle
from ._rows import run_batch
from ._waits import wait_grid, wait_pairs
from ..rules import RuleContext, RuleProfile, rule_context
from ..tiles import WIND_LETTERS
from ._params import settlement_params
from .result import ScoreResult, fan_hits



def rule_table(variant: str | RuleContext | None = None) -> RuleProfile:
    """The MCR table for ``variant`` (a name, a ``.toml`` path or a
    :class:`~mjfast.rules.RuleContext`; a :class:`~mjfast.rules.RuleProfile`, validated:
    every key has a predicate, acyclic)."""
    return _tables(variant).profile


class _Tables:
    """The rule profile plus the settlement numbers the wrapper reads."""

    def __init__(self, profile: RuleProfile):
        self.profile = profile
        self.table = table = profile.table
        self.points = profile.arrays[1]
        self.minimum = int(table.params.get("minimum", 8))
        self.flowers_to_minimum = bool(table.params.get("flowers_count_to_minimum", False))
        self.seat_payment = int(table.params.get("seat_payment", 8))
        fw = table.params.get("false_win", [30, 10])
        self.false_win = (int(fw[0]), int(fw[1]))


def _profile(variant) -> RuleProfile:
    """The MCR profile of ``variant``: a name, a ``.toml`` path or None (normalised once by
    :func:`mjfast.rules.rule_context`), a :class:`~mjfast.rules.RuleContext`, or an
    in-memory :class:`~mjfast.rules.RuleProfile` (:func:`mjfast.rules.without_fans`)."""
    if isinstance(variant, RuleProfile):
        if variant.rules != "mcr":
            raise RuleSetError(variant.rules, None, "the MCR scorer needs an MCR rule profile")
        return variant
    return rule_context("mcr", variant).profile


@lru_cache(maxsize=None)
def _tables_of(profile: RuleProfile) -> _Tables:
    return _Tables(profile)


def _tables(variant) -> _Tables:
    return _tables_of(_profile(variant))


FAN_TABLE = rule_table(None)


def _context(variant):
    """The compiled context of ``variant`` (see :func:`_profile`)."""
    return context_of(_profile(variant))


# ---------------------------------------------------------------------------------------
# batch
# ---------------------------------------------------------------------------------------
def score_batch(batch: HandBatch, variant: str | None = None):
    """Score N complete MCR hands with the compiled kernel.

    Returns ``BatchScores``: ``fan_counts`` (N, 83) int16 (column = fan id, 81 = flowers,
    82 = 明暗杠), ``totals`` (N,) int32 (flowers included, -1 where not complete),
    ``legal`` (total without flowers >= 8), ``complete``; ``extras["flowers"]``.
    """
    from . import BatchScores
    if batch.rules != "mcr":
        raise RuleSetError(batch.rules, None, "the MCR scorer needs an MCR HandBatch")
    fans, totals, legal, _ = run_batch(batch, _context(variant))
    complete = totals >= 0
    flowers = batch.flowers.astype(np.int32)
    return BatchScores(fans, totals, legal, complete, {"flowers": flowers})


def score_waits_batch(batch: HandBatch, visible: np.ndarray | None = None, variant: str | None = None):
    """Every winning tile of N ready hands (no winning tile): ``WaitScores`` with (N, 34)
    arrays ``wins``, ``total_discard``, ``total_self_drawn`` (flowers included, -1 where
    not a win), ``legal_discard``, ``legal_self_drawn`` (>= 8 without flowers) and ``live``
    (4 minus the player's own copies minus ``visible``)."""
    from . import WaitScores
    if batch.rules != "mcr":
        raise RuleSetError(batch.rules, None, "the MCR scorer needs an MCR HandBatch")
    n = len(batch)
    counts = np.ascontiguousarray(batch.counts, dtype=np.uint8)
    bad = (batch.winning_tile >= 0) | (counts.sum(axis=1).astype(np.int64) != 13 - 3 * batch.n_melds.astype(np.int64))
    if bad.any():
        from ..errors import HandSizeError
        i = int(np.flatnonzero(bad)[0])
        raise HandSizeError(f"batch row {i}", i, "score_waits needs ready hands: 13 tiles (melds as 3), no winning tile")
    vis = None if visible is None else np.asarray(visible, dtype=np.int64).reshape(n, 34)
    pairs = wait_pairs(batch, _context(variant), vis)
    return WaitScores(*wait_grid(pairs, n), pairs.live)


# ---------------------------------------------------------------------------------------
# settlement
# ---------------------------------------------------------------------------------------
def settle_mcr(total: int, legal: bool, seat: int, self_drawn: bool, discarder: int | None,
               seat_payment: int = 8, false_win: tuple[int, int] = (30, 10)) -> dict[str, int]:
    """Each seat's gain (+) or loss (-) for one MCR hand (seed 004 基本的なルール).

    Discard win: the discarder pays ``total + 8``, the two others 8 each. Self-draw: each of
    the three pays ``total + 8``. ``total`` includes flowers. A hand that is not a legal win
    (under 8 without flowers) is a false win: the claimant pays ``false_win[1]`` to each of
    the others (−30 / +10 each, the Botzone judge's convention). ``discarder`` None on a
    discard win means the player before the winner (上家).
    """
    if not legal or self_drawn:
        discarder = None
    elif discarder is None:
        discarder = (seat - 1) % 4
    if discarder is not None and discarder == seat:
        raise SituationError(f"discarder={WIND_LETTERS[discarder]}", None, "the winner cannot be the discarder")
    P = _settle.params(FAN_TABLE, seat_payment=seat_payment, false_win=false_win[1])
    out = _settle.win(P, seat, self_drawn, discarder, total, legal)
    return {w: int(out[k]) for k, w in enumerate(WIND_LETTERS)}


# ---------------------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------------------
def score_hand(hand: Hand, variant: str | None = None, **params: Any) -> ScoreResult:
    """Score one complete MCR hand. Raises :class:`IncompleteHandError` when the hand is
    not a complete winning hand. ``params``: the settlement keywords of the scorer
    contract (:func:`mjfast.scoring._params.settlement_params`; MCR uses ``base``, the 8
    every loser pays)."""
    params = settlement_params("mcr", params)
    tb = _tables(variant)
    v = tb.profile
    if hand.winning_tile is None:
        raise IncompleteHandError(hand.describe(), None, "no winning tile: a waiting hand cannot be scored (see score_waits)")
    res = score_batch(HandBatch.from_hands([hand]), variant=v)
    if not res.complete[0]:
        raise IncompleteHandError(hand.describe(), None, "not a complete MCR winning hand")
    hits = fan_hits(res.fan_counts[0], tb.table, by_points=True)
    total = int(res.totals[0])
    legal = bool(res.legal[0])
    s = hand.situation
    settlement = settle_mcr(total, legal, s.seat, s.self_drawn, s.discarder,
                            int(params.get("base", tb.seat_payment)), tb.false_win)
    extras: dict[str, Any] = {}
    if not s.self_drawn and s.discarder is None and legal:
        extras["discarder_assumed"] = WIND_LETTERS[(s.seat - 1) % 4]
    return ScoreResult("mcr", total, legal, hand.flower_count, hits, settlement, extras,
                       v.variant)


__all__ = ["FAN_TABLE", "rule_table", "score_hand", "score_batch", "score_waits_batch", "settle_mcr"]
