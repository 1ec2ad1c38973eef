"""Numba kernel: MCR (Chinese Official) scoring of batches of complete hands, and of every
wait of batches of ready hands (the drivers, parallel over chunks).

The pieces: :mod:`._mcr_fans` (the fan predicates, by TOML key), :mod:`._mcr_waits` (the
wait search), :mod:`._mcr_hand` (one hand: forms, divisions, exclusions, the best
reading). Fan ids are the table's ids (1..82); the per-hand result is a row of counts.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ..rules._profile import I_FLOWERS_TO_MIN, I_MINIMUM
from ._jit import kernel, python_function
from ._mcr_fans import (CONCEALED_KONG_AND_MELDED_KONG, F_FIRST_TURN, F_FOURTH_TILE,
                        F_KONG_REPLACEMENT, F_ROBBING_KONG, F_SELF_DRAWN, FLOWER_TILES, KNITTED,
                        N_FANS, PREDICATE_KEYS)
from ._mcr_hand import score_one
from ._mcr_waits import build_suit_table
from ._decompose import DIV_COLS, MAX_DIVISIONS  # noqa: E402

# integer division / modulo by constants only: no divide-by-zero checks needed


# score_one inlined (Numba IR inlining) into the batch loop: one call site, and the call
# itself -- some 25 arguments, most of them arrays passed field by field -- cost about as
# much as a tenth of a hand. The waits kernel keeps the plain call (two call sites).
_score_one_inline = kernel(inline="always", error_model="numpy")(python_function(score_one))


@kernel(error_model="numpy")
def _new_work():
    return np.zeros((10, 34), dtype=np.int64)


@kernel(error_model="numpy")
def _valid_row(counts, h, win, n_melds):
    """A row the kernel can score: winning tile held, counts 0..4, 14 tiles (melds as 3)."""
    if win < 0 or win >= 34 or counts[h, win] == 0:
        return False
    total = 0
    for t in range(34):
        if counts[h, t] > 4:
            return False
        total += counts[h, t]
    return total == 14 - 3 * n_melds


@kernel(error_model="numpy")
def _score_range(lo, hi, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                 prof, suit_tab, out_fans, out_total):
    points = prof[1]
    divbuf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    work = _new_work()
    c = np.zeros(34, dtype=np.int64)
    ft = np.zeros(N_FANS, dtype=np.int64)
    ftw = np.zeros(N_FANS, dtype=np.int64)
    wfans = np.zeros((MAX_DIVISIONS, N_FANS), dtype=np.int64)
    dscr = np.zeros((4, 8), dtype=np.int64)  # decomposer scratch (new_scratch())
    sc = np.zeros((16, MAX_DIVISIONS), dtype=np.int64)
    for h in range(lo, hi):
        # the per-hand scalars as int64 whatever the batch's types (the wrapper passes the
        # batch's own small types: no int64 copies; small unsigned types left as they are
        # would make the scorer's index arithmetic mixed-sign, measurably slower)
        w = np.int64(win[h])
        nm = np.int64(n_melds[h])
        tot = -1
        ok = w >= 0 and w < 34
        total = 0
        for t in range(34):
            v = np.int64(counts[h, t])
            c[t] = v
            total += v
            if v > 4:
                ok = False
        if ok and c[w] > 0 and total == 14 - 3 * nm:
            # the best table is written straight into the output row
            tot = _score_one_inline(c, w, melds[h], nm, np.int64(flags[h]), np.int64(seat[h]),
                                    np.int64(prevalent[h]), prof, out_fans[h], divbuf, work,
                                    ftw, wfans, dscr, sc, suit_tab)
        if tot < 0:
            out_total[h] = -1
            for f in range(N_FANS):
                out_fans[h, f] = 0
            continue
        nfl = np.int64(flowers[h])
        out_fans[h, FLOWER_TILES] = nfl
        out_total[h] = tot + nfl * points[FLOWER_TILES]


@kernel(parallel=True, error_model="numpy")
def score_batch_kernel(counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                       prof, suit_tab, out_fans, out_total, chunk):
    """Score N complete hands, chunks in parallel. ``out_fans`` (N, 83) int16 (column
    81 = flowers), ``out_total`` (N,) int32 (flowers included; -1 = not complete or not
    a valid row)."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        _score_range(lo, hi, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                     prof, suit_tab, out_fans, out_total)


@kernel(error_model="numpy")
def _waits_range(lo, hi, counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                 has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s, live):
    """Every winning tile of N ready hands (13 concealed-equivalent tiles, no winning tile).

    For each tile that completes the hand (and of which the player does not already hold
    all four): the total on a discard win and on a self-draw (flowers included), whether
    each is legal (>= minimum without flowers), and the live count (4 - own copies -
    visible copies). With ``visible``, 和绝张 holds when the three other copies are visible
    (the visible tiles and the player's own melds).
    """
    points = prof[1]
    minimum = prof[0][I_MINIMUM]
    f2m = prof[0][I_FLOWERS_TO_MIN] != 0
    divbuf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    work = _new_work()
    c = np.zeros(34, dtype=np.int64)
    own = np.zeros(34, dtype=np.int64)
    mc = np.zeros(34, dtype=np.int64)
    ft = np.zeros(N_FANS, dtype=np.int64)
    ftw = np.zeros(N_FANS, dtype=np.int64)
    wfans = np.zeros((MAX_DIVISIONS, N_FANS), dtype=np.int64)
    dscr = np.zeros((4, 8), dtype=np.int64)  # decomposer scratch (new_scratch())
    sc = np.zeros((16, MAX_DIVISIONS), dtype=np.int64)
    flower_pts = points[FLOWER_TILES]
    for h in range(lo, hi):
        for t in range(34):
            c[t] = counts[h, t]
            own[t] = counts[h, t]
            mc[t] = 0
        for j in range(n_melds[h]):
            kind = melds[h, j, 0]
            tile = melds[h, j, 1]
            if kind == 0:
                for d in range(3):
                    own[tile + d] += 1
                    mc[tile + d] += 1
            elif kind == 1:
                own[tile] += 3
                mc[tile] += 3
            else:
                own[tile] += 4
                mc[tile] += 4
        base = flags[h] & ~(F_SELF_DRAWN | F_FOURTH_TILE | F_KONG_REPLACEMENT | F_ROBBING_KONG)
        for t in range(34):
            wins[h, t] = False
            tot_d[h, t] = -1
            tot_s[h, t] = -1
            legal_d[h, t] = False
            legal_s[h, t] = False
            lv = 4 - own[t]
            if has_visible:
                lv -= visible[h, t]
            if lv < 0:
                lv = 0
            live[h, t] = lv
            if own[t] >= 4:
                continue
            fourth = 0
            if has_visible and visible[h, t] + mc[t] >= 3 and counts[h, t] == 0:
                fourth = F_FOURTH_TILE
            c[t] += 1
            fl_d = base | fourth | (flags[h] & F_ROBBING_KONG)
            td = score_one(c, t, melds[h], n_melds[h], fl_d, seat[h], prevalent[h], prof, ft,
                           divbuf, work, ftw, wfans, dscr, sc, suit_tab)
            if td >= 0:
                wins[h, t] = True
                tot_d[h, t] = td + flowers[h] * flower_pts
                legal_d[h, t] = td + (flowers[h] * flower_pts if f2m else 0) >= minimum
                fl_s = base | fourth | F_SELF_DRAWN | (flags[h] & F_KONG_REPLACEMENT)
                ts = score_one(c, t, melds[h], n_melds[h], fl_s, seat[h], prevalent[h], prof, ft,
                               divbuf, work, ftw, wfans, dscr, sc, suit_tab)
                tot_s[h, t] = ts + flowers[h] * flower_pts
                legal_s[h, t] = ts + (flowers[h] * flower_pts if f2m else 0) >= minimum
            c[t] -= 1


@kernel(parallel=True, error_model="numpy")
def score_waits_kernel(counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                       has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s,
                       live, chunk):
    """Every winning tile of N ready hands (13 tiles, melds as 3), chunks in parallel.

    For each tile that completes the hand (and of which the player does not already hold
    all four): the total on a discard win and on a self-draw (flowers included), whether
    each is legal (>= minimum without flowers), and the live count (4 - own copies -
    visible copies). With ``visible``, 和绝张 holds when the three other copies are visible
    (the visible tiles and the player's own melds)."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        _waits_range(lo, hi, counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                     has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s, live)


# the names other modules read from here (one definition each, in the modules above)
__all__ = ["score_batch_kernel", "score_waits_kernel", "score_one", "build_suit_table",
           "N_FANS", "FLOWER_TILES", "CONCEALED_KONG_AND_MELDED_KONG", "F_FIRST_TURN",
           "PREDICATE_KEYS", "KNITTED"]
