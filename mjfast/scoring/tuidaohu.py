"""Tuidaohu (推倒胡) and two-player (二人麻雀) scoring and settlement, MacePlay tables.

Both rule sets are data: ``mjfast/rules/tuidaohu.toml`` (fans with names, values,
exclusions, settlement parameters) and its variant ``tuidaohu.two_player.toml`` (other
values, rows switched off, other settlement numbers). One compiled kernel
(:mod:`mjfast.kernels._score_tuidaohu`) scores both, taking the table's arrays.

Scorer contract (docs/INTERNALS.md): :data:`FAN_TABLE` (:data:`FAN_TABLES` per rule set),
:func:`score_hand`, :func:`score_batch`, :func:`score_waits_batch`. Settlement helpers:
:func:`settle`, :func:`head_bump`, :func:`next_dealer`, :func:`multiplier`.

A one-hand call settles the win and every kong **in the winner's hand** (the hand string
holds them, with the discarder of each exposed kong). Kongs of the other players are not
in the hand; settle them with :func:`kong_payment` from a game record.
"""
from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Iterable, Mapping

import numpy as np

from ..errors import (IncompleteHandError, InvalidCountsError, RuleSetError,
                      SituationError)
from ..hand import Hand, HandBatch, MeldKind
from ..kernels import _score_tuidaohu as _k
from ..kernels import context_of
from . import _settle
from ._rows import run_batch
from ._waits import wait_grid, wait_pairs
from ..rules import RuleContext, RuleProfile, get_rules, rule_context
from ..tiles import N_KINDS, WIND_LETTERS, tile_name
from ._params import settlement_params
from .result import ScoreResult, fan_hits

RULE_SETS = ("tuidaohu", "two_player")


# =====================================================================================
# The table (loaded by the generic loader mjfast/rules/_table.py)
# =====================================================================================
_REQUIRED_PARAMS = ("fan_cap", "kong_open", "kong_added", "kong_concealed", "fee")
_POLICIES = {"win_self_drawn_payers": ("all_others",),
             "win_discard_payers": ("discarder", "all_others"),
             "dealer_repeat": ("dealer_win_or_draw",),
             "several_rons": ("head_bump",)}


def get_table(rules: str = "tuidaohu", variant: str | RuleContext | None = None) -> RuleProfile:
    """The loaded table of ``rules`` (``tuidaohu`` or ``two_player`` = tuidaohu.toml +
    tuidaohu.two_player.toml), with an optional user ``variant`` applied on top: a name
    ``X`` for ``mjfast/rules/tuidaohu.X.toml``, a path to a ``.toml`` file or a
    :class:`~mjfast.rules.RuleContext`."""
    name = get_rules(rules).name
    if name not in RULE_SETS:
        raise RuleSetError(rules, None, "the tuidaohu scorer serves tuidaohu and two_player")
    return _checked(rule_context(name, variant).profile)


@functools.lru_cache(maxsize=None)
def _checked(profile: RuleProfile) -> RuleProfile:
    name = profile.rules
    t = profile.table
    for k in _REQUIRED_PARAMS:
        if k not in t.params:
            raise RuleSetError(name, None, f"settlement parameter {k!r} missing from the table")
    for k, allowed in _POLICIES.items():
        if k in t.params and t.params[k] not in allowed:
            raise RuleSetError(f"{k} = {t.params[k]!r}", None,
                               f"unsupported policy (implemented: {', '.join(allowed)})")
    unknown = set(t.params) - set(_REQUIRED_PARAMS) - set(_POLICIES) - {"base", "minimum_fan", "chips"}
    if unknown:
        raise RuleSetError(", ".join(sorted(unknown)), None, "unknown settlement parameter")
    return profile


FAN_TABLES: dict[str, RuleProfile] = {r: get_table(r) for r in RULE_SETS}
FAN_TABLE = FAN_TABLES["tuidaohu"]


def _table_for(rules: str, variant: str | None) -> RuleProfile:
    return get_table(get_rules(rules).name, variant)


# =====================================================================================
# Settlement
# =====================================================================================
def multiplier(fan: int, fan_cap: int = 6) -> int:
    """``2^(min(fan, cap) - 1)``; 0 for a hand without fan (impossible with the seed
    tables, where every win has 和了 1)."""
    capped = min(int(fan), int(fan_cap))
    return 1 << (capped - 1) if capped >= 1 else 0


def head_bump(discarder: int, claimants: Iterable[int], players: int = 4) -> int:
    """Several players claim one discard for a win: only the claimant nearest in turn
    order after the discarder wins (頭ハネ). Seats are 0..players-1 (E S W N)."""
    cl = [int(c) for c in claimants]
    if not cl:
        raise SituationError("claimants=[]", None, "head_bump needs at least one claimant")
    for c in cl:
        if not 0 <= c < players or c == discarder:
            raise SituationError(f"claimant={c}", None,
                                 f"a claimant is a seat 0..{players - 1} other than the discarder")
    return min(cl, key=lambda c: (c - discarder) % players)


def next_dealer(dealer: int, winner: int | None, players: int = 4) -> int:
    """Dealer of the next hand: the dealer repeats (連荘) when he wins or the hand is a
    draw (``winner=None``); otherwise the deal passes to the next seat. Both rule sets."""
    if winner is None or winner == dealer:
        return dealer
    return (dealer + 1) % players


def _seat_of_offset(seat: int, offset: int, players: int) -> int:
    """Seat of the player at ``offset`` from ``seat`` (1 previous/上家, 2 across, 3 next);
    with two players every offset names the opponent."""
    if players == 2:
        return 1 - seat
    return (seat - offset) % players


def kong_payment(kind: str, seat: int, discarder: int | None = None, *, rules: str = "tuidaohu",
                 variant: str | None = None, base: int = 1) -> dict[int, int]:
    """What one kong of player ``seat`` earns: ``{seat: amount}`` with the kong's owner
    positive. ``kind`` is ``open`` (needs ``discarder``), ``added``, ``concealed`` or
    ``robbed`` (an added kong robbed for a win: pays nothing)."""
    t = _table_for(rules, variant)
    players = t.players
    if kind == "robbed":
        return {p: 0 for p in range(players)}
    if kind == "open":
        if discarder is None or discarder == seat or not 0 <= discarder < players:
            raise SituationError(f"discarder={discarder}", None, "an open kong needs its discarder")
    elif kind not in ("added", "concealed"):
        raise SituationError(kind, None, "kong kind is open, added, concealed or robbed")
    P = _settle.params(t, base=base)
    out = _settle.kong(P, seat, kind, discarder if kind == "open" else None)
    return {p: int(out[p]) for p in range(players)}


def _chips_of(chips, players: int) -> dict[int, int] | None:
    if chips is None or chips == "":
        return None
    if isinstance(chips, Mapping):
        out = {}
        for k, v in chips.items():
            p = WIND_LETTERS.index(k) if isinstance(k, str) else int(k)
            out[p] = int(v)
        return out
    return {p: int(chips) for p in range(players)}


def settle(fan: int, *, seat: int, self_drawn: bool, discarder: int | None = None,
           kongs: Iterable[tuple[str, int | None]] = (), rules: str = "tuidaohu",
           variant: str | None = None, base: int = 1, fee: float | None = None,
           chips: int | Mapping | None = None, dealer: int = 0) -> dict[str, Any]:
    """Settle one won hand: the win and the winner's ``kongs`` (``(kind, discarder)``
    pairs, kind ``open``/``added``/``concealed``/``robbed``).

    Returns ``settlement`` (net gain per seat letter), ``capped``, ``multiplier``,
    ``win_payment`` (what each payer pays for the win), ``win`` / ``kong`` per-seat
    parts, ``gross`` (after the chip cap, before the fee), ``owed`` (before the chip cap),
    ``fee`` (per seat), ``chip_capped`` and ``next_dealer``.
    """
    t = _table_for(rules, variant)
    s, players = t.settlement, t.players
    if not 0 <= seat < players:
        raise SituationError(f"seat={seat}", None, f"{t.rules} seats are 0..{players - 1}")
    fee_rate = Fraction(str(s["fee"] if fee is None else fee))
    cap = t.fan_cap
    capped = min(int(fan), cap)
    mult = multiplier(fan, cap)
    pay = mult * int(base)
    others = [p for p in range(players) if p != seat]
    note = {}
    if not self_drawn:
        if discarder is None:
            if players == 2:
                discarder = others[0]
            else:       # 4 players, discarder not given: the previous player (上家)
                discarder = (seat - 1) % players
                note["discarder_assumed"] = WIND_LETTERS[discarder]
        if not 0 <= discarder < players or discarder == seat:
            raise SituationError(f"discarder={discarder}", None,
                                 f"the discarder is a seat 0..{players - 1} other than the winner")
    P = _settle.params(t, base=base, fee_rate=fee_rate)
    paid = _settle.win(P, seat, self_drawn, None if self_drawn else discarder, int(fan))
    win = {p: int(paid[p]) for p in range(players)}
    kong = {p: 0 for p in range(players)}
    kong_list = []
    for kind, d in kongs:
        part = kong_payment(kind, seat, d, rules=rules, variant=variant, base=base)
        for p, v in part.items():
            kong[p] += v
        kong_list.append({"kind": kind, "payments": {WIND_LETTERS[p]: v for p, v in part.items() if v}})
    owed = {p: win[p] + kong[p] for p in range(players)}
    # chip cap: a payer pays at most the chips he brought
    caps = _chips_of(chips if chips is not None else s.get("chips"), players)
    gross = dict(owed)
    chip_capped = False
    if caps is not None:
        for p in others:
            if p in caps and -gross[p] > caps[p]:
                gross[p] = -max(caps[p], 0)
                chip_capped = True
        gross[seat] = -sum(gross[p] for p in others)
    # the fee, in whole coins: gross x rate rounded half up (settlements are integers)
    fee_amt = {p: 0 for p in range(players)}
    net = dict(gross)
    for p in range(players):
        if gross[p] > 0 and fee_rate:
            fee_amt[p] = _settle.fee_on(P, gross[p])
            net[p] -= fee_amt[p]
    L = WIND_LETTERS
    out = {
        "settlement": {L[p]: net[p] for p in range(players)},
        "capped": capped,
        "fan_cap": cap,
        "multiplier": mult,
        "base": int(base),
        "win_payment": pay,
        "win": {L[p]: win[p] for p in range(players)},
        "kong": {L[p]: kong[p] for p in range(players)},
        "kong_payments": kong_list,
        "next_dealer": L[next_dealer(dealer, seat, players)],
    }
    if fee_rate or caps is not None:
        out.update({"owed": {L[p]: owed[p] for p in range(players)},
                    "gross": {L[p]: gross[p] for p in range(players)},
                    "fee_rate": float(fee_rate),
                    "fee": {L[p]: fee_amt[p] for p in range(players)},
                    "net": {L[p]: net[p] for p in range(players)},
                    "chip_capped": chip_capped})
    out.update(note)
    return out


def _hand_kongs(hand: Hand, players: int) -> list[tuple[str, int | None, int]]:
    seat = hand.situation.seat
    out = []
    for m in hand.melds:
        if m.kind != MeldKind.KONG:
            continue
        if m.concealed:
            out.append(("concealed", None, m.tile))
        elif m.added:
            out.append(("added", None, m.tile))
        else:
            out.append(("open", _seat_of_offset(seat, m.claimed_from, players), m.tile))
    return out


# =====================================================================================
# Scoring
# =====================================================================================
def _form_mask(rules: str) -> int:
    return sum(1 << f for f in get_rules(rules).forms)


def _check_situation(hand: Hand, table: RuleProfile) -> None:
    s = hand.situation
    players = table.players
    for name in ("seat", "dealer"):
        v = getattr(s, name)
        if v >= players:
            raise SituationError(f"{name}={WIND_LETTERS[v]}", None,
                                 f"{table.rules} has {players} seats ({' '.join(WIND_LETTERS[:players])})")
    if s.discarder is not None and s.discarder >= players:
        raise SituationError(f"discarder={WIND_LETTERS[s.discarder]}", None,
                             f"{table.rules} has {players} seats")
    if s.kong_replacement and not any(m.kind == MeldKind.KONG for m in hand.melds):
        raise SituationError("kong_replacement", None,
                             "a win on a kong replacement needs a kong in the hand")


def _run_kernel(batch: HandBatch, table: RuleProfile):
    """(fan_counts (N, n_cols) int16, totals int32, kong units int32) of the batch."""
    fan_counts, totals, _, kongs = run_batch(batch, context_of(table))
    return fan_counts, totals, kongs


def score_hand(hand: Hand, variant: str | None = None, **params: Any) -> ScoreResult:
    """Score and settle one complete Tuidaohu or two-player hand (``hand.rules`` picks the
    table). ``base`` (default 1), ``fee`` (two-player default 0.05) and ``chips`` (a cap
    per player: an int for both, or ``{seat: chips}``; default unlimited).

    ``total`` is the fan total before the cap; ``extras`` holds ``capped``,
    ``multiplier``, ``win_payment``, the per-kong ``kong_payments`` and, for two-player,
    ``owed``/``gross``/``fee``/``net``/``chip_capped``. ``settlement`` = win + kongs, net.
    """
    params = settlement_params(hand.rules, params)
    base, fee, chips = params.get("base"), params.get("fee"), params.get("chips")
    table = _table_for(hand.rules, variant)
    _check_situation(hand, table)
    batch = HandBatch.from_hands([hand], rules=table.rules)
    fan_counts, totals, _ = _run_kernel(batch, table)
    total = int(totals[0])
    if total < 0:
        raise IncompleteHandError(hand.describe(), None,
                                  f"not a complete {table.rules} hand (4 sets + a pair, or seven pairs)")
    fans = fan_hits(fan_counts[0], table)
    s = hand.situation
    players = table.players
    kongs = _hand_kongs(hand, players)
    st = settle(total, seat=s.seat, self_drawn=s.self_drawn, discarder=s.discarder,
                kongs=[(k, d) for k, d, _ in kongs], rules=table.rules, variant=variant,
                base=int(table.settlement.get("base", 1)) if base is None else int(base),
                fee=fee, chips=chips, dealer=s.dealer)
    for item, (_, _, tile) in zip(st["kong_payments"], kongs):
        item["tile"] = tile_name(tile)
    if s.robbing_kong:
        st["robbed_kong"] = "the robbed added kong pays nothing (it reverts to a pung)"
    settlement = st.pop("settlement")
    legal = total >= int(table.settlement.get("minimum_fan", 0))
    return ScoreResult(table.rules, total, legal, 0, fans, settlement, st, table.variant)


_BAD_REASONS = {
    _k.BAD_TILE_SET: "tile outside the {rules} tile set",
    _k.BAD_MELD_TILE: "meld tile outside the {rules} tile set (or not a meld)",
    _k.BAD_CHOW: "a chow meld must start at 1..7 of a suit",
    _k.BAD_CLAIMED_CHOW: "{rules} does not allow claimed chows",
    _k.BAD_OVER_FOUR: "more than 4 copies of a tile (melds included)",
    _k.BAD_MELD_COUNT: "more than 5 melds",
}


def _validate_batch(batch: HandBatch, table: RuleProfile) -> None:
    """Raise :class:`InvalidCountsError` (with the row index) on the first bad row."""
    rs = get_rules(table.rules)
    counts = np.asarray(batch.counts)
    if counts.ndim != 2 or counts.shape[1] != N_KINDS:
        raise InvalidCountsError(f"counts shape {counts.shape}", None, "counts must be (N, 34)")
    row, why = _k.validate_rows(np.ascontiguousarray(counts, np.uint8),
                                np.ascontiguousarray(batch.melds, np.int8),
                                np.ascontiguousarray(batch.n_melds, np.uint8),
                                rs.kind_mask, rs.chow_allowed)
    if row >= 0:
        raise InvalidCountsError(f"row {row}", int(row), _BAD_REASONS[int(why)].format(rules=rs.name))


def score_batch(batch: HandBatch, variant: str | None = None):
    """Score N hands (compiled kernel). ``fan_counts`` (N, F+1) int16 by fan id,
    ``totals`` (fan before the cap; -1 not complete), ``legal`` (complete and at least
    the table's ``minimum_fan``, 0 in both seed tables),
    ``extras``: ``capped``, ``multiplier`` (units of base paid per payer for the win) and
    ``kong_units`` (units of base the winner receives in all for his kongs)."""
    from . import BatchScores
    table = _table_for(batch.rules, variant)
    _validate_batch(batch, table)
    fan_counts, totals, kongs = _run_kernel(batch, table)
    complete = totals >= 0
    capped = np.where(complete, np.minimum(totals, table.fan_cap), 0).astype(np.int8)
    mult = np.where(capped >= 1, np.left_shift(1, np.maximum(capped.astype(np.int32) - 1, 0)), 0).astype(np.int32)
    legal = complete & (totals >= int(table.settlement.get("minimum_fan", 0)))
    return BatchScores(fan_counts, totals, legal, complete,
                       {"capped": capped, "multiplier": mult, "kong_units": kongs})


def score_waits_batch(batch: HandBatch, visible=None, variant: str | None = None):
    """Every winning tile of N ready hands (13 tiles, kongs aside): totals (fan before
    the cap) on a discard and on a self-draw; ``live`` = 4 − held − visible."""
    from . import WaitScores
    table = _table_for(batch.rules, variant)
    _validate_batch(batch, table)
    n = len(batch)
    vis = None if visible is None else np.ascontiguousarray(visible, np.uint8)
    if vis is not None and vis.shape != (n, N_KINDS):
        raise InvalidCountsError(f"visible shape {vis.shape}", None, f"visible must be ({n}, 34)")
    pairs = wait_pairs(batch, context_of(table), vis)
    return WaitScores(*wait_grid(pairs, n), pairs.live)


__all__ = ["FAN_TABLE", "FAN_TABLES", "get_table", "score_hand",
           "score_batch", "score_waits_batch", "settle", "kong_payment", "head_bump",
           "next_dealer", "multiplier"]
