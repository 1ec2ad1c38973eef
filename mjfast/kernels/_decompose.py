"""Numba kernel: every division of a complete hand's concealed part.

A division is one row of ``DIV_COLS`` int16::

    [0] form (FORM_* code)       [1] pair tile (-1 none)     [2] number of sets in the row
    [3 + 2i] set kind (0 chow, 1 pung)   [4 + 2i] set tile (chow: lowest tile), i < 5
    [13] extra: knitted-straight permutation 0..5 (or -1); Taiwan triplet tile (or -1)

Called melds are not in the rows (they are fixed); a regular row holds the sets made of
concealed tiles. Seven pairs / thirteen orphans / honors-and-knitted rows carry only the
form (their tiles are the counts). These functions are ``njit`` and are called from the
scorer and shanten kernels as well as from :func:`decompose_batch`.
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel


from ..rules.registry import (FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT, FORM_REGULAR,  # noqa: F401
                              FORM_SEVEN_PAIRS, FORM_SEVEN_PAIRS_TRIPLET,
                              FORM_THIRTEEN_ORPHANS)

# form bitmask bits (1 << FORM_*)
DIV_COLS = 14
MAX_DIVISIONS = 256   # per hand; far above the most a 17-tile hand has

SET_CHOW = 0
SET_PUNG = 1

WAIT_TWO_SIDED = 0
WAIT_CLOSED = 1
WAIT_EDGE = 2
WAIT_SINGLE = 3
WAIT_DUAL_PUNG = 4
WAIT_NAMES = ("two_sided", "closed", "edge", "single", "dual_pung")

# The six knitted straights: suit order of the 147 / 258 / 369 groups.
KNITTED_PERMS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                         dtype=np.int64)
THIRTEEN_ORPHAN_TILES = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)


def _knitted_table():
    table = np.zeros((6, 9), dtype=np.int64)
    for perm in range(6):
        k = 0
        for group in range(3):
            for j in range(3):
                table[perm, k] = KNITTED_PERMS[perm, group] * 9 + group + 3 * j
                k += 1
    return table


KNITTED_TILES = _knitted_table()   # (6, 9): the tiles of each knitted straight


@kernel(error_model="numpy", nrt=False)
def knitted_tiles(perm_index, out):
    """Fill out[0:9] with the tiles of knitted straight ``perm_index``."""
    for k in range(9):
        out[k] = KNITTED_TILES[perm_index, k]


def new_scratch():
    """Scratch space for :func:`divisions_into` (allocate once, reuse for every hand)."""
    return np.zeros((4, 8), dtype=np.int64)


@kernel(error_model="numpy", nrt=False)
def _enumerate_sets(c, n_sets, out, n_out, form, pair, extra, st):
    """Append one row per way of covering ``c`` (3 * n_sets tiles) with sets.

    Iterative depth-first search: at each depth the lowest remaining tile must start a
    pung or a chow; sets come out in (tile, chow < pung) order, so every multiset of
    sets is produced exactly once. ``c`` is restored. ``st`` rows: stage per depth
    (0 fresh, 1 inside the pung branch, 2 try the chow, 3 inside the chow branch,
    4 exhausted), the depth's lowest tile, the chosen kinds, the chosen tiles.
    """
    depth = 0
    st[0, 0] = 0
    while depth >= 0:
        if depth == n_sets:
            if n_out < out.shape[0]:
                out[n_out, 0] = form
                out[n_out, 1] = pair
                out[n_out, 2] = n_sets
                for d in range(5):
                    if d < n_sets:
                        out[n_out, 3 + 2 * d] = st[2, d]
                        out[n_out, 4 + 2 * d] = st[3, d]
                    else:
                        out[n_out, 3 + 2 * d] = -1
                        out[n_out, 4 + 2 * d] = -1
                out[n_out, 13] = extra
                n_out += 1
            depth -= 1
            continue
        stage = st[0, depth]
        if stage == 0:
            # tiles are only removed going deeper: the lowest remaining tile is at or
            # after the previous level's
            i = st[1, depth - 1] if depth > 0 else 0
            while i < 34 and c[i] == 0:
                i += 1
            if i == 34:
                depth -= 1
                continue
            st[1, depth] = i
            if c[i] >= 3:
                c[i] -= 3
                st[2, depth] = SET_PUNG
                st[3, depth] = i
                st[0, depth] = 1
                depth += 1
                st[0, depth] = 0
            else:
                st[0, depth] = 2
        elif stage == 1:
            c[st[1, depth]] += 3
            st[0, depth] = 2
        elif stage == 2:
            i = st[1, depth]
            # a chow may not follow a pung of the same tile (that multiset is produced
            # the other way round)
            after_pung = depth > 0 and st[3, depth - 1] == i and st[2, depth - 1] == SET_PUNG
            if not after_pung and i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
                c[i] -= 1
                c[i + 1] -= 1
                c[i + 2] -= 1
                st[2, depth] = SET_CHOW
                st[3, depth] = i
                st[0, depth] = 3
                depth += 1
                st[0, depth] = 0
            else:
                st[0, depth] = 4
        elif stage == 3:
            i = st[1, depth]
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            st[0, depth] = 4
        else:
            depth -= 1
    return n_out


@kernel(error_model="numpy", nrt=False)
def _regular(c, out, n_out, form, extra, st):
    total = 0
    for i in range(34):
        total += c[i]
    if total < 2 or (total - 2) % 3 != 0:
        return n_out
    # Only the suit (or honor) whose count is 2 mod 3 can hold the pair; a suit at
    # 1 mod 3, or an honor held once or four times, rules out every regular division.
    pair_lo = -1
    for s in range(3):
        m = 0
        for i in range(9 * s, 9 * s + 9):
            m += c[i]
        m %= 3
        if m == 1:
            return n_out
        if m == 2:
            if pair_lo >= 0:
                return n_out
            pair_lo = 9 * s
    pair_hi = pair_lo + 9
    for i in range(27, 34):
        if c[i] == 1 or c[i] == 4:
            return n_out
        if c[i] == 2:
            if pair_lo >= 0:
                return n_out
            pair_lo = i
            pair_hi = i + 1
    if pair_lo < 0:
        return n_out
    n_sets = (total - 2) // 3
    for p in range(pair_lo, pair_hi):
        if c[p] >= 2:
            c[p] -= 2
            n_out = _enumerate_sets(c, n_sets, out, n_out, form, p, extra, st)
            c[p] += 2
    return n_out


@kernel(error_model="numpy")
def regular_divisions(c, out, n_out, form, extra):
    """Append every (sets + pair) division of counts ``c`` to out; returns the new count.

    ``c`` (int64[34]) is restored on return. The number of sets is (sum(c) - 2) / 3.
    """
    st = np.zeros((4, 8), dtype=np.int64)
    return _regular(c, out, n_out, form, extra, st)


@kernel(error_model="numpy", nrt=False)
def is_seven_pairs(c):
    pairs = 0
    total = 0
    for i in range(34):
        total += c[i]
        if c[i] % 2 == 1:
            return False
        pairs += c[i] // 2
    return total == 14 and pairs == 7


@kernel(error_model="numpy", nrt=False)
def is_thirteen_orphans(c):
    total = 0
    for i in range(34):
        total += c[i]
    if total != 14:
        return False
    for k in range(13):
        if c[THIRTEEN_ORPHAN_TILES[k]] == 0:
            return False
    return True


@kernel(error_model="numpy", nrt=False)
def honors_knitted_perm(c):
    """For a 14-tile honors-and-knitted hand, the permutation index its suited tiles fit
    (the first one if several); -1 when it is not that form."""
    total = 0
    for i in range(34):
        if c[i] > 1:
            return -1
        total += c[i]
    if total != 14:
        return -1
    for perm in range(6):
        ok = True
        for t in range(27):
            if c[t] == 0:
                continue
            found = False
            for k in range(9):
                if KNITTED_TILES[perm, k] == t:
                    found = True
                    break
            if not found:
                ok = False
                break
        if ok:
            return perm
    return -1


@kernel(error_model="numpy", nrt=False)
def is_seven_pairs_triplet(c):
    """Taiwan 七対+刻子: 17 tiles = seven pairs + one triplet (a held four = two pairs)."""
    total = 0
    odd = 0
    for i in range(34):
        total += c[i]
        if c[i] % 2 == 1:
            if c[i] != 3:
                return -1
            odd += 1
            trip = i
    if total != 17 or odd != 1:
        return -1
    return trip


@kernel(error_model="numpy", nrt=False)
def _special_row(out, n, form, extra):
    out[n, 0] = form
    out[n, 1] = -1
    out[n, 2] = 0
    for j in range(3, DIV_COLS):
        out[n, j] = -1
    out[n, 13] = extra
    return n + 1


@kernel(error_model="numpy", nrt=False)
def divisions_into(c, form_mask, out, st):
    """:func:`divisions` with caller-provided scratch (``new_scratch()``): no allocation."""
    n = 0
    if form_mask & (1 << FORM_REGULAR):
        n = _regular(c, out, n, FORM_REGULAR, -1, st)
    return special_divisions_into(c, form_mask, out, st, n)


@kernel(error_model="numpy", nrt=False)
def special_divisions_into(c, form_mask, out, st, n):
    """The rows of every form of ``form_mask`` but the regular one, after the ``n`` rows
    already in ``out`` (the regular divisions, from the search or the per-suit table):
    :func:`divisions_into`'s rows and order. Returns the new count."""
    total = 0
    for i in range(34):
        total += c[i]
    if n + 4 > out.shape[0]:
        return n
    if total == 14 and form_mask & (1 << FORM_SEVEN_PAIRS) and is_seven_pairs(c):
        n = _special_row(out, n, FORM_SEVEN_PAIRS, -1)
    if total == 14 and form_mask & (1 << FORM_THIRTEEN_ORPHANS) and is_thirteen_orphans(c):
        n = _special_row(out, n, FORM_THIRTEEN_ORPHANS, -1)
    if total == 14 and form_mask & (1 << FORM_HONORS_KNITTED):
        perm = honors_knitted_perm(c)
        if perm >= 0:
            # record the permutation when the knitted straight itself is complete
            full = True
            for k in range(9):
                if c[KNITTED_TILES[perm, k]] == 0:
                    full = False
            n = _special_row(out, n, FORM_HONORS_KNITTED, perm if full else -1)
    if form_mask & (1 << FORM_KNITTED_STRAIGHT) and (total == 14 or total == 11):
        for perm in range(6):
            ok = True
            for k in range(9):
                if c[KNITTED_TILES[perm, k]] == 0:
                    ok = False
                    break
            if not ok:
                continue
            for k in range(9):
                c[KNITTED_TILES[perm, k]] -= 1
            n = _regular(c, out, n, FORM_KNITTED_STRAIGHT, perm, st)
            for k in range(9):
                c[KNITTED_TILES[perm, k]] += 1
    if total == 17 and form_mask & (1 << FORM_SEVEN_PAIRS_TRIPLET):
        trip = is_seven_pairs_triplet(c)
        if trip >= 0:
            n = _special_row(out, n, FORM_SEVEN_PAIRS_TRIPLET, trip)
    return n


@kernel(error_model="numpy")
def divisions(c, form_mask, out):
    """All divisions of concealed counts ``c`` allowed by ``form_mask`` into ``out``.

    Returns the number of rows written. ``c`` is int64[34] and is restored. Hot loops
    should call :func:`divisions_into` with a reused scratch array instead.
    """
    st = np.zeros((4, 8), dtype=np.int64)
    return divisions_into(c, form_mask, out, st)


@kernel(error_model="numpy", nrt=False, forceinline=True)
def wait_placements(row, win_tile, out):
    """Where ``win_tile`` can sit in regular-type division ``row``.

    Writes (slot, wait shape) pairs into out (int16[k, 2]); slot -1 is the pair, slot i
    the i-th set of the row. Returns the count. Identical sets give one placement each.
    Inlined by LLVM into its callers (the Taiwan scorer calls it for every division:
    the call passed two arrays field by field).
    """
    n = 0
    if row[1] == win_tile:
        out[n, 0] = -1
        out[n, 1] = WAIT_SINGLE
        n += 1
    for i in range(row[2]):
        kind = row[3 + 2 * i]
        t = row[4 + 2 * i]
        dup = False
        for j in range(i):
            if row[3 + 2 * j] == kind and row[4 + 2 * j] == t:
                dup = True
        if dup:
            continue
        if kind == SET_PUNG:
            if t == win_tile:
                out[n, 0] = i
                out[n, 1] = WAIT_DUAL_PUNG
                n += 1
        else:
            pos = win_tile - t
            if pos < 0 or pos > 2:
                continue
            out[n, 0] = i
            if pos == 1:
                out[n, 1] = WAIT_CLOSED
            elif pos == 0:
                out[n, 1] = WAIT_EDGE if t % 9 == 6 else WAIT_TWO_SIDED
            else:
                out[n, 1] = WAIT_EDGE if t % 9 == 0 else WAIT_TWO_SIDED
            n += 1
    return n


@kernel(error_model="numpy")
def _decompose_all(counts, form_mask):
    n = counts.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    cap = max(16, 2 * n)
    rows = np.empty((cap, DIV_COLS), dtype=np.int16)
    buf = np.empty((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    st = np.zeros((4, 8), dtype=np.int64)
    c = np.zeros(34, dtype=np.int64)
    used = 0
    for h in range(n):
        for i in range(34):
            c[i] = counts[h, i]
        k = divisions_into(c, form_mask, buf, st)
        if used + k > cap:
            cap = max(2 * cap, used + k)
            grown = np.empty((cap, DIV_COLS), dtype=np.int16)
            grown[:used] = rows[:used]
            rows = grown
        for r in range(k):
            for j in range(DIV_COLS):
                rows[used + r, j] = buf[r, j]
        used += k
        offsets[h + 1] = used
    return offsets, rows[:used].copy()


def decompose_batch(counts: np.ndarray, form_mask: int) -> tuple[np.ndarray, np.ndarray]:
    """All divisions of N hands: (offsets (N+1,) int64, rows (D, DIV_COLS) int16)."""
    counts = np.ascontiguousarray(counts, dtype=np.uint8)
    offsets, rows = _decompose_all(counts, np.int64(form_mask))
    return offsets, rows
