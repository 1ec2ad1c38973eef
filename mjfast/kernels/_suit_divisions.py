"""MCR: every way one suit's counts split into sets (and one pair), looked up by the suit's
code instead of searched for; the same lookup tells the wait search whether a suit is
complete.

A suit's counts ``c[0..8]`` (0..4 each) have the base-5 code ``sum(c[r] * 5**r)``. Every
multiset of at most four sets of one suit (7 chows, 9 pungs), with or without a pair,
whose counts stay at 4 or fewer, is one *division* of its code: 23,533 divisions under
21,743 codes. (A code needs no pair flag: its tile count modulo 3 is 0 without a pair, 2
with one.) They are built here by enumerating the multisets (no search), once per process
(a few tens of milliseconds), and carried in the MCR context (``X_DEC_AT``) as int64 words:

- ``[0, SLOTS)``: an open-addressing hash of the codes (multiplicative hash, linear
  probing), one word per slot, 0 = empty: bits 0-21 ``code + 1``, bits 22-24 the number of
  divisions, from bit 25 the division itself when there is one (most codes: one cache line
  per lookup), else the offset of its divisions in the data;
- ``[SLOTS, SLOTS + BITMAP_WORDS)``: one bit per code, set when the code has a division
  (the wait search's test, a direct index: it mostly asks about codes that have none,
  the lookups a hash answers slowest);
- ``[DATA_AT, ...)``: the divisions of the codes that have several, one word each.

A division word: bits 0-3 the pair's rank (15: none), bits 4-6 the number of sets, then 5
bits per set (bit 0: 1 pung, 0 chow; bits 1-4 the lowest rank), the sets ordered by
(lowest rank, chow before pung) -- the order in which the depth-first search of
:mod:`mjfast.kernels._decompose` lists them. A code's divisions are in the order in which
that search meets them, so that :func:`table_divisions` (a hand's divisions as the product
of its suits') lists a hand's divisions in the search's order too.

``tests/test_decompose.py`` checks the table against that search for every code.
"""
from __future__ import annotations

import functools
from itertools import combinations_with_replacement

import numpy as np

from ._decompose import (FORM_REGULAR, SET_CHOW, SET_PUNG, divisions_into,
                         special_divisions_into)
from ._jit import kernel, python_function

SLOT_BITS = 15
SLOTS = 1 << SLOT_BITS
NO_PAIR = 15
CODE_MASK = (1 << 22) - 1       # an entry's code + 1
COUNT_SHIFT = 22                # an entry's number of divisions (3 bits)
PAYLOAD_SHIFT = 25              # an entry's division (one) or data offset (several)
N_CODES = 5 ** 9
POW5 = np.array([5 ** k for k in range(10)], dtype=np.int64)   # 5**r: rank r's code unit
BITMAP_WORDS = (N_CODES + 63) // 64
DATA_AT = SLOTS + BITMAP_WORDS
# the set kinds in the search's order: chow r before pung r, r ascending
SET_KINDS = tuple((kind, r) for r in range(9) for kind in (0, 1) if not (kind == 0 and r > 6))


@kernel(inline="always")
def slot_of(code):
    """The first hash slot of ``code``: the top bits of a 32-bit multiplicative hash."""
    return ((code * 2654435761) & 0xFFFFFFFF) >> (32 - SLOT_BITS)


@functools.lru_cache(maxsize=1)
def build_suit_divisions() -> np.ndarray:
    """The int64 table of the module docstring (built once per process, ~30 ms)."""
    n_kinds = len(SET_KINDS)
    vecs = np.zeros((n_kinds + 1, 9), dtype=np.int64)        # row n_kinds: no set
    codes = np.zeros(n_kinds + 1, dtype=np.int64)             # 5 bits per set
    for i, (kind, r) in enumerate(SET_KINDS):
        if kind == 0:
            vecs[i, r:r + 3] = 1
        else:
            vecs[i, r] = 3
        codes[i] = kind | (r << 1)
    combos = np.array([c + (n_kinds,) * (4 - len(c)) for n in range(5)
                       for c in combinations_with_replacement(range(n_kinds), n)], dtype=np.int64)
    n_sets = (combos < n_kinds).sum(axis=1)
    counts = vecs[combos].sum(axis=1)                                     # (combos, 9)
    words = n_sets << 4
    for j in range(4):
        words = words | np.where(combos[:, j] < n_kinds, codes[combos[:, j]] << (7 + 5 * j), 0)
    pairs = np.vstack([np.zeros(9, dtype=np.int64), 2 * np.eye(9, dtype=np.int64)])  # none, 0..8
    with_pair = counts[:, None, :] + pairs[None, :, :]                    # (combos, 10, 9)
    ok = with_pair.max(axis=2) <= 4
    pow5 = 5 ** np.arange(9, dtype=np.int64)
    keys = np.broadcast_to(with_pair @ pow5, ok.shape)
    pair_rank = np.concatenate([[NO_PAIR], np.arange(9)])
    all_words = words[:, None] | pair_rank[None, :]
    keys, all_words = keys[ok], all_words[ok]
    # a code's divisions in the order the depth-first search meets them: by the pair's
    # rank, then set by set (sets are listed by lowest rank; at the first that differs,
    # both start at the same rank and the pung comes first)
    dfs = [np.where(((all_words >> 4) & 7) > j,
                    ((all_words >> (8 + 5 * j)) & 15) * 2 + 1 - ((all_words >> (7 + 5 * j)) & 1),
                    0) for j in range(4)]
    order = np.lexsort((dfs[3], dfs[2], dfs[1], dfs[0], all_words & 15, keys))
    keys, all_words = keys[order], all_words[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], keys.size]
    table = np.zeros(SLOTS, dtype=np.int64)
    data = []
    hash_of = python_function(slot_of)
    for code, lo, hi in zip(keys[starts].tolist(), starts.tolist(), ends.tolist()):
        n = hi - lo
        if n == 1:
            payload = int(all_words[lo])
        else:
            payload = len(data)
            data.extend(all_words[lo:hi].tolist())
        assert code + 1 <= CODE_MASK and n < 8
        h = hash_of(code)
        while table[h]:
            h = (h + 1) & (SLOTS - 1)
        table[h] = (code + 1) | (n << COUNT_SHIFT) | (payload << PAYLOAD_SHIFT)
    bitmap = np.zeros(BITMAP_WORDS, dtype=np.uint64)
    np.bitwise_or.at(bitmap, keys[starts] >> 6, np.uint64(1) << (keys[starts] & 63).astype(np.uint64))
    return np.concatenate([table, bitmap.view(np.int64), np.array(data, dtype=np.int64)])


@kernel(error_model="numpy", nrt=False)
def suit_entry(dec, code):
    """The entry of ``code`` in the table ``dec`` (0: the suit does not split; its
    divisions: :func:`division_count`, :func:`division_word`)."""
    # the first two slots read together and chosen without a branch (nine lookups in ten
    # end there); the loop for the rest of a probe sequence
    h = slot_of(code)
    want = code + 1
    e0 = dec[h]
    e1 = dec[(h + 1) & (SLOTS - 1)]
    k0 = e0 & CODE_MASK
    k1 = e1 & CODE_MASK
    if k0 == want or k0 == 0 or k1 == want or k1 == 0:
        return e0 if k0 == want else (e1 if (k0 != 0 and k1 == want) else 0)
    h = (h + 2) & (SLOTS - 1)
    while True:
        e = dec[h]
        k = e & CODE_MASK
        if k == want:
            return e
        if k == 0:
            return 0
        h = (h + 1) & (SLOTS - 1)


@kernel(inline="always")
def division_count(entry):
    """How many divisions an entry holds."""
    return (entry >> COUNT_SHIFT) & 7


@kernel(inline="always")
def division_word(dec, entry, i):
    """Division ``i`` of an entry (module docstring: the division word)."""
    if division_count(entry) == 1:
        return entry >> PAYLOAD_SHIFT
    return dec[DATA_AT + (entry >> PAYLOAD_SHIFT) + i]


@kernel(inline="always")
def suit_splits(dec, code):
    """1 when ``code`` has a division (into sets, with a pair when its tile count is 2
    modulo 3), else 0."""
    return (dec[SLOTS + (code >> 6)] >> (code & 63)) & 1


@kernel(inline="always")
def suit_code(c, base):
    """``(code, tiles, fours, held)`` of the suit whose counts start at ``c[base]``: its
    base-5 code, its tile count, the bit set of its ranks held four times and that of
    the ranks held at all (the divisions' lookup, the wait question and the wait search
    read it; what a caller leaves unused is not computed)."""
    code = 0
    m = 0
    fours = 0
    held = 0
    for r in range(9):
        v = c[base + r]
        code += v * POW5[r]          # (products summed: no chain of multiplications)
        m += v
        fours |= np.int64(v == 4) << r
        held |= min(v, 1) << r
    return code, m, fours, held


@kernel(error_model="numpy", nrt=False, forceinline=True)
def table_divisions(c, out, st, dec):
    """The regular divisions of ``c`` (int64[34]) into ``out``, the rows and their order
    exactly as ``_decompose.divisions_into(c, 1 << FORM_REGULAR, out, st)`` writes them,
    from the table ``dec`` instead of a search: each suit's divisions are looked up by its
    code, and a hand's are their product with the honors' pungs and pair, looped in the
    search's order (the pair's tile outermost, then suit by suit). Returns the count, or
    -1 when a suit holds more than 14 tiles (five sets: outside the table; the caller
    searches). ``st`` scratch (``st[0, 0:3]``: the suits' entries; ``st[1]``: the
    one-division path's set slots)."""
    # the suits' codes and tile counts, and the honors, first (the hand's tile count is
    # their sum); then one test of the whole layout (no branch per suit or honor on which
    # holds the pair: unpredictable)
    code0, m0, _, _ = suit_code(c, 0)
    code1, m1, _, _ = suit_code(c, 9)
    code2, m2, _, _ = suit_code(c, 18)
    r0 = m0 % 3
    r1 = m1 % 3
    r2 = m2 % 3
    bad = np.int64(r0 == 1) | np.int64(r1 == 1) | np.int64(r2 == 1)
    pairs = np.int64(r0 == 2) + np.int64(r1 == 2) + np.int64(r2 == 2)
    pair = -1
    total = m0 + m1 + m2
    for i in range(27, 34):
        v = c[i]
        total += v
        bad |= np.int64(v == 1) | np.int64(v == 4)
        two = np.int64(v == 2)
        pairs += two
        pair = i if two else pair
    if total < 2 or (total - 2) % 3 != 0:
        return 0
    if m0 > 14 or m1 > 14 or m2 > 14:
        return -1
    if bad != 0 or pairs != 1:
        return 0
    pair_suit = 0 if r0 == 2 else (1 if r1 == 2 else (2 if r2 == 2 else 3))
    e0 = suit_entry(dec, code0)
    e1 = suit_entry(dec, code1)
    e2 = suit_entry(dec, code2)
    if e0 == 0 or e1 == 0 or e2 == 0:
        return 0
    st[0, 0] = e0
    st[0, 1] = e1
    st[0, 2] = e2
    n_sets = (total - 2) // 3
    counts0 = division_count(e0)
    counts1 = division_count(e1)
    counts2 = division_count(e2)
    if (counts0 | counts1 | counts2) == 1:
        # one division (most hands): its row written without a branch on the suits' set
        # counts or on which honors are pungs (a random hand's are unpredictable): each
        # suit's four set slots and the seven honors' written every time into the
        # scratch slots (``st[1]``; a set as ``tile << 1 | pung``; a slot past the
        # seventh, only ever a set not there, written to the eighth), the count advanced
        # by what is there; then the row's five set columns
        slots = st[1]
        k = 0
        for s in range(3):
            e = e0 if s == 0 else (e1 if s == 1 else e2)
            w = e >> PAYLOAD_SHIFT
            pair = 9 * s + (w & 15) if (w & 15) != NO_PAIR else pair
            for j in range(4):
                x = (w >> (7 + 5 * j)) & 31
                slots[min(k + j, 7)] = ((9 * s + (x >> 1)) << 1) | (x & 1)
            k += (w >> 4) & 7
        for t in range(27, 34):
            slots[min(k, 7)] = (t << 1) | 1
            k += np.int64(c[t] == 3)
        for j in range(5):
            v = slots[j]
            held = j < k
            out[0, 3 + 2 * j] = (SET_PUNG if v & 1 else SET_CHOW) if held else -1
            out[0, 4 + 2 * j] = v >> 1 if held else -1
        out[0, 0] = FORM_REGULAR
        out[0, 1] = pair
        out[0, 2] = n_sets
        out[0, 13] = -1
        return 1
    n = 0
    # the pair suit's divisions come grouped by the pair's rank (the search tries the
    # pair's tiles outermost): one pass per group, the other suits inside it
    g_lo = 0
    while True:
        if pair_suit < 3:
            n_pair = division_count(st[0, pair_suit])
            if g_lo >= n_pair:
                break
            g_rank = division_word(dec, st[0, pair_suit], g_lo) & 15
            g_hi = g_lo + 1
            while g_hi < n_pair and division_word(dec, st[0, pair_suit], g_hi) & 15 == g_rank:
                g_hi += 1
        else:
            if g_lo > 0:
                break
            g_hi = 1
        for i0 in range(g_lo if pair_suit == 0 else 0, g_hi if pair_suit == 0 else counts0):
            for i1 in range(g_lo if pair_suit == 1 else 0, g_hi if pair_suit == 1 else counts1):
                for i2 in range(g_lo if pair_suit == 2 else 0,
                                g_hi if pair_suit == 2 else counts2):
                    if n >= out.shape[0]:
                        return n
                    k = 0
                    for s in range(3):
                        i = i0 if s == 0 else (i1 if s == 1 else i2)
                        w = division_word(dec, st[0, s], i)
                        if w & 15 != NO_PAIR:
                            pair = 9 * s + (w & 15)
                        for j in range((w >> 4) & 7):
                            x = (w >> (7 + 5 * j)) & 31
                            out[n, 3 + 2 * k] = SET_PUNG if x & 1 else SET_CHOW
                            out[n, 4 + 2 * k] = 9 * s + (x >> 1)
                            k += 1
                    for t in range(27, 34):
                        if c[t] == 3:
                            out[n, 3 + 2 * k] = SET_PUNG
                            out[n, 4 + 2 * k] = t
                            k += 1
                    for j in range(k, 5):
                        out[n, 3 + 2 * j] = -1
                        out[n, 4 + 2 * j] = -1
                    out[n, 0] = FORM_REGULAR
                    out[n, 1] = pair
                    out[n, 2] = n_sets
                    out[n, 13] = -1
                    n += 1
        g_lo = g_hi
    return n


@kernel(error_model="numpy", nrt=False, forceinline=True)
def divisions_by_table(c, form_mask, out, st, dec):
    """Every division of ``c`` of the forms of ``form_mask`` into ``out``: the rows and
    their order of :func:`._decompose.divisions_into`, the regular ones looked up in the
    table ``dec`` (:func:`table_divisions`; the search for a suit of more than 14 tiles)
    and the other forms' rows after them (:func:`._decompose.special_divisions_into`).
    Returns the count. (The Taiwan and Tuidaohu scorers' divisions; MCR tries its
    special forms itself.)"""
    if form_mask & (1 << FORM_REGULAR) == 0:
        return divisions_into(c, form_mask, out, st)
    n = table_divisions(c, out, st, dec)
    if n < 0:
        return divisions_into(c, form_mask, out, st)
    if form_mask == 1 << FORM_REGULAR:
        return n                      # (no other form asked: no pass over the counts)
    return special_divisions_into(c, form_mask, out, st, n)
