"""Compiled single-hand scoring entry points, callable from other Numba code.

One function per rule set, the same signature for all four rule sets, plus
:func:`score_hand` that dispatches on the profile (it compiles every scorer: call the
per-rule-set function when the rule set is known)::

    total, legal = score_hand_mcr(c, melds, n_melds, win, flags, seat, prevalent, dealer,
                                  discarder, streak, table_discards, flowers,
                                  prof, ws, out_fans)

- ``c`` int64[34]: concealed counts *including* the winning tile (left unchanged);
- ``melds`` int8[5, 4]: rows ``[kind (-1 none, 0 chow, 1 pung, 2 kong), lowest tile,
  flags (1 concealed | 2 added), claimed_from]`` as :class:`~mjfast.hand.HandBatch`;
- scalars int64: ``n_melds``, ``win`` (winning tile 0..33), ``flags`` (HandBatch bits:
  SELF_DRAWN 1, FOURTH_TILE 2, LAST_TILE 4, KONG_REPLACEMENT 8, ROBBING_KONG 16,
  ORIGINAL_READY 32, FIRST_TURN 64), ``seat``, ``prevalent``, ``dealer`` (winds 0..3),
  ``discarder`` (-1 none), ``streak``, ``table_discards`` (-1 not known), ``flowers``
  (count);
- ``prof``: ``get_profile(rules, variant).kernel_args()`` (:mod:`mjfast.rules._profile`);
- ``ws``: a workspace from :func:`workspace` (one per thread; reused for every call);
- ``out_fans`` int64[prof n_cols] (column = fan id): the scoring fans' counts.

Returns ``(total, legal)``: the total as ``score_batch`` reports it (MCR points with
flowers, Taiwan tai without the dealer bonus, Tuidaohu fan before the cap), -1 when the
hand is not complete (``out_fans`` all 0 then), and whether it is a legal win (MCR: 8
points without flowers). The inputs are trusted (no checks beyond completeness): the
batch wrappers validate user input.
"""
from __future__ import annotations

import functools

import numpy as np

from ..rules._profile import (CODE_MCR, CODE_TAIWAN, I_CODE, I_FLOWER_COL,
                              I_FLOWERS_TO_MIN, I_MINIMUM, I_NCOLS)
from . import _score_mcr as _mcr
from . import _score_taiwan as _tw
from . import _score_tuidaohu as _td
from ._jit import kernel
from ._decompose import DIV_COLS, MAX_DIVISIONS

from ..hand import FIRST_TURN as _F_FIRST_TURN  # noqa: E402  (flag bits: one definition)
WS_FIELDS = ("divbuf", "work", "ft", "wfans", "sc", "dscr", "place", "vec", "c", "suit_tab")


@functools.lru_cache(maxsize=None)
def suit_table() -> np.ndarray:
    """The MCR wait test's per-suit completeness table (5**9 codes, built once, ~0.2 s)."""
    return _mcr.build_suit_table()


@kernel
def new_workspace(prof, suit_tab):
    """Scratch arrays for one thread's calls (``suit_tab``: :func:`suit_table`, shared)."""
    n = max(prof[0][I_NCOLS], _mcr.N_FANS, _tw.K, 64)
    return (np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16),
            np.zeros((10, 34), dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros((MAX_DIVISIONS, n), dtype=np.int64),
            np.zeros((16, MAX_DIVISIONS), dtype=np.int64),
            np.zeros((4, 8), dtype=np.int64),
            np.zeros((8, 2), dtype=np.int16),
            np.zeros((4, n), dtype=np.int64),
            np.zeros(34, dtype=np.int64),
            suit_tab)


def workspace(prof) -> tuple:
    """A workspace for ``prof`` (Python side; the MCR wait table is built once)."""
    tab = suit_table() if prof[0][I_CODE] == CODE_MCR else np.zeros(1, dtype=np.uint8)
    return new_workspace(prof, tab)


@kernel
def _clear(out_fans, n):
    for f in range(n):
        out_fans[f] = 0


@kernel
def score_hand_mcr(c, melds, n_melds, win, flags, seat, prevalent, dealer, discarder, streak,
                   table_discards, flowers, prof, ws, out_fans):
    """One MCR hand (see the module docstring)."""
    ints = prof[0]
    points = prof[1]
    n = ints[I_NCOLS]
    _clear(out_fans, n)
    total = 0
    ok = win >= 0 and win < 34 and n_melds >= 0 and n_melds <= 4
    if ok:
        for t in range(34):
            if c[t] < 0 or c[t] > 4:
                ok = False
            total += c[t]
    if not ok or c[win] == 0 or total != 14 - 3 * n_melds:
        return -1, False
    fl = flags
    if not (seat == dealer and n_melds == 0):
        fl &= ~_F_FIRST_TURN     # the heavenly hand: the dealer's concealed self-draw only
    tot = _mcr.score_one(c, win, melds, n_melds, fl, seat, prevalent, prof, out_fans, ws[0],
                         ws[1], ws[2], ws[3], ws[5], ws[4], ws[9])
    if tot < 0:
        _clear(out_fans, n)
        return -1, False
    fc = ints[I_FLOWER_COL]
    out_fans[fc] = flowers
    with_flowers = tot + flowers * points[fc]
    counted = with_flowers if ints[I_FLOWERS_TO_MIN] != 0 else tot
    return with_flowers, counted >= ints[I_MINIMUM]


@kernel
def score_hand_taiwan(c, melds, n_melds, win, flags, seat, prevalent, dealer, discarder,
                      streak, table_discards, flowers, prof, ws, out_fans):
    """One Taiwan hand (see the module docstring); 8 flowers score 八花独占 alone."""
    n = prof[0][I_NCOLS]
    vec = ws[7]
    total = _tw.score_one(c, win, melds, n_melds, flowers, flags, seat, dealer, discarder,
                          table_discards, prof, ws[0], ws[5], ws[6], vec[0], vec[1], vec[2],
                          vec[3])
    for f in range(n):
        out_fans[f] = vec[2, f] if total >= 0 else 0
    return total, total >= 0


@kernel
def score_hand_tuidaohu(c, melds, n_melds, win, flags, seat, prevalent, dealer, discarder,
                        streak, table_discards, flowers, prof, ws, out_fans):
    """One Tuidaohu or two-player hand (the profile says which; see the module docstring)."""
    n = prof[0][I_NCOLS]
    vec = ws[7]
    total = _td.score_one(c, melds, n_melds, flags, seat, dealer, prof, ws[0], vec[0], vec[1],
                          vec[2])
    for f in range(n):
        out_fans[f] = vec[2, f] if total >= 0 else 0
    return total, total >= 0 and total >= prof[0][I_MINIMUM]


@kernel
def score_hand(c, melds, n_melds, win, flags, seat, prevalent, dealer, discarder, streak,
               table_discards, flowers, prof, ws, out_fans):
    """Any rule set: dispatches on ``prof`` (compiles the three scorers)."""
    code = prof[0][I_CODE]
    if code == CODE_MCR:
        return score_hand_mcr(c, melds, n_melds, win, flags, seat, prevalent, dealer,
                              discarder, streak, table_discards, flowers, prof, ws, out_fans)
    if code == CODE_TAIWAN:
        return score_hand_taiwan(c, melds, n_melds, win, flags, seat, prevalent, dealer,
                                 discarder, streak, table_discards, flowers, prof, ws, out_fans)
    return score_hand_tuidaohu(c, melds, n_melds, win, flags, seat, prevalent, dealer,
                               discarder, streak, table_discards, flowers, prof, ws, out_fans)


__all__ = ["score_hand", "score_hand_mcr", "score_hand_taiwan", "score_hand_tuidaohu",
           "new_workspace", "workspace", "suit_table", "WS_FIELDS"]
