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
from ..kernels import _score_mcr as K
from ..kernels._entry import suit_table
from ..rules import RuleContext, RuleProfile, rule_context
from ..tiles import WIND_LETTERS
from ._params import settlement_params
from .result import FanHit, ScoreResult

N_COLS = K.N_FANS  # 83: column = fan id, 82 = 明暗杠


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

    def args(self):
        return (self.profile.kernel_args(), _suit_table())


def _suit_table() -> np.ndarray:
    """Per-suit completeness table for the wait test (5**9 codes, built once, ~0.2 s)."""
    return suit_table()


def _tables(variant: str | RuleContext | None) -> _Tables:
    return _tables_of(rule_context("mcr", variant).profile)


@lru_cache(maxsize=None)
def _tables_of(profile: RuleProfile) -> _Tables:
    return _Tables(profile)


FAN_TABLE = rule_table(None)


# ---------------------------------------------------------------------------------------
# batch
# ---------------------------------------------------------------------------------------
def _check_batch(batch: HandBatch) -> np.ndarray:
    """Rows that can be scored: winning tile given, counts within 0..4, right size."""
    counts = batch.counts.astype(np.int64)
    nm = batch.n_melds.astype(np.int64)
    ok = (batch.winning_tile >= 0) & (counts.max(axis=1) <= 4)
    ok &= counts.sum(axis=1) == 14 - 3 * nm
    w = np.clip(batch.winning_tile.astype(np.int64), 0, 33)
    ok &= counts[np.arange(len(counts)), w] > 0
    return ok


def _kernel_flags(batch: HandBatch, dtype=np.int64) -> np.ndarray:
    """The situation bits the kernel reads. ``first_turn`` counts only for the dealer's
    concealed self-drawn hand (the heavenly hand: no wait fans, no nine gates)."""
    flags = batch.flags.astype(dtype)
    heavenly = (batch.seat == batch.dealer) & (batch.n_melds == 0)
    return np.where(heavenly, flags, flags & ~dtype(K.F_FIRST_TURN))


def _own(a: np.ndarray, dtype) -> np.ndarray:
    """``a`` in the batch's own small type for the kernel (no copy when it already is)."""
    return np.ascontiguousarray(a, dtype=dtype)


def _chunk(n: int) -> int:
    """Rows per parallel task: enough tasks for every thread, each big enough to amortise
    its scratch allocation."""
    import numba
    return max(256, -(-n // (4 * numba.get_num_threads())))


def score_batch(batch: HandBatch, variant: str | None = None):
    """Score N complete MCR hands with the compiled kernel.

    Returns ``BatchScores``: ``fan_counts`` (N, 83) int16 (column = fan id, 81 = flowers,
    82 = 明暗杠), ``totals`` (N,) int32 (flowers included, -1 where not complete),
    ``legal`` (total without flowers >= 8), ``complete``; ``extras["flowers"]``.
    """
    from . import BatchScores
    if batch.rules != "mcr":
        raise RuleSetError(batch.rules, None, "the MCR scorer needs an MCR HandBatch")
    tb = _tables(variant)
    n = len(batch)
    fans = np.zeros((n, N_COLS), dtype=np.int16)
    totals = np.full(n, -1, dtype=np.int32)
    if n:
        # the per-hand inputs in their own small types: int64 copies would be ~40 bytes a
        # hand of fresh memory to fault in, as much as a fifth of the output's
        K.score_batch_kernel(_own(batch.counts, np.uint8), _own(batch.winning_tile, np.int8),
                             _own(batch.melds, np.int8), _own(batch.n_melds, np.uint8),
                             _own(batch.flowers, np.uint8), _kernel_flags(batch, np.uint16),
                             _own(batch.seat, np.int8), _own(batch.prevalent, np.int8),
                             *tb.args(), fans, totals, _chunk(n))
    complete = totals >= 0
    flowers = batch.flowers.astype(np.int32)
    counted = totals if tb.flowers_to_minimum else totals - flowers * int(tb.points[K.FLOWER_TILES])
    legal = complete & (counted >= tb.minimum)
    return BatchScores(fans, totals, legal, complete, {"flowers": flowers})


def score_waits_batch(batch: HandBatch, visible: np.ndarray | None = None, variant: str | None = None):
    """Every winning tile of N ready hands (no winning tile): ``WaitScores`` with (N, 34)
    arrays ``wins``, ``total_discard``, ``total_self_drawn`` (flowers included, -1 where
    not a win), ``legal_discard``, ``legal_self_drawn`` (>= 8 without flowers) and ``live``
    (4 minus the player's own copies minus ``visible``)."""
    from . import WaitScores
    if batch.rules != "mcr":
        raise RuleSetError(batch.rules, None, "the MCR scorer needs an MCR HandBatch")
    tb = _tables(variant)
    n = len(batch)
    counts = np.ascontiguousarray(batch.counts, dtype=np.uint8)
    bad = (batch.winning_tile >= 0) | (counts.sum(axis=1).astype(np.int64) != 13 - 3 * batch.n_melds.astype(np.int64))
    if bad.any():
        from ..errors import HandSizeError
        i = int(np.flatnonzero(bad)[0])
        raise HandSizeError(f"batch row {i}", i, "score_waits needs ready hands: 13 tiles (melds as 3), no winning tile")
    has_vis = visible is not None
    vis = (np.zeros((n, 34), dtype=np.int64) if visible is None
           else np.asarray(visible, dtype=np.int64).reshape(n, 34))
    wins = np.zeros((n, 34), dtype=np.bool_)
    td = np.full((n, 34), -1, dtype=np.int32)
    ts = np.full((n, 34), -1, dtype=np.int32)
    ld = np.zeros((n, 34), dtype=np.bool_)
    ls = np.zeros((n, 34), dtype=np.bool_)
    live = np.zeros((n, 34), dtype=np.int16)
    if n:
        K.score_waits_kernel(counts, np.ascontiguousarray(batch.melds, dtype=np.int8),
                             batch.n_melds.astype(np.int64), batch.flowers.astype(np.int64),
                             _kernel_flags(batch), batch.seat.astype(np.int64),
                             batch.prevalent.astype(np.int64), vis, has_vis, *tb.args(), wins, td, ts, ld, ls, live, _chunk(n))
    return WaitScores(wins, td, ts, ld, ls, live)


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
    gains = {w: 0 for w in WIND_LETTERS}
    me = WIND_LETTERS[seat]
    if not legal:
        for w in WIND_LETTERS:
            if w != me:
                gains[w] += false_win[1]
                gains[me] -= false_win[1]
        return gains
    if self_drawn:
        for w in WIND_LETTERS:
            if w != me:
                gains[w] -= total + seat_payment
                gains[me] += total + seat_payment
        return gains
    if discarder is None:
        discarder = (seat - 1) % 4
    if discarder == seat:
        raise SituationError(f"discarder={WIND_LETTERS[discarder]}", None, "the winner cannot be the discarder")
    for k, w in enumerate(WIND_LETTERS):
        if w == me:
            continue
        pay = seat_payment + (total if k == discarder else 0)
        gains[w] -= pay
        gains[me] += pay
    return gains


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
    v = tb.profile.variant
    if hand.winning_tile is None:
        raise IncompleteHandError(hand.describe(), None, "no winning tile: a waiting hand cannot be scored (see score_waits)")
    res = score_batch(HandBatch.from_hands([hand]), variant=v)
    if not res.complete[0]:
        raise IncompleteHandError(hand.describe(), None, "not a complete MCR winning hand")
    table = tb.table
    hits = []
    for fid in np.flatnonzero(res.fan_counts[0]):
        r = table.row(int(fid))
        hits.append(FanHit(r.id, r.en, r.zh, r.ja, r.points, int(res.fan_counts[0, fid])))
    hits.sort(key=lambda f: (-f.points, f.id))
    total = int(res.totals[0])
    legal = bool(res.legal[0])
    s = hand.situation
    settlement = settle_mcr(total, legal, s.seat, s.self_drawn, s.discarder,
                            int(params.get("base", tb.seat_payment)), tb.false_win)
    extras: dict[str, Any] = {}
    if not s.self_drawn and s.discarder is None and legal:
        extras["discarder_assumed"] = WIND_LETTERS[(s.seat - 1) % 4]
    return ScoreResult("mcr", total, legal, hand.flower_count, tuple(hits), settlement, extras, v)


__all__ = ["FAN_TABLE", "rule_table", "score_hand", "score_batch", "score_waits_batch", "settle_mcr"]
