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
from numba import njit

from ._config import JIT_OPTIONS

FORM_REGULAR = 0
FORM_SEVEN_PAIRS = 1
FORM_THIRTEEN_ORPHANS = 2
FORM_HONORS_KNITTED = 3
FORM_KNITTED_STRAIGHT = 4
FORM_SEVEN_PAIRS_TRIPLET = 5

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


@njit(**JIT_OPTIONS)
def knitted_tiles(perm_index, out):
    """Fill out[0:9] with the tiles of knitted straight ``perm_index``."""
    k = 0
    for group in range(3):
        suit = KNITTED_PERMS[perm_index, group]
        for j in range(3):
            out[k] = suit * 9 + group + 3 * j
            k += 1


@njit(**JIT_OPTIONS)
def _enumerate_sets(c, n_sets, out, n_out, base_row):
    """Append one row per way of covering ``c`` (3 * n_sets tiles) with sets.

    Iterative depth-first search: at each depth the lowest remaining tile must start a
    pung or a chow; sets come out in (tile, chow < pung) order, so every multiset of
    sets is produced exactly once. ``c`` is restored.
    stage per depth: 0 fresh, 1 inside the pung branch, 2 try the chow, 3 inside the
    chow branch, 4 exhausted.
    """
    stage = np.zeros(8, dtype=np.int64)
    pos = np.zeros(8, dtype=np.int64)
    kinds = np.zeros(8, dtype=np.int64)
    tiles = np.zeros(8, dtype=np.int64)
    first = base_row[2]
    depth = 0
    while depth >= 0:
        if depth == n_sets:
            if n_out < out.shape[0]:
                for j in range(DIV_COLS):
                    out[n_out, j] = base_row[j]
                out[n_out, 2] = first + n_sets
                for d in range(n_sets):
                    out[n_out, 3 + 2 * (first + d)] = kinds[d]
                    out[n_out, 4 + 2 * (first + d)] = tiles[d]
                n_out += 1
            depth -= 1
            continue
        st = stage[depth]
        if st == 0:
            i = 0
            while i < 34 and c[i] == 0:
                i += 1
            if i == 34:
                depth -= 1
                continue
            pos[depth] = i
            if c[i] >= 3:
                c[i] -= 3
                kinds[depth] = SET_PUNG
                tiles[depth] = i
                stage[depth] = 1
                depth += 1
                stage[depth] = 0
            else:
                stage[depth] = 2
        elif st == 1:
            c[pos[depth]] += 3
            stage[depth] = 2
        elif st == 2:
            i = pos[depth]
            # sets are generated in (tile, kind) order, chow before pung: a chow may not
            # follow a pung of the same tile (that multiset is produced the other way)
            after_pung = depth > 0 and tiles[depth - 1] == i and kinds[depth - 1] == SET_PUNG
            if not after_pung and i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
                c[i] -= 1
                c[i + 1] -= 1
                c[i + 2] -= 1
                kinds[depth] = SET_CHOW
                tiles[depth] = i
                stage[depth] = 3
                depth += 1
                stage[depth] = 0
            else:
                stage[depth] = 4
        elif st == 3:
            i = pos[depth]
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            stage[depth] = 4
        else:
            depth -= 1
    return n_out


@njit(**JIT_OPTIONS)
def _new_row(form):
    row = np.full(DIV_COLS, -1, dtype=np.int16)
    row[0] = form
    row[2] = 0
    return row


@njit(**JIT_OPTIONS)
def regular_divisions(c, out, n_out, form, extra):
    """Append every (sets + pair) division of counts ``c`` to out; returns the new count.

    ``c`` (int64[34]) is restored on return. The number of sets is (sum(c) - 2) / 3.
    """
    total = 0
    for i in range(34):
        total += c[i]
    if total < 2 or (total - 2) % 3 != 0:
        return n_out
    n_sets = (total - 2) // 3
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            row = _new_row(form)
            row[1] = p
            row[13] = extra
            n_out = _enumerate_sets(c, n_sets, out, n_out, row)
            c[p] += 2
    return n_out


@njit(**JIT_OPTIONS)
def is_seven_pairs(c):
    pairs = 0
    total = 0
    for i in range(34):
        total += c[i]
        if c[i] % 2 == 1:
            return False
        pairs += c[i] // 2
    return total == 14 and pairs == 7


@njit(**JIT_OPTIONS)
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


@njit(**JIT_OPTIONS)
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
    buf = np.zeros(9, dtype=np.int64)
    for perm in range(6):
        knitted_tiles(perm, buf)
        ok = True
        for t in range(27):
            if c[t] == 0:
                continue
            found = False
            for k in range(9):
                if buf[k] == t:
                    found = True
                    break
            if not found:
                ok = False
                break
        if ok:
            return perm
    return -1


@njit(**JIT_OPTIONS)
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


@njit(**JIT_OPTIONS)
def divisions(c, form_mask, out):
    """All divisions of concealed counts ``c`` allowed by ``form_mask`` into ``out``.

    Returns the number of rows written. ``c`` is int64[34] and is restored.
    """
    n = 0
    total = 0
    for i in range(34):
        total += c[i]
    if form_mask & (1 << FORM_REGULAR):
        n = regular_divisions(c, out, n, FORM_REGULAR, -1)
    if n + 4 > out.shape[0]:
        return n
    if total == 14 and form_mask & (1 << FORM_SEVEN_PAIRS) and is_seven_pairs(c):
        row = _new_row(FORM_SEVEN_PAIRS)
        out[n, :] = row
        n += 1
    if total == 14 and form_mask & (1 << FORM_THIRTEEN_ORPHANS) and is_thirteen_orphans(c):
        out[n, :] = _new_row(FORM_THIRTEEN_ORPHANS)
        n += 1
    if total == 14 and form_mask & (1 << FORM_HONORS_KNITTED):
        perm = honors_knitted_perm(c)
        if perm >= 0:
            row = _new_row(FORM_HONORS_KNITTED)
            # record the permutation when the knitted straight itself is complete
            buf = np.zeros(9, dtype=np.int64)
            knitted_tiles(perm, buf)
            full = True
            for k in range(9):
                if c[buf[k]] == 0:
                    full = False
            row[13] = perm if full else -1
            out[n, :] = row
            n += 1
    if form_mask & (1 << FORM_KNITTED_STRAIGHT) and (total == 14 or total == 11):
        buf = np.zeros(9, dtype=np.int64)
        for perm in range(6):
            knitted_tiles(perm, buf)
            ok = True
            for k in range(9):
                if c[buf[k]] == 0:
                    ok = False
                    break
            if not ok:
                continue
            for k in range(9):
                c[buf[k]] -= 1
            n = regular_divisions(c, out, n, FORM_KNITTED_STRAIGHT, perm)
            for k in range(9):
                c[buf[k]] += 1
    if total == 17 and form_mask & (1 << FORM_SEVEN_PAIRS_TRIPLET):
        trip = is_seven_pairs_triplet(c)
        if trip >= 0:
            row = _new_row(FORM_SEVEN_PAIRS_TRIPLET)
            row[13] = trip
            out[n, :] = row
            n += 1
    return n


@njit(**JIT_OPTIONS)
def wait_placements(row, win_tile, out):
    """Where ``win_tile`` can sit in regular-type division ``row``.

    Writes (slot, wait shape) pairs into out (int16[k, 2]); slot -1 is the pair, slot i
    the i-th set of the row. Returns the count. Identical sets give one placement each.
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


@njit(**JIT_OPTIONS)
def decompose_batch_count(counts, form_mask):
    """Pass 1 of :func:`decompose_batch`: the number of divisions of each hand."""
    n = counts.shape[0]
    res = np.zeros(n, dtype=np.int64)
    buf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    c = np.zeros(34, dtype=np.int64)
    for h in range(n):
        for i in range(34):
            c[i] = counts[h, i]
        res[h] = divisions(c, form_mask, buf)
    return res


@njit(**JIT_OPTIONS)
def decompose_batch_fill(counts, form_mask, offsets, rows):
    """Pass 2: write each hand's divisions at rows[offsets[h]:offsets[h+1]]."""
    n = counts.shape[0]
    buf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    c = np.zeros(34, dtype=np.int64)
    for h in range(n):
        for i in range(34):
            c[i] = counts[h, i]
        k = divisions(c, form_mask, buf)
        for r in range(k):
            for j in range(DIV_COLS):
                rows[offsets[h] + r, j] = buf[r, j]


def decompose_batch(counts: np.ndarray, form_mask: int) -> tuple[np.ndarray, np.ndarray]:
    """All divisions of N hands: (offsets (N+1,) int64, rows (D, DIV_COLS) int16)."""
    counts = np.ascontiguousarray(counts, dtype=np.uint8)
    per = decompose_batch_count(counts, form_mask)
    offsets = np.zeros(len(per) + 1, dtype=np.int64)
    np.cumsum(per, out=offsets[1:])
    rows = np.empty((int(offsets[-1]), DIV_COLS), dtype=np.int16)
    decompose_batch_fill(counts, form_mask, offsets, rows)
    return offsets, rows
