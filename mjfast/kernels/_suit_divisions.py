"""MCR: every way one suit's counts split into sets (and one pair), looked up by the suit's
code instead of searched for.

A suit's counts ``c[0..8]`` (0..4 each) have the base-5 code ``sum(c[r] * 5**r)`` (the
code of :func:`mjfast.kernels._mcr_waits.build_suit_table`). Every multiset of at most
four sets of one suit (7 chows, 9 pungs), with or without a pair, whose counts stay at 4 or
fewer, is one *division* of its code: 23,533 divisions under 21,743 keys
``code * 2 + with_pair``. They are built here by enumerating the multisets (no search),
once per process (a few tens of milliseconds), and carried in the MCR context (the last
region, ``X_DEC_AT``) as int32 words:

- ``[0, SLOTS)``: an open-addressing hash of the keys (``key + 1``; 0 = empty slot),
  multiplicative hash, linear probing;
- ``[SLOTS, 2 * SLOTS)``: per slot ``offset * 8 + count`` into the data;
- ``[2 * SLOTS, ...)``: one word per division: bits 0-3 the pair's rank (15: none), bits
  4-6 the number of sets, then 5 bits per set (bit 0: 1 pung, 0 chow; bits 1-4 the
  lowest rank), the sets ordered by (lowest rank, chow before pung) -- the order in which
  the depth-first search of :mod:`mjfast.kernels._decompose` lists them.

``tests/test_decompose.py`` checks the table against that search for every key.
"""
from __future__ import annotations

import functools
from itertools import combinations_with_replacement

import numpy as np

from ._jit import kernel, python_function

SLOT_BITS = 16
SLOTS = 1 << SLOT_BITS
NO_PAIR = 15
# the set kinds in the search's order: chow r before pung r, r ascending
SET_KINDS = tuple((kind, r) for r in range(9) for kind in (0, 1) if not (kind == 0 and r > 6))


@kernel(inline="always")
def slot_of(key):
    """The first hash slot of ``key``: the top bits of a 32-bit multiplicative hash."""
    return ((key * 2654435761) & 0xFFFFFFFF) >> (32 - SLOT_BITS)


@functools.lru_cache(maxsize=1)
def build_suit_divisions() -> np.ndarray:
    """The int32 table of the module docstring (built once per process, ~30 ms)."""
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
    keys = (with_pair @ pow5) * 2 + (np.arange(10) > 0)[None, :]
    pair_rank = np.concatenate([[NO_PAIR], np.arange(9)])
    all_words = words[:, None] | pair_rank[None, :]
    keys, all_words = keys[ok], all_words[ok]
    order = np.lexsort((all_words, keys))
    keys, all_words = keys[order], all_words[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], keys.size]
    table = np.zeros(2 * SLOTS, dtype=np.int64)
    for key, lo, hi in zip(keys[starts].tolist(), starts.tolist(), ends.tolist()):
        h = python_function(slot_of)(key)
        while table[h]:
            h = (h + 1) & (SLOTS - 1)
        table[h] = key + 1
        table[SLOTS + h] = lo * 8 + (hi - lo)
    return np.concatenate([table, all_words]).astype(np.int32)


@kernel(error_model="numpy", nrt=False)
def suit_divisions(dec, key):
    """``offset * 8 + count`` of the divisions of ``key`` (``code * 2 + with_pair``) in
    the table ``dec`` (0: none); the divisions are ``dec[2 * SLOTS + offset + i]``."""
    h = slot_of(key)
    while True:
        k = dec[h]
        if k == key + 1:
            return dec[SLOTS + h]
        if k == 0:
            return 0
        h = (h + 1) & (SLOTS - 1)
