"""Numba kernel: Taiwan 16-tile (mahjchina table) tai scoring of complete hands and waits.

The predicates work in *key space*: one column per predicate key (``KEYS``, the names
used in ``mjfast/rules/taiwan.toml``, defined in :mod:`mjfast.rules._keys`). Every other
number is the rule profile's (``prof``, :mod:`mjfast.rules._profile`): the key counts are
moved to fan-id columns (``col``) and the one exclusion kernel (:mod:`._exclude`) applies
the table's exclusion graph and switched-off rows; ``ints`` holds the very-early /
early table-discard limits.

For every division of the concealed tiles (the per-suit table's, ``_suit_divisions``, in
the order of the search ``_decompose.divisions``, which is what a suit of five sets
takes) and every placement
of the winning tile in it (``_decompose.wait_placements``) the kernel computes the raw
item counts, applies the exclusion graph and keeps the highest total ("highest reading
wins"). Totals are in tai and exclude the dealer bonus (a settlement matter).
"""
from __future__ import annotations

import numpy as np

from ..rules import TAIWAN_KEYS
from ..rules import I_EARLY, I_NCOLS, I_VERY_EARLY
from ._jit import array_at, export, grid, kernel, ptr
from ._symbols import score_taiwan
from ._context import (R_COUNTS, R_DEALER, R_DISCARDER, R_EXTRA, R_FLAGS, R_FLOWERS, R_LEGAL,
                       R_N_MELDS, R_SEAT, R_TABLE_DISCARDS, R_TOTAL, R_WIN, X_NCOLS, as_rows,
                       W_DIVBUF, W_DSCR, W_PLACE, W_VEC, WS_COLS, X_DEC_AT, X_DEC_LEN,
                       X_FIELDS, X_LEN, X_WS_LEN, profile_views,
                       row_melds, workspace_views)
from ._suit_divisions import divisions_by_table
from ._exclude import apply_exclusions_inline as apply_exclusions
from ._exclude import total_of_inline as total_of
from ._decompose import (DIV_COLS, FORM_REGULAR, FORM_SEVEN_PAIRS_TRIPLET, MAX_DIVISIONS,
                         SET_PUNG, WAIT_CLOSED, WAIT_EDGE, WAIT_SINGLE, wait_placements)

KEYS = TAIWAN_KEYS
K = len(KEYS)
(K_WIN, K_NO_FLOWERS, K_FLOWERS, K_HONOR_PUNG, K_OPEN_KONG, K_CONCEALED_KONG,
 K_CONC_SELF_DRAW, K_CONC_HAND, K_SELF_DRAW, K_ALL_CALLED, K_SINGLE, K_CLOSED_EDGE,
 K_NO_HONORS, K_NO_HONORS_NO_FLOWERS, K_HALF_FLUSH, K_FULL_FLUSH, K_SPT, K_ALL_CHOWS,
 K_PURE_ALL_CHOWS, K_ALL_PUNGS, K_SMALL_DRAGONS, K_BIG_DRAGONS, K_SMALL_THREE_WINDS,
 K_THREE_WINDS, K_SMALL_FOUR_WINDS, K_BIG_FOUR_WINDS, K_CP2, K_CP3, K_CP4, K_CP5,
 K_STRAIGHT, K_CONC_STRAIGHT, K_LAST_DRAW, K_LAST_DISCARD, K_ROB_KONG, K_VERY_EARLY,
 K_EARLY, K_ORIGINAL_READY, K_HEAVENLY, K_EARTHLY, K_SEVEN_FLOWERS,
 K_EIGHT_FLOWERS) = range(K)

# HandBatch.flags bits: defined once, in mjfast/hand.py
from ..hand import FIRST_TURN as F_FIRST_TURN  # noqa: E402
from ..hand import LAST_TILE as F_LAST_TILE  # noqa: E402
from ..hand import ORIGINAL_READY as F_ORIGINAL_READY  # noqa: E402
from ..hand import ROBBING_KONG as F_ROBBING_KONG  # noqa: E402
from ..hand import SELF_DRAWN as F_SELF_DRAWN  # noqa: E402

FORM_MASK = (1 << FORM_REGULAR) | (1 << FORM_SEVEN_PAIRS_TRIPLET)
WORK_SIZE = 64


@kernel(nrt=False, forceinline=True)
def _apply(hits, ctx, kept):
    """The key-space counts ``hits`` as fan-id counts in ``kept`` (``WS_COLS`` long), after
    the exclusion graph (:mod:`._exclude`). Returns the total (sum of kept count x
    points). The profile's views are made here (a few instructions each): passing them
    was a dozen arrays, field by field, per reading. Inlined by LLVM into its callers
    (a call per placement passed three arrays, field by field)."""
    (_ints, points, _topo, _excl, reducers, red_t, red_n, red_unless,
     col, _live, off, excluders, bits) = profile_views(ctx)
    for f in range(WS_COLS):
        # every column (a fixed count: stores in place, where the table's column count
        # was a call to memset per placement)
        kept[f] = 0
    for k in range(K):
        if col[k] > 0:
            kept[col[k]] = hits[k]
    apply_exclusions(kept, excluders, reducers, red_t, red_n, red_unless, off, 0, bits)
    return total_of(kept, points)


# inlined (Numba IR inlining) at its call sites: called through a function boundary, the
# profile tuple and the scratch arrays go field by field (well over a hundred scalar
# arguments), which made the batch kernel about 1.7x slower than the same code inlined
@kernel(inline="always")
def _best_reading(c, wt, melds, nm, nflow, fl, seat, dealer, discarder, td,
                  ctx, ints, divbuf, n_div, place, hits, kept, best, work):
    """Highest total over the divisions ``divbuf[:n_div]``; ``best`` gets its item counts.
    Returns the total, or -1 when no division is a complete 5-set (or special) hand.
    ``work`` is int64 scratch of at least ``WORK_SIZE``."""
    ncols = ints[I_NCOLS]
    for f in range(ncols):
        best[f] = 0
    self_drawn = (fl & F_SELF_DRAWN) != 0

    # ---- hand-wide facts (the same in every reading) ----
    n_called = 0
    open_k = 0
    conc_k = 0
    m_honor = 0
    m_wind = 0
    m_dragon = 0
    m_pungs = 0
    m_chows = 0
    suit_seen = work[0:4]
    called_chow = work[4:31]
    conc_chow = work[31:58]
    for i in range(58):
        work[i] = 0
    # which suits and whether honors are held, without a branch per tile (which tiles a
    # hand holds is unpredictable): an OR of each group's counts
    held0 = 0
    held1 = 0
    held2 = 0
    held3 = 0
    for r in range(9):
        held0 |= c[r]
        held1 |= c[9 + r]
        held2 |= c[18 + r]
    for t in range(27, 34):
        held3 |= c[t]
    suit_seen[0] = np.int64(held0 != 0)
    suit_seen[1] = np.int64(held1 != 0)
    suit_seen[2] = np.int64(held2 != 0)
    suit_seen[3] = np.int64(held3 != 0)
    for j in range(nm):
        # no branch on the meld's kind or tile (unpredictable)
        kind = melds[j, 0]
        t = melds[j, 1]
        chow = np.int64(kind == 0)
        kong = np.int64(kind == 2)
        concealed_kong = kong & (melds[j, 2] & 1)
        honor = (1 - chow) & np.int64(t >= 27)
        suit_seen[min(t // 9, 3)] = 1
        m_chows += chow
        called_chow[min(t, 26)] |= chow          # (a pung's tile: or-ing 0)
        m_pungs += 1 - chow
        m_honor += honor
        m_wind += honor & np.int64(t <= 30)
        m_dragon += honor & np.int64(t > 30)
        conc_k += concealed_kong
        open_k += kong - concealed_kong
        n_called += 1 - concealed_kong
    n_suits = suit_seen[0] + suit_seen[1] + suit_seen[2]
    honors = suit_seen[3] > 0

    for k in range(K):
        hits[k] = 0
    hits[K_WIN] = 1
    if nflow == 0:
        hits[K_NO_FLOWERS] = 1
    hits[K_FLOWERS] = nflow
    hits[K_OPEN_KONG] = open_k
    hits[K_CONCEALED_KONG] = conc_k
    # (the hand's facts as 0 / 1, no branch: a hand's are unpredictable)
    drawn = np.int64(self_drawn)
    closed = np.int64(n_called == 0)
    no_honors = 1 - np.int64(honors)
    one_suit = np.int64(n_suits == 1)
    hits[K_CONC_SELF_DRAW] = closed & drawn
    hits[K_CONC_HAND] = closed & (1 - drawn)
    hits[K_SELF_DRAW] = drawn
    hits[K_ALL_CALLED] = (1 - drawn) & np.int64(n_called == 5)
    hits[K_NO_HONORS] = no_honors
    hits[K_NO_HONORS_NO_FLOWERS] = no_honors & np.int64(nflow == 0)
    hits[K_HALF_FLUSH] = one_suit & (1 - no_honors)
    hits[K_FULL_FLUSH] = one_suit & no_honors
    if fl & F_LAST_TILE:
        if self_drawn:
            hits[K_LAST_DRAW] = 1
        else:
            hits[K_LAST_DISCARD] = 1
    if fl & F_ROBBING_KONG:
        hits[K_ROB_KONG] = 1
    if td >= 0:
        if td <= ints[I_VERY_EARLY]:
            hits[K_VERY_EARLY] = 1
        if td <= ints[I_EARLY]:
            hits[K_EARLY] = 1
    if (fl & F_ORIGINAL_READY) and n_called == 0:
        hits[K_ORIGINAL_READY] = 1
    # 天和: the dealer's dealt hand (first turn, or no discard yet on the table);
    # 地和: a non-dealer on the dealer's first discard (first turn, or exactly one discard
    # on the table); neither after a call or a kong by the winner.
    first = (fl & F_FIRST_TURN) != 0
    if nm == 0:
        if self_drawn and seat == dealer and (first or td == 0) and (td <= 0):
            hits[K_HEAVENLY] = 1
        if (not self_drawn) and seat != dealer and (discarder < 0 or discarder == dealer) \
                and ((first and td < 0) or td == 1):
            hits[K_EARTHLY] = 1

    best_total = -1
    for r in range(n_div):
        form = divbuf[r, 0]
        # reading-dependent items start from zero each time
        hits[K_HONOR_PUNG] = m_honor
        hits[K_SINGLE] = 0
        hits[K_CLOSED_EDGE] = 0
        hits[K_SPT] = 0
        hits[K_ALL_CHOWS] = 0
        hits[K_PURE_ALL_CHOWS] = 0
        hits[K_ALL_PUNGS] = 0
        hits[K_SMALL_DRAGONS] = 0
        hits[K_BIG_DRAGONS] = 0
        hits[K_SMALL_THREE_WINDS] = 0
        hits[K_THREE_WINDS] = 0
        hits[K_SMALL_FOUR_WINDS] = 0
        hits[K_BIG_FOUR_WINDS] = 0
        hits[K_CP2] = 0
        hits[K_CP3] = 0
        hits[K_CP4] = 0
        hits[K_CP5] = 0
        hits[K_STRAIGHT] = 0
        hits[K_CONC_STRAIGHT] = 0
        if form == FORM_SEVEN_PAIRS_TRIPLET:
            if nm != 0:
                continue
            hits[K_SPT] = 1
            if divbuf[r, 13] >= 27:
                hits[K_HONOR_PUNG] = 1
            total = _apply(hits, ctx, kept)
            if total > best_total:
                best_total = total
                for f in range(ncols):
                    best[f] = kept[f]
            continue
        if form != FORM_REGULAR:
            continue
        n_sets = divbuf[r, 2]
        if n_sets + nm != 5:
            continue
        pair = divbuf[r, 1]
        r_pungs = 0
        r_chows = 0
        wind_p = m_wind
        dragon_p = m_dragon
        for i in range(27):
            conc_chow[i] = 0
        honor_p = 0
        for i in range(n_sets):
            # no branch on the set's kind or tile (unpredictable)
            t = divbuf[r, 4 + 2 * i]
            pung = np.int64(divbuf[r, 3 + 2 * i] == SET_PUNG)
            honor = pung & np.int64(t >= 27)
            r_pungs += pung
            r_chows += 1 - pung
            honor_p += honor
            wind_p += honor & np.int64(t <= 30)
            dragon_p += honor & np.int64(t > 30)
            conc_chow[min(t, 26)] |= 1 - pung       # (a pung's tile: or-ing 0)
        hits[K_HONOR_PUNG] += honor_p
        if r_pungs + m_pungs == 0:
            hits[K_ALL_CHOWS] = 1
            if pair < 27 and nflow == 0:
                hits[K_PURE_ALL_CHOWS] = 1
        if r_chows + m_chows == 0:
            hits[K_ALL_PUNGS] = 1
        if dragon_p == 3:
            hits[K_BIG_DRAGONS] = 1
        if dragon_p == 2 and pair >= 31:
            hits[K_SMALL_DRAGONS] = 1
        pair_wind = pair >= 27 and pair <= 30
        if wind_p == 4:
            hits[K_BIG_FOUR_WINDS] = 1
        if wind_p == 3:
            hits[K_THREE_WINDS] = 1
            if pair_wind:
                hits[K_SMALL_FOUR_WINDS] = 1
        if wind_p >= 2 and pair_wind:
            hits[K_SMALL_THREE_WINDS] = 1
        for s in range(3):
            b = 9 * s
            if conc_chow[b] > 0 and conc_chow[b + 3] > 0 and conc_chow[b + 6] > 0:
                hits[K_CONC_STRAIGHT] = 1
                hits[K_STRAIGHT] = 1
            elif conc_chow[b] + called_chow[b] > 0 and conc_chow[b + 3] + called_chow[b + 3] > 0 \
                    and conc_chow[b + 6] + called_chow[b + 6] > 0:
                hits[K_STRAIGHT] = 1
        n_place = wait_placements(divbuf[r], wt, place)
        for q in range(n_place):
            slot = place[q, 0]
            shape = place[q, 1]
            hits[K_SINGLE] = 1 if shape == WAIT_SINGLE else 0
            hits[K_CLOSED_EDGE] = 1 if (shape == WAIT_CLOSED or shape == WAIT_EDGE) else 0
            cp = r_pungs + conc_k
            if (not self_drawn) and slot >= 0 and divbuf[r, 3 + 2 * slot] == SET_PUNG:
                cp -= 1  # a pung completed by the discard is not concealed
            hits[K_CP2] = 1 if cp >= 2 else 0
            hits[K_CP3] = 1 if cp >= 3 else 0
            hits[K_CP4] = 1 if cp >= 4 else 0
            hits[K_CP5] = 1 if cp >= 5 else 0
            total = _apply(hits, ctx, kept)
            if total > best_total:
                best_total = total
                for f in range(ncols):
                    best[f] = kept[f]
    return best_total


@kernel(nrt=False)
def _eight_flowers(ctx, hits, kept, best):
    for k in range(K):
        hits[k] = 0
    hits[K_EIGHT_FLOWERS] = 1
    total = _apply(hits, ctx, kept)
    for f in range(profile_views(ctx)[0][I_NCOLS]):
        best[f] = kept[f]
    return total


@kernel(nrt=False)
def score_one(c_p, wt, melds_p, nm, nflow, fl, seat, dealer, discarder, td, ctx_p, ws_p):
    """One hand: the highest reading's total (tai, -1 = not complete); ``best`` gets its
    fan-id counts. ``c_p`` the int64[34] counts with the winning tile (restored),
    ``melds_p`` the [5, 4] melds, ``ctx_p`` / ``ws_p`` the context and the workspace, all
    as pointers (:func:`._jit.ptr`: one word each, where an array argument is seven or
    nine); 8 flowers score 八花独占 alone when it is on. The views of the context and the
    workspace are made here (a few instructions each; as arguments they were two dozen
    arrays passed field by field per hand); ``ws``'s ``vec`` rows are the key counts, the
    kept counts, the best reading (read by the row entry) and scratch."""
    # the views of the context and the workspace, written out (the layouts of
    # kernels/_context.py: profile field k's words at X_FIELDS + 3k; W_* offsets): an
    # inlined view function is a Numba inlining pass over this large function at
    # compile time
    c = array_at(c_p, 34)
    melds = grid(array_at(melds_p, 20), np.int64, 5, 4)
    ctx = array_at(ctx_p, array_at(ctx_p, X_FIELDS)[X_LEN])
    ws = array_at(ws_p, ctx[X_WS_LEN])
    ints = ctx[ctx[X_FIELDS]:ctx[X_FIELDS] + ctx[X_FIELDS + 1]]
    col = ctx[ctx[X_FIELDS + 24]:ctx[X_FIELDS + 24] + ctx[X_FIELDS + 25]]
    live = ctx[ctx[X_FIELDS + 27]:ctx[X_FIELDS + 27] + ctx[X_FIELDS + 28]]
    divbuf = grid(ws[W_DIVBUF:], np.int16, MAX_DIVISIONS, DIV_COLS)
    st = grid(ws[W_DSCR:], np.int64, 4, 8)
    place = grid(ws[W_PLACE:], np.int16, 8, 2)
    vec = grid(ws[W_VEC:], np.int64, 4, WS_COLS)
    hits = vec[0]
    kept = vec[1]
    best = vec[2]
    work = vec[3]
    if nflow >= 8 and live[col[K_EIGHT_FLOWERS]] != 0:
        return _eight_flowers(ctx, hits, kept, best)
    if wt < 0 or wt >= 34:
        return -1
    # the divisions, the regular ones from the per-suit table (seven pairs and a pung
    # needs 17 concealed tiles: with a meld, the regular form only)
    n = divisions_by_table(c, FORM_MASK if nm == 0 else 1 << FORM_REGULAR, divbuf, st,
                           ctx[ctx[X_DEC_AT]:ctx[X_DEC_AT] + ctx[X_DEC_LEN]])
    return _best_reading(c, wt, melds, nm, nflow, fl, seat, dealer, discarder, td, ctx, ints,
                         divbuf, n, place, hits, kept, best, work)


# ---------------------------------------------------------------------------------------
# the row entry: the one compiled Taiwan scorer every caller reaches (symbol score_taiwan)
# ---------------------------------------------------------------------------------------
@kernel(inline="always")
def score_row(row, fans, ctx, ws, ncols, vec, c):
    """Score hand row ``row`` (:mod:`._context`) into ``fans`` by fan id; the tai total
    without the dealer bonus, -1 when not complete (8 flowers score 八花独占 alone)."""
    for t in range(34):
        c[t] = row[R_COUNTS + t]
    total = score_one(ptr(c), row[R_WIN], ptr(row_melds(row)), row[R_N_MELDS], row[R_FLOWERS],
                      row[R_FLAGS], row[R_SEAT], row[R_DEALER], row[R_DISCARDER],
                      row[R_TABLE_DISCARDS], ptr(ctx), ptr(ws))
    best = vec[2]
    for f in range(ncols):
        fans[f] = best[f] if total >= 0 else 0
    row[R_TOTAL] = total
    row[R_LEGAL] = 1 if total >= 0 else 0
    row[R_EXTRA] = 0
    return total


@kernel(nrt=False)
def _score_block(rows, fans, n, ctx, ws, ncols, vec, c):
    """The row loop, compiled without reference counting (see the MCR scorer's)."""
    for i in range(n):
        score_row(rows[i], fans[i], ctx, ws, ncols, vec, c)


@export(score_taiwan)
def score_taiwan_c(ctx_p, ws_p, rows_p, n, fans_p):
    """Score ``n`` hand rows (see :mod:`._symbols`): the views of the context and the
    workspace are made once, then each row is scored."""
    ctx, ws, rows, fans = as_rows(ctx_p, ws_p, rows_p, n, fans_p)
    ncols = ctx[X_NCOLS]
    _divbuf, _work, _ft, _wfans, _sc, _st, _place, vec, c = workspace_views(ws)
    _score_block(rows, fans, n, ctx, ws, ncols, vec, c)
    return n
