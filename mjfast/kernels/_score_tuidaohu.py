"""Numba kernel: Tuidaohu / two-player fan scoring, parametrised by the rule table.

The predicates are code (one per ``P_*`` constant below); which fan id each predicate
fills, the fan values, which rows are enabled and the exclusion graph are data passed in
as arrays (built by :mod:`mjfast.scoring.tuidaohu` from the TOML tables). A hand is read
every way :func:`divisions` allows and the highest total counts.

Arrays (F = highest fan id):
- ``prof``: the rule profile's arrays (:mod:`mjfast.rules._profile`): ``col`` the fan
  id (column) of each predicate (0 = none), ``points`` the values, the exclusion graph
  and switched-off rows (applied by the one exclusion kernel, :mod:`._exclude`)
- ``kong_vals`` int64[3]: units of base per kong (open, added, concealed) and
  ``n_players``: what the winner receives for the kongs of his hand
"""
from __future__ import annotations

import numpy as np

from ..rules import TUIDAOHU_KEYS
from ..rules import I_FORM_MASK, I_NCOLS
from ._jit import array_at, export, grid, kernel, ptr
from ._symbols import score_tuidaohu
from ._context import (C_KONG_ADDED, C_KONG_CONCEALED, C_KONG_OPEN, C_MINIMUM, C_PLAYERS,
                       R_COUNTS, R_DEALER, R_EXTRA, R_FLAGS, R_LEGAL, R_N_MELDS, R_SEAT,
                       R_TOTAL, X_NCOLS, as_rows, params_view, row_melds,
                       workspace_views, W_DIVBUF, W_DSCR, W_VEC, WS_COLS, X_DEC_AT, X_DEC_LEN,
                       X_FIELDS, X_LEN, X_WS_LEN)
from ._exclude import apply_exclusions_inline as apply_exclusions
from ._exclude import total_of_inline as total_of
from ._decompose import DIV_COLS, FORM_REGULAR, FORM_SEVEN_PAIRS, MAX_DIVISIONS, SET_PUNG
from ._suit_divisions import divisions_by_table

# predicate codes (the `key` column of the table)
P_WIN = 0
P_SELF_DRAWN = 1
P_CONCEALED = 2
P_KONG_REPLACEMENT = 3
P_LAST_TILE_DRAW = 4
P_ROBBING_KONG = 5
P_ALL_PUNGS = 6
P_SEVEN_PAIRS = 7
P_LUXURY_SEVEN_PAIRS = 8
P_HALF_FLUSH = 9
P_FULL_FLUSH = 10
P_ALL_HONORS = 11
P_BIG_THREE_DRAGONS = 12
P_LITTLE_FOUR_WINDS = 13
P_BIG_FOUR_WINDS = 14
P_HEAVENLY_HAND = 15
P_EARTHLY_HAND = 16
PREDICATE_KEYS = TUIDAOHU_KEYS
N_PRED = len(PREDICATE_KEYS)

# HandBatch flag and meld flag bits: defined once, in mjfast/hand.py
from ..hand import FIRST_TURN as _FIRST_TURN  # noqa: E402
from ..hand import KONG_REPLACEMENT as _KONG_REPLACEMENT  # noqa: E402
from ..hand import LAST_TILE as _LAST_TILE  # noqa: E402
from ..hand import MELD_ADDED as _MELD_ADDED  # noqa: E402
from ..hand import MELD_CONCEALED as _MELD_CONCEALED  # noqa: E402
from ..hand import ROBBING_KONG as _ROBBING_KONG  # noqa: E402
from ..hand import SELF_DRAWN as _SELF_DRAWN  # noqa: E402


@kernel(nrt=False)
def _set(hits, pred_col, p):
    col = pred_col[p]
    if col > 0:
        hits[col] = 1


@kernel(nrt=False)
def score_one(c_p, melds_p, n_melds, flags, seat, dealer, ctx_p, ws_p):
    """Score one complete hand. ``c_p`` the int64[34] concealed counts (winning tile
    included; restored), ``melds_p`` the [5, 4] melds, ``ctx_p`` / ``ws_p``: pointers
    (:func:`._jit.ptr`: one word each, where an array argument is seven or nine). Writes
    the best reading's fan counts into ``best`` and returns its total, or -1 when the
    hand is not complete. The views of the context and the workspace are made here (a
    few instructions each; as arguments they were a score of arrays passed field by
    field per hand); ``ws``'s ``vec`` rows are the hand-wide hits, the reading's hits and
    the best reading (read by the row entry)."""
    # the views of the context and the workspace, written out (the layouts of
    # kernels/_context.py: profile field k's words at X_FIELDS + 3k; W_* offsets): an
    # inlined view function is a Numba inlining pass over this large function at
    # compile time
    c = array_at(c_p, 34)
    melds = grid(array_at(melds_p, 20), np.int64, 5, 4)
    ctx = array_at(ctx_p, array_at(ctx_p, X_FIELDS)[X_LEN])
    ws = array_at(ws_p, ctx[X_WS_LEN])
    ints = ctx[ctx[X_FIELDS]:ctx[X_FIELDS] + ctx[X_FIELDS + 1]]
    values = ctx[ctx[X_FIELDS + 3]:ctx[X_FIELDS + 3] + ctx[X_FIELDS + 4]]
    reducers = ctx[ctx[X_FIELDS + 12]:ctx[X_FIELDS + 12] + ctx[X_FIELDS + 13]]
    red_t = ctx[ctx[X_FIELDS + 15]:ctx[X_FIELDS + 15] + ctx[X_FIELDS + 16]]
    red_n = ctx[ctx[X_FIELDS + 18]:ctx[X_FIELDS + 18] + ctx[X_FIELDS + 19]]
    red_unless = grid(ctx[ctx[X_FIELDS + 21]:], np.int64, ctx[X_FIELDS + 22], ctx[X_FIELDS + 23])
    pc = ctx[ctx[X_FIELDS + 24]:ctx[X_FIELDS + 24] + ctx[X_FIELDS + 25]]
    off = ctx[ctx[X_FIELDS + 30]:ctx[X_FIELDS + 30] + ctx[X_FIELDS + 31]]
    excluders = ctx[ctx[X_FIELDS + 33]:ctx[X_FIELDS + 33] + ctx[X_FIELDS + 34]]
    bits = grid(ctx[ctx[X_FIELDS + 36]:], np.int64, ctx[X_FIELDS + 37], ctx[X_FIELDS + 38])
    buf = grid(ws[W_DIVBUF:], np.int16, MAX_DIVISIONS, DIV_COLS)
    dscr = grid(ws[W_DSCR:], np.int64, 4, 8)
    vec = grid(ws[W_VEC:], np.int64, 4, WS_COLS)
    base = vec[0]
    hits = vec[1]
    best = vec[2]
    form_mask = ints[I_FORM_MASK]
    nm = n_melds
    tot = 0
    for i in range(34):
        tot += c[i]
    if nm < 0 or nm > 4 or tot != 14 - 3 * nm:
        return -1
    # the divisions, the regular ones from the per-suit table: the search's rows and order
    n = divisions_by_table(c, form_mask, buf, dscr,
                           ctx[ctx[X_DEC_AT]:ctx[X_DEC_AT] + ctx[X_DEC_LEN]])
    if n == 0:
        return -1
    F = ints[I_NCOLS]

    # ---- items that do not depend on the reading -----------------------------------
    suit_mask = 0           # bit 0..2 suits, bit 3 honors
    four = False
    for i in range(34):
        if c[i] > 0:
            suit_mask |= 1 << (i // 9 if i < 27 else 3)
            if c[i] == 4:
                four = True
    concealed = True
    n_kongs = 0
    meld_chows = 0
    meld_dragon_pungs = 0
    meld_wind_pungs = 0
    for j in range(nm):
        kind = melds[j, 0]
        t = melds[j, 1]
        if kind == 0:
            meld_chows += 1
            suit_mask |= 1 << (t // 9)
            concealed = False
            continue
        suit_mask |= 1 << (t // 9 if t < 27 else 3)
        if 27 <= t <= 30:
            meld_wind_pungs += 1
        elif t >= 31:
            meld_dragon_pungs += 1
        if kind == 2:
            n_kongs += 1
            if not (melds[j, 2] & _MELD_CONCEALED):
                concealed = False
        else:
            concealed = False
    self_drawn = (flags & _SELF_DRAWN) != 0
    n_suits = (suit_mask & 1) + ((suit_mask >> 1) & 1) + ((suit_mask >> 2) & 1)
    has_honors = (suit_mask & 8) != 0
    for k in range(F):
        base[k] = 0
    _set(base, pc, P_WIN)
    if self_drawn:
        _set(base, pc, P_SELF_DRAWN)
    if concealed:
        _set(base, pc, P_CONCEALED)
    if (flags & _KONG_REPLACEMENT) and self_drawn and n_kongs > 0:
        _set(base, pc, P_KONG_REPLACEMENT)
    if (flags & _LAST_TILE) and self_drawn:
        _set(base, pc, P_LAST_TILE_DRAW)
    if (flags & _ROBBING_KONG) and not self_drawn:
        _set(base, pc, P_ROBBING_KONG)
    if n_suits == 1 and has_honors:
        _set(base, pc, P_HALF_FLUSH)
    elif n_suits == 1:
        _set(base, pc, P_FULL_FLUSH)
    elif n_suits == 0:
        _set(base, pc, P_ALL_HONORS)
    if (flags & _FIRST_TURN) and self_drawn and nm == 0:
        if seat == dealer:
            _set(base, pc, P_HEAVENLY_HAND)
        else:
            _set(base, pc, P_EARTHLY_HAND)

    best_total = -1
    for r in range(n):
        for k in range(F):
            hits[k] = base[k]
        form = buf[r, 0]
        # ---- reading-dependent items ----------------------------------------------
        if form == FORM_SEVEN_PAIRS:
            if four:
                _set(hits, pc, P_LUXURY_SEVEN_PAIRS)
            _set(hits, pc, P_SEVEN_PAIRS)
        elif form == FORM_REGULAR:
            chows = meld_chows
            dragons = meld_dragon_pungs
            winds = meld_wind_pungs
            for s in range(buf[r, 2]):
                t = buf[r, 4 + 2 * s]
                if buf[r, 3 + 2 * s] == SET_PUNG:
                    if 27 <= t <= 30:
                        winds += 1
                    elif t >= 31:
                        dragons += 1
                else:
                    chows += 1
            pair = buf[r, 1]
            if chows == 0:
                _set(hits, pc, P_ALL_PUNGS)
            if dragons == 3:
                _set(hits, pc, P_BIG_THREE_DRAGONS)
            if winds == 4:
                _set(hits, pc, P_BIG_FOUR_WINDS)
            elif winds == 3 and 27 <= pair <= 30:
                _set(hits, pc, P_LITTLE_FOUR_WINDS)
        # ---- exclusions (the one exclusion kernel; switched-off rows dropped) ---------
        apply_exclusions(hits, excluders, reducers, red_t, red_n, red_unless, off, 0, bits)
        total = total_of(hits, values)
        if total > best_total:
            best_total = total
            for k in range(F):
                best[k] = hits[k]
    return best_total


# reasons of validate_rows (codes -> messages in mjfast.scoring.tuidaohu)
BAD_OK = 0
BAD_TILE_SET = 1
BAD_MELD_TILE = 2
BAD_CHOW = 3
BAD_CLAIMED_CHOW = 4
BAD_OVER_FOUR = 5
BAD_MELD_COUNT = 6


@kernel
def validate_rows(counts, melds, n_melds, kinds_mask, chow_ok):
    """First invalid row of a batch and why: (row, BAD_* code); (-1, BAD_OK) when all
    rows are fine. Checks the tile set, meld tiles, chows, at most 4 copies (melds included)."""
    N = counts.shape[0]
    held = np.zeros(34, dtype=np.int64)
    for h in range(N):
        for i in range(34):
            held[i] = counts[h, i]
            if counts[h, i] > 0 and not kinds_mask[i]:
                return h, BAD_TILE_SET
        nm = n_melds[h]
        if nm > melds.shape[1]:
            return h, BAD_MELD_COUNT
        for j in range(nm):
            kind = melds[h, j, 0]
            t = melds[h, j, 1]
            if kind < 0:
                continue
            if t < 0 or t >= 34 or kind > 2:
                return h, BAD_MELD_TILE
            if kind == 0:
                if not chow_ok:
                    return h, BAD_CLAIMED_CHOW
                if t >= 27 or t % 9 > 6:
                    return h, BAD_CHOW
                for d in range(3):
                    if not kinds_mask[t + d]:
                        return h, BAD_MELD_TILE
                    held[t + d] += 1
            else:
                if not kinds_mask[t]:
                    return h, BAD_MELD_TILE
                held[t] += 4 if kind == 2 else 3
        for i in range(34):
            if held[i] > 4:
                return h, BAD_OVER_FOUR
    return -1, BAD_OK


# ---------------------------------------------------------------------------------------
# the row entry: the one compiled Tuidaohu / two-player scorer (symbol score_tuidaohu)
# ---------------------------------------------------------------------------------------
@kernel(inline="always")
def score_row(row, fans, ctx, ws, ncols, P, vec, c):
    """Score hand row ``row`` (:mod:`._context`) into ``fans`` by fan id; the fan total
    before the cap, -1 when not complete; ``row[R_EXTRA]`` the kong units the winner
    receives in all (units of base); ``P`` the parameter block."""
    for t in range(34):
        c[t] = row[R_COUNTS + t]
    melds = row_melds(row)
    nm = row[R_N_MELDS]
    total = score_one(ptr(c), ptr(melds), nm, row[R_FLAGS], row[R_SEAT], row[R_DEALER], ptr(ctx),
                      ptr(ws))
    best = vec[2]
    for f in range(ncols):
        fans[f] = best[f] if total >= 0 else 0
    row[R_TOTAL] = total
    row[R_LEGAL] = 1 if total >= 0 and total >= P[C_MINIMUM] else 0
    row[R_EXTRA] = 0
    if total >= 0:
        n_players = P[C_PLAYERS]
        u = 0
        for j in range(nm):
            if melds[j, 0] != 2:
                continue
            fl = melds[j, 2]
            if fl & _MELD_CONCEALED:
                u += P[C_KONG_CONCEALED] * (n_players - 1)
            elif fl & _MELD_ADDED:
                u += P[C_KONG_ADDED] * (n_players - 1)
            else:
                u += P[C_KONG_OPEN]
        row[R_EXTRA] = u
    return total


@kernel(nrt=False)
def _score_block(rows, fans, n, ctx, ws, ncols, P, vec, c):
    """The row loop, compiled without reference counting (see the MCR scorer's)."""
    for i in range(n):
        score_row(rows[i], fans[i], ctx, ws, ncols, P, vec, c)


@export(score_tuidaohu)
def score_tuidaohu_c(ctx_p, ws_p, rows_p, n, fans_p):
    """Score ``n`` hand rows (see :mod:`._symbols`): the views of the context and the
    workspace are made once, then each row is scored."""
    ctx, ws, rows, fans = as_rows(ctx_p, ws_p, rows_p, n, fans_p)
    P = params_view(ctx)
    ncols = ctx[X_NCOLS]
    _divbuf, _work, _ft, _wfans, _sc, _dscr, _place, vec, c = workspace_views(ws)
    _score_block(rows, fans, n, ctx, ws, ncols, P, vec, c)
    return n
