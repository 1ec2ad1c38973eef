"""Compiled settlement: who pays whom for one win or one kong, from a parameter block ``P``
(the ``C_*`` slots of :mod:`._context`). The one implementation: the engine settles every
deal with it and the Python scorers (``score`` / ``score_hand``) settle single hands with
it, so a rule's payment is written once.

- MCR (seed 004): a discard win, the discarder pays total + ``C_SEAT_PAY`` and the others
  ``C_SEAT_PAY``; a self-draw, each pays total + ``C_SEAT_PAY``; a false win (not legal),
  the claimant pays ``C_FALSE_WIN`` to each other player.
- Taiwan: each payer pays base + unit x (tai + the dealer bonus when the dealer wins or
  deals in; on a non-dealer's self-draw the dealer pays the bonus only when
  ``C_BONUS_NONDEALER_TSUMO``); the bonus is ``C_BONUS + C_BONUS_STREAK x streak``.
- Tuidaohu / two-player: base x 2^(min(fan, cap) - 1) from each payer (the discarder, or
  every other player when ``C_DISCARD_ALL``); kongs pay ``C_KONG_*`` units of base; the
  two-player fee is taken from what a player receives (:func:`fee`).
"""
from __future__ import annotations

import numpy as np

from ._context import (C_BASE, C_BONUS, C_BONUS_NONDEALER_TSUMO, C_BONUS_STREAK,
                       C_DISCARD_ALL, C_EIGHT_FL_POINTS, C_FALSE_WIN, C_FAN_CAP, C_FEE_DEN,
                       C_FEE_NUM, C_KONG_ADDED, C_KONG_CONCEALED, C_KONG_OPEN, C_PLAYERS,
                       C_RULES, C_SEAT_PAY, C_SEVEN_FL_POINTS, C_UNIT)
from ._jit import kernel
from ..hand import SELF_DRAWN

RULES_MCR, RULES_TAIWAN = 0, 1      # C_RULES codes (tuidaohu 2, two-player 3)


@kernel
def fee(P, gross):
    """The two-player fee on what a player receives: gross x rate, rounded half up."""
    if gross <= 0 or P[C_FEE_NUM] == 0:
        return 0
    return (2 * gross * P[C_FEE_NUM] + P[C_FEE_DEN]) // (2 * P[C_FEE_DEN])


@kernel
def settle_win_gross(P, winner, self_drawn, discarder, total, legal, dealer, streak, out):
    """Add one win's payments before any fee (players: + gain / - pay) to ``out``
    (int64[4]); ``discarder`` the paying player of a discard win, ``dealer`` the dealer's
    player index. Returns what the winner received (Tuidaohu / two-player; 0 elsewhere)."""
    n = P[C_PLAYERS]
    rules = P[C_RULES]
    if rules == RULES_MCR:
        if not legal:
            for q in range(n):
                if q != winner:
                    out[q] += P[C_FALSE_WIN]
                    out[winner] -= P[C_FALSE_WIN]
            return 0
        for q in range(n):
            if q == winner:
                continue
            pay = P[C_SEAT_PAY]
            if self_drawn or q == discarder:
                pay += total
            out[q] -= pay
            out[winner] += pay
        return 0
    elif rules == RULES_TAIWAN:
        bonus = P[C_BONUS] + P[C_BONUS_STREAK] * streak
        for q in range(n):
            if q == winner:
                continue
            if not self_drawn and q != discarder:
                continue
            extra = 0
            if winner == dealer:
                extra = bonus
            elif q == dealer and (not self_drawn or P[C_BONUS_NONDEALER_TSUMO] != 0):
                extra = bonus
            pay = P[C_BASE] + P[C_UNIT] * (total + extra)
            out[q] -= pay
            out[winner] += pay
        return 0
    capped = min(total, P[C_FAN_CAP])
    mult = (1 << (capped - 1)) if capped >= 1 else 0
    pay = mult * P[C_BASE]
    got = 0
    for q in range(n):
        if q == winner:
            continue
        if not self_drawn and q != discarder and P[C_DISCARD_ALL] == 0:
            continue
        out[q] -= pay
        got += pay
    out[winner] += got
    return got


@kernel
def settle_win(P, winner, self_drawn, discarder, total, legal, dealer, streak, out):
    """One win settled alone (no other payment in the deal): :func:`settle_win_gross`,
    then the fee taken once from the winner's receipts."""
    got = settle_win_gross(P, winner, self_drawn, discarder, total, legal, dealer, streak, out)
    out[winner] -= fee(P, got)


@kernel
def settle_flower_win(P, winner, payer, out):
    """Taiwan's instant flower wins: ``payer`` >= 0, 七花搶第八花 (the 8th flower's holder
    pays); ``payer`` -1, 八花独占 (each other player pays). Returns the points."""
    n = P[C_PLAYERS]
    if payer >= 0:
        pay = P[C_BASE] + P[C_UNIT] * P[C_SEVEN_FL_POINTS]
        out[payer] -= pay
        out[winner] += pay
        return P[C_SEVEN_FL_POINTS]
    pay = P[C_BASE] + P[C_UNIT] * P[C_EIGHT_FL_POINTS]
    for q in range(n):
        if q != winner:
            out[q] -= pay
            out[winner] += pay
    return P[C_EIGHT_FL_POINTS]


@kernel
def settle_kong_gross(P, owner, kind, discarder, out):
    """Add one kong's payment before any fee to ``out`` (Tuidaohu / two-player; nothing
    elsewhere); returns what the owner received. ``kind`` 0 exposed (the discarder
    pays), 1 added, 2 concealed (each other pays)."""
    if P[C_KONG_OPEN] == 0 and P[C_KONG_ADDED] == 0 and P[C_KONG_CONCEALED] == 0:
        return 0
    n = P[C_PLAYERS]
    got = 0
    if kind == 0:
        amt = P[C_KONG_OPEN] * P[C_BASE]
        out[discarder] -= amt
        got = amt
    else:
        amt = (P[C_KONG_ADDED] if kind == 1 else P[C_KONG_CONCEALED]) * P[C_BASE]
        for q in range(n):
            if q != owner:
                out[q] -= amt
                got += amt
    out[owner] += got
    return got


@kernel
def settle_kong(P, owner, kind, discarder, out):
    """One kong payment settled alone: :func:`settle_kong_gross`, the fee taken once."""
    got = settle_kong_gross(P, owner, kind, discarder, out)
    out[owner] -= fee(P, got)


@kernel(error_model="numpy")
def taiwan_win_extras(P, totals, eight_flowers, seat, dealer, discarder, flags, streak,
                      bonus, gain):
    """A Taiwan batch's settlement columns, row by row: ``bonus`` the dealer bonus that
    applies to the win (the dealer won, or dealt in; 0 for 八花独占 and rows that are not
    a win) and ``gain`` what the winner receives, by :func:`settle_win_gross` (a discard
    win with no discarder given is settled as if the next player had discarded;
    八花独占 is paid by every other player, no bonus). ``totals`` the rows' tai (-1: not
    a win), ``eight_flowers`` their 八花独占 counts. (The bonus reported is the one
    :func:`settle_win_gross` adds to the payments of a dealer's win or deal-in.)"""
    n = P[C_PLAYERS]
    out = np.zeros(n, dtype=np.int64)
    for i in range(totals.shape[0]):
        tot = totals[i]
        bonus[i] = 0
        gain[i] = 0
        if tot < 0:
            continue
        s = seat[i]
        d = dealer[i]
        for q in range(n):
            out[q] = 0
        if eight_flowers[i] > 0:
            settle_win_gross(P, s, True, -1, tot, True, -1, 0, out)
        else:
            drawn = (flags[i] & SELF_DRAWN) != 0
            disc = discarder[i] if discarder[i] >= 0 else (s + 1) % n
            settle_win_gross(P, s, drawn, disc, tot, True, d, streak[i], out)
            if s == d or (not drawn and disc == d):
                bonus[i] = P[C_BONUS] + P[C_BONUS_STREAK] * streak[i]
        gain[i] = out[s]
