"""Taiwan 16-tile (台湾麻雀) scoring and settlement, mahjchina's tai table (seed 002).

The table is data: ``mjfast/rules/taiwan.toml`` (42 rows: id, key, tai, ja/zh/en names,
source clause, excludes; the combination decisions as ``[[decision]]`` entries; the
settlement parameters in ``[params]``), loaded by the generic loader
:mod:`mjfast.rules._table`. One compiled kernel (:mod:`mjfast.kernels._score_taiwan`)
scores single hands, batches and waits from the table's arrays.

Scorer contract (docs/INTERNALS.md): :data:`FAN_TABLE`, :func:`score_hand`,
:func:`score_batch`, :func:`score_waits_batch`. Settlement: :func:`dealer_bonus`,
:func:`settle_win`, :func:`settle_multiple_ron`, :func:`settle_flower_win`,
:func:`next_dealer_state`; the missed-win rule: :func:`win_allowed`, :class:`MissedWins`.
Every decision and its source: docs/rules-taiwan.md.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..errors import (IncompleteHandError, InvalidCountsError, RuleSetError,
                      SituationError)
from ..hand import Hand, HandBatch
from ..kernels import _score_taiwan as _k
from ..kernels import context_of, taiwan_win_extras
from ..kernels._decompose import new_scratch
from . import _settle
from ._rows import batch_field, run_batch
from ._waits import wait_grid, wait_pairs
from ..rules import Decision, RuleContext, RuleProfile, rule_context
from ..rules import check_decisions as _check_decisions  # noqa: F401
from ..tiles import N_KINDS, WIND_LETTERS
from ._params import settlement_params
from .result import FanHit, ScoreResult, fan_hits

RULES = "taiwan"
PLAYERS = 4
DECISION_MODES = ("cumulative", "replaces", "highest", "one_value", "standalone")


# =====================================================================================
# The table
# =====================================================================================
def get_table(variant: str | RuleContext | None = None) -> RuleProfile:
    """The Taiwan table (:class:`~mjfast.rules.RuleProfile`: rows, decisions, settlement
    params, kernel arrays), base or with a variant applied: a name ``X`` for
    ``mjfast/rules/taiwan.X.toml``, the path of a user ``.toml`` variant file, or a
    :class:`~mjfast.rules.RuleContext`."""
    return _checked(rule_context(RULES, variant).profile)


@functools.lru_cache(maxsize=None)
def _checked(profile: RuleProfile) -> RuleProfile:
    missing = [k for k in _k.KEYS if k not in profile.by_key]
    if missing:
        raise RuleSetError(RULES, None, f"taiwan table lacks rows for {', '.join(missing)}")
    return profile


FAN_TABLE = get_table()
"""The base Taiwan tai table (a :class:`~mjfast.rules.RuleProfile`)."""


# =====================================================================================
# Settlement
# =====================================================================================
def _seat(x, name: str) -> int:
    if isinstance(x, str):
        if x.upper() in WIND_LETTERS:
            return WIND_LETTERS.index(x.upper())
        raise SituationError(x, None, f"{name} must be a wind letter E S W N or 0..3")
    x = int(x)
    if not 0 <= x < PLAYERS:
        raise SituationError(str(x), None, f"{name} must be a wind 0..3 (E S W N)")
    return x


def dealer_bonus(streak: int = 0, variant: str | None = None) -> int:
    """The dealer's bonus in tai: 1 + 2 x previous consecutive dealer wins (seed 002
    支払いと連荘; the numbers are ``[params] dealer_bonus`` / ``dealer_bonus_per_streak``)."""
    if streak < 0:
        raise SituationError(str(streak), None, "streak must be >= 0")
    p = get_table(variant).params
    return int(p.get("dealer_bonus", 1)) + int(p.get("dealer_bonus_per_streak", 2)) * int(streak)


def _empty() -> dict[str, int]:
    return {WIND_LETTERS[s]: 0 for s in range(PLAYERS)}


def settle_win(tai: int, winner: int | str, *, self_drawn: bool, discarder: int | str | None = None,
               dealer: int | str = 0, streak: int = 0, base: int | None = None,
               unit: int | None = None, variant: str | None = None) -> dict[str, int]:
    """Payments of one win: ``{"E": gain, "S": ..., "W": ..., "N": ...}``.

    Each payer pays ``base + unit x (tai + bonus)``; bonus is the dealer bonus when the
    dealer wins (every payer) or the dealer deals in (the dealer pays it); on a
    non-dealer's self-draw nobody pays it (seed 002 支払いと連荘).
    """
    w = _seat(winner, "winner")
    d = _seat(dealer, "dealer")
    if streak < 0:
        raise SituationError(str(streak), None, "streak must be >= 0")
    if self_drawn:
        if discarder is not None:
            raise SituationError(str(discarder), None, "a self-drawn win has no discarder")
        x = None
    else:
        if discarder is None:
            raise SituationError("discarder", None, "a discard win needs the discarder")
        x = _seat(discarder, "discarder")
        if x == w:
            raise SituationError(str(x), None, "the winner cannot be the discarder")
    P = _settle.params(get_table(variant), base=base, unit=unit)
    out = _settle.win(P, w, self_drawn, x, int(tai), True, d, int(streak))
    return {WIND_LETTERS[k]: int(out[k]) for k in range(PLAYERS)}


def settle_multiple_ron(wins: Mapping[int | str, int] | Sequence[tuple[int | str, int]],
                        discarder: int | str, *, dealer: int | str = 0, streak: int = 0,
                        base: int | None = None, unit: int | None = None,
                        variant: str | None = None) -> dict[str, int]:
    """Several players win on one discard: the discarder pays each winner as for a single
    discard win (``wins``: winner seat -> tai). Seed 002 手番・鳴き・複数和了."""
    items = list(wins.items()) if isinstance(wins, Mapping) else list(wins)
    if not items:
        raise SituationError("wins", None, "no winners")
    if not get_table(variant).params.get("multiple_ron", True):
        raise RuleSetError("multiple_ron", None, "this table does not allow several wins on one discard")
    seen = set()
    out = _empty()
    for w, tai in items:
        ws = _seat(w, "winner")
        if ws in seen:
            raise SituationError(WIND_LETTERS[ws], None, "a winner listed twice")
        seen.add(ws)
        one = settle_win(tai, ws, self_drawn=False, discarder=discarder, dealer=dealer,
                         streak=streak, base=base, unit=unit, variant=variant)
        for k, v in one.items():
            out[k] += v
    return out


def settle_flower_win(kind: str, winner: int | str, payer: int | str | None = None, *,
                      base: int | None = None, unit: int | None = None,
                      variant: str | None = None) -> dict[str, int]:
    """The instant flower wins (no dealer bonus, no other item):
    ``kind="seven"`` 七花搶第八花 (the holder of the 8th flower, ``payer``, pays 20);
    ``kind="eight"`` 八花独占 (each other player pays 30). Values from the table."""
    w = _seat(winner, "winner")
    P = _settle.params(get_table(variant), base=base, unit=unit)
    if kind in ("seven", "seven_flowers_rob"):
        if payer is None:
            raise SituationError("eighth_flower", None, "七花搶第八花 needs the holder of the 8th flower")
        x = _seat(payer, "eighth_flower")
        if x == w:
            raise SituationError(str(x), None, "the holder of the 8th flower cannot be the winner")
        out = _settle.flower_win(P, w, x)
    elif kind in ("eight", "eight_flowers"):
        out = _settle.flower_win(P, w, None)
    else:
        raise SituationError(str(kind), None, "flower win kind must be 'seven' or 'eight'")
    return {WIND_LETTERS[k]: int(out[k]) for k in range(PLAYERS)}


def next_dealer_state(dealer: int | str, streak: int, winners: Iterable[int | str] | int | str | None
                      ) -> tuple[int, int]:
    """Dealer and streak for the next hand (seed 002 支払いと連荘).

    ``winners``: the winning seat(s) of this hand (several on a multiple ron), or None /
    empty for a drawn hand. The dealer among the winners: the dealer repeats and the
    streak grows by one; only non-dealers won: the deal passes to the next seat and the
    streak resets to 0; a draw: dealer and streak stay.
    """
    d = _seat(dealer, "dealer")
    if streak < 0:
        raise SituationError(str(streak), None, "streak must be >= 0")
    if winners is None:
        ws: set[int] = set()
    elif isinstance(winners, (int, str, np.integer)):
        ws = {_seat(winners, "winner")}
    else:
        ws = {_seat(x, "winner") for x in winners}
    if not ws:
        return d, int(streak)
    if d in ws:
        return d, int(streak) + 1
    return (d + 1) % PLAYERS, 0


def win_allowed(tile: int, missed_tiles: Iterable[int]) -> bool:
    """The missed-win rule (seed 002 見逃しと原始聴牌): after passing a legal win, no win
    on that tile kind, self-draw included, until the player's own next discard.
    ``missed_tiles``: the kinds passed since the player's last discard."""
    return int(tile) not in {int(t) for t in missed_tiles}


@dataclass
class MissedWins:
    """Per-player missed-win state for an engine: :meth:`passed` when a legal win is not
    taken, :meth:`discarded` on the player's own discard (clears), :meth:`allows`."""
    tiles: set[int] = field(default_factory=set)

    def passed(self, tile: int) -> None:
        self.tiles.add(int(tile))

    def discarded(self) -> None:
        self.tiles.clear()

    def allows(self, tile: int) -> bool:
        return win_allowed(tile, self.tiles)


# =====================================================================================
# Scoring
# =====================================================================================
_CHUNK = 4096


def _arrays(batch: HandBatch):
    n = len(batch)
    counts = np.ascontiguousarray(batch.counts, dtype=np.uint8)
    if counts.ndim != 2 or counts.shape[1] != N_KINDS:
        raise InvalidCountsError(repr(counts.shape), None, "counts must be (N, 34)")
    if counts.size and counts.max() > 4:       # one pass; the row only on failure
        bad = np.flatnonzero((counts > 4).any(axis=1))
        raise InvalidCountsError(f"row {bad[0]}", int(bad[0]), "a count above 4")
    melds = np.ascontiguousarray(batch.melds, dtype=np.int8).reshape(n, 5, 4)
    n_melds = np.ascontiguousarray(batch.n_melds, dtype=np.uint8)
    if n_melds.size and n_melds.max() > 5:
        row = int(np.flatnonzero(n_melds > 5)[0])
        raise InvalidCountsError(f"row {row}", row, "more than 5 melds")
    return (counts, np.ascontiguousarray(batch.winning_tile, dtype=np.int8), melds, n_melds,
            np.ascontiguousarray(batch.flowers, dtype=np.uint8),
            np.ascontiguousarray(batch.flags, dtype=np.uint16),
            np.ascontiguousarray(batch.seat, dtype=np.int8),
            np.ascontiguousarray(batch.dealer, dtype=np.int8),
            np.ascontiguousarray(batch.discarder, dtype=np.int8),
            np.ascontiguousarray(batch.table_discards, dtype=np.int16))


def _scratch(n_chunks: int) -> np.ndarray:
    """One decomposer scratch per chunk (the decomposer owns its shape)."""
    one = new_scratch()
    return np.zeros((n_chunks,) + one.shape, dtype=one.dtype)


def _kernel_scores(batch: HandBatch, t: RuleProfile):
    """(fan_counts (N, n_cols) by fan id, totals (N,))."""
    _arrays(batch)                               # validates (typed errors)
    fc, totals, _, _ = run_batch(batch, context_of(t))
    return fc, totals


def score_batch(batch: HandBatch, variant: str | None = None):
    """Score N complete hands (compiled kernel, parallel over chunks).

    Returns :class:`~mjfast.scoring.BatchScores`: ``fan_counts (N, 43)`` (column = row
    id), ``totals`` (tai, dealer bonus not included; -1 for rows that are not complete),
    ``legal`` (= complete: Taiwan has no minimum), ``complete``, ``extras``:
    ``dealer_bonus`` (N,) (the bonus that applies to this win, 0 when it does not) and
    ``winner_gain`` (N,) (what the winner receives with the table's base/unit; a discard
    win with no discarder given is settled as if the next player had discarded).
    A row with 8 flowers scores 八花独占 alone (no shape needed).
    """
    from . import BatchScores
    t = get_table(variant)
    fan_counts, totals = _kernel_scores(batch, t)
    complete = totals >= 0
    # the settlement columns by the settlement kernel (one pass, compiled)
    n = len(batch)
    bonus = np.empty(n, dtype=np.int32)
    gain = np.empty(n, dtype=np.int64)
    # (the batch's arrays in the row layer's dtypes: one compiled version)
    taiwan_win_extras(_settle.params(t), totals, fan_counts[:, t.row("eight_flowers").id],
                      *(batch_field(batch, name)
                        for name in ("seat", "dealer", "discarder", "flags", "streak")),
                      bonus, gain)
    return BatchScores(fan_counts, totals, complete.copy(), complete,
                       {"dealer_bonus": bonus, "winner_gain": gain})


def score_waits_batch(batch: HandBatch, visible=None, variant: str | None = None):
    """Every wait of N ready 16-tile hands: :class:`~mjfast.scoring.WaitScores` with
    (N, 34) ``wins``, ``total_discard`` / ``total_self_drawn`` (tai, -1 where not a win),
    ``legal_*`` (= wins; the missed-win rule needs the game, see :func:`win_allowed`) and
    ``live`` (4 - held - visible, at least 0). The discard totals use the batch's
    discarder; the self-draw totals drop the discarder and robbing-a-kong."""
    from . import WaitScores
    t = get_table(variant)
    _arrays(batch)                               # validates (typed errors)
    n = len(batch)
    vis = None if visible is None else np.ascontiguousarray(visible, dtype=np.uint8).reshape(n, N_KINDS)
    pairs = wait_pairs(batch, context_of(t), vis)
    return WaitScores(*wait_grid(pairs, n), pairs.live.astype(np.int8))


def _standalone_result(hand: Hand, t: RuleProfile, kind: str, payer: int | None,
                       base: int | None, unit: int | None, variant: str | None) -> ScoreResult:
    key = "seven_flowers_rob" if kind == "seven" else "eight_flowers"
    r = t.row(key)
    if not r.enabled:
        raise RuleSetError(key, None, f"{r.ja} is switched off in this table")
    s = hand.situation
    settlement = settle_flower_win(kind, s.seat, payer, base=base, unit=unit, variant=variant)
    extras = {"unit": "tai", "dealer_bonus": 0, "winner": WIND_LETTERS[s.seat],
              "flower_win": kind,
              "payer": None if payer is None else WIND_LETTERS[payer]}
    return ScoreResult(RULES, r.points, True, hand.flower_count,
                       (FanHit(r.id, r.en, r.zh, r.ja, r.points, 1),), settlement, extras,
                       t.variant)


def score_hand(hand: Hand, variant: str | None = None, **params: Any) -> ScoreResult:
    """Score one complete Taiwan hand (the highest reading counts) and settle it.

    ``total`` is in tai without the dealer bonus; ``extras``: ``dealer_bonus`` (tai added
    per paying player where it applies), ``unit`` ("tai"), ``winner``, ``discarder``
    (``discarder_assumed`` True when a discard win gave none: the next player, as the
    seed's calculator), ``flower_win``. ``settlement`` maps E S W N to gains.

    Instant flower wins: a hand with 8 flowers scores 八花独占 alone; a hand with 7 flowers
    and ``eighth_flower`` (the seat wind holding the 8th) scores 七花搶第八花 alone. Neither
    needs a complete hand. ``base`` / ``unit`` override the table's settlement params.
    ``params``: the settlement keywords of the scorer contract (Taiwan uses ``base``,
    ``unit``, ``eighth_flower``; :func:`mjfast.scoring._params.settlement_params`).
    """
    params = settlement_params(RULES, params)
    base, unit = params.get("base"), params.get("unit")
    eighth_flower = params.get("eighth_flower")
    if hand.rules != RULES:
        raise RuleSetError(hand.rules, None, "not a Taiwan hand (build it with rules='taiwan')")
    t = get_table(variant)
    s = hand.situation
    if eighth_flower is not None:
        payer = _seat(eighth_flower, "eighth_flower")
        if hand.flower_count != 7:
            raise SituationError(f"eighth_flower={WIND_LETTERS[payer]}", None,
                                 "七花搶第八花 needs exactly 7 flowers in the hand")
        return _standalone_result(hand, t, "seven", payer, base, unit, variant)
    if hand.flower_count >= 8 and t.row("eight_flowers").enabled:
        return _standalone_result(hand, t, "eight", None, base, unit, variant)
    if hand.winning_tile is None:
        raise IncompleteHandError(hand.describe(), None, "no winning tile: not a complete hand")
    batch = HandBatch.from_hands([hand], RULES)
    kc, totals = _kernel_scores(batch, t)
    total = int(totals[0])
    if total < 0:
        raise IncompleteHandError(hand.describe(), None,
                                  "not a complete Taiwan hand (5 sets + a pair, or 七対+刻子)")
    fans = fan_hits(kc[0], t)
    assumed = False
    discarder = s.discarder
    if not s.self_drawn and discarder is None:
        discarder, assumed = (s.seat + 1) % PLAYERS, True
    bonus_applies = s.seat == s.dealer or (not s.self_drawn and discarder == s.dealer)
    bonus = dealer_bonus(s.streak, variant) if bonus_applies else 0
    settlement = settle_win(total, s.seat, self_drawn=s.self_drawn,
                            discarder=None if s.self_drawn else discarder, dealer=s.dealer,
                            streak=s.streak, base=base, unit=unit, variant=variant)
    extras = {"unit": "tai", "dealer_bonus": bonus, "winner": WIND_LETTERS[s.seat],
              "discarder": None if s.self_drawn else WIND_LETTERS[discarder],
              "discarder_assumed": assumed, "dealer": WIND_LETTERS[s.dealer],
              "streak": s.streak, "flower_win": None}
    return ScoreResult(RULES, total, True, hand.flower_count, fans, settlement, extras,
                       t.variant)


__all__ = ["FAN_TABLE", "Decision", "get_table", "score_hand", "score_batch",
           "score_waits_batch", "dealer_bonus", "settle_win", "settle_multiple_ron",
           "settle_flower_win", "next_dealer_state", "win_allowed", "MissedWins"]
