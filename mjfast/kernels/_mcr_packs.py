"""MCR: a division's chow-family and pung-family fans, read from two tables.

The fans that a division's chows make together (一般高, 喜相逢, 连六, 老少副, 三色三同顺,
一色三步高, 清龙, ...) depend on the multiset of its chows alone, and those its pungs make
together (双同刻, 三同刻, 一色三节高, 三风刻, 大四喜, ...) on the multiset of its pungs
(kongs included) alone. :mod:`._mcr_fans` decides them (``chow_family``, ``pung_family``):
that is the definition. This module tabulates
those functions once per process, by a compiled pass that calls them on every multiset:

- chows: 21 kinds (the middle tile of a chow, 2..8 in three suits) and an empty slot,
  every sorted 4-tuple: 12,650 multisets of 0-4 chows;
- pungs: 34 kinds and an empty slot: 73,815 multisets of 0-4 pungs.

The hand scorer pads its chows and pungs to four with the empty slot, sorts each four
with a compare-exchange network (no branch), ranks them (:func:`multiset_rank`) and adds
one table entry per family to its fan counts (:func:`add_entry`): a few loads where the
predicate chains took a data-dependent path per division. The three-suited and pure
terminal chows, which depend on the pair too, stay with the scorer.

An entry is three slots of 10 bits (fan id, 7 bits; count, 3 bits; an empty slot is fan 0,
which no table uses, with count 0). The tables hold one byte per multiset, the index of
its entry in a palette of the distinct entries (68 of them): 86 KB in all, where 32-bit
entries took 345 KB and their reads waited on the caches. They live in the MCR context
(:mod:`._context`, ``X_PACKS_AT``): :data:`CHOW_WORDS` words of chow bytes, then
:data:`PUNG_WORDS` of pung bytes, then the :data:`PALETTE_WORDS`-word palette.
"""
from __future__ import annotations

import functools

import numpy as np

from ._exclude import add_fan
from ._jit import kernel
from ._mcr_fans import N_FANS, chow_family, pung_family

N_CHOW_KINDS = 21           # index (suit - 1) * 7 + rank - 2 of the middle tile's code
N_PUNG_KINDS = 34           # index (suit - 1) * 9 + rank - 1 of the tile's code
SLOTS = 3                   # fans an entry can hold
SLOT_BITS = 10
FAN_BITS = 7


def _multisets(kinds: int) -> int:
    """Sorted 4-tuples over ``kinds`` kinds and the empty slot."""
    n = kinds + 4
    return n * (n - 1) * (n - 2) * (n - 3) // 24


N_CHOW_SETS = _multisets(N_CHOW_KINDS)      # 12,650
N_PUNG_SETS = _multisets(N_PUNG_KINDS)      # 73,815
CHOW_WORDS = (N_CHOW_SETS + 7) // 8         # one byte a multiset
PUNG_WORDS = (N_PUNG_SETS + 7) // 8
PALETTE_WORDS = 256
PACK_WORDS = CHOW_WORDS + PUNG_WORDS + PALETTE_WORDS


def _codes(kinds: int, per_suit: int, low_rank: int) -> np.ndarray:
    """Kind index -> code (suit * 16 + rank), ``per_suit`` kinds a suit from ``low_rank``."""
    return np.array([((k // per_suit + 1) << 4) | (k % per_suit + low_rank)
                     for k in range(kinds)], dtype=np.int64)


def _index_of(codes: np.ndarray) -> np.ndarray:
    """Code (< 0x50) -> kind index (the inverse of ``codes``); code 0 -> the empty slot's
    index ``len(codes)``; every other code -> -1 (not a chow middle / not a tile: the scorer
    then takes the predicates' own path)."""
    ix = np.full(0x50, -1, dtype=np.int64)
    ix[0] = codes.size
    ix[codes] = np.arange(codes.size)
    return ix


CHOW_CODES = _codes(N_CHOW_KINDS, 7, 2)
PUNG_CODES = _codes(N_PUNG_KINDS, 9, 1)
CHOW_INDEX = _index_of(CHOW_CODES)
PUNG_INDEX = _index_of(PUNG_CODES)


# ---------------------------------------------------------------------------------------
# the scorer's side
# ---------------------------------------------------------------------------------------
@kernel(inline="always")
def sort4(a, b, c, d):
    """``a, b, c, d`` in ascending order (five compare-exchanges: min / max, no branch)."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return a, b, c, d


@kernel(inline="always")
def multiset_rank(a, b, c, d):
    """The rank of the sorted multiset ``a <= b <= c <= d`` among all of them (the
    colexicographic rank of the 4-subset ``{a, b + 1, c + 2, d + 3}``)."""
    x = b + 1
    y = c + 2
    z = d + 3
    return a + ((x * (x - 1)) >> 1) + (y * (y - 1) * (y - 2)) // 6 + (z * (z - 1) * (z - 2) * (z - 3)) // 24


@kernel(inline="always")
def add_entry(table, palette, rank, ft):
    """Add the fans of multiset ``rank`` of ``table`` (bytes: palette indices) to ``ft``.
    Returns the fans added as an id set (``(lo, hi)``, :func:`._exclude.add_fan`)."""
    e = palette[table[rank]]
    lo = np.uint64(0)
    hi = np.uint64(0)
    for s in range(SLOTS):
        v = (e >> (SLOT_BITS * s)) & ((1 << SLOT_BITS) - 1)
        f = v & ((1 << FAN_BITS) - 1)
        n = v >> FAN_BITS
        ft[f] += n
        lo, hi = add_fan(lo, hi, f, n)
    return lo, hi


# ---------------------------------------------------------------------------------------
# building the tables
# ---------------------------------------------------------------------------------------
@kernel(error_model="numpy")
def _fill(chows, pungs, chow_codes, pung_codes):
    """Write every multiset's entry (module docstring) into ``chows`` / ``pungs`` (int64,
    one entry a word). Returns 0, or the rank + 1 of an entry that does not fit (more than
    three fans, a count above 7)."""
    ft = np.zeros(N_FANS, dtype=np.int64)
    tmp = np.zeros(16, dtype=np.int64)
    m = np.zeros(4, dtype=np.int64)
    for family in range(2):
        kinds = chow_codes.shape[0] if family == 0 else pung_codes.shape[0]
        for a in range(kinds + 1):
            for b in range(a, kinds + 1):
                for c in range(b, kinds + 1):
                    for d in range(c, kinds + 1):
                        k = 0
                        for v in (a, b, c, d):
                            if v < kinds:
                                m[k] = chow_codes[v] if family == 0 else pung_codes[v]
                                k += 1
                        ft[:] = 0
                        if family == 0:
                            chow_family(m, k, ft, tmp)
                        else:
                            pung_family(m, k, ft)
                        rank = multiset_rank(a, b, c, d)
                        e = 0
                        s = 0
                        for f in range(1, N_FANS):
                            n = ft[f]
                            if n != 0:
                                if s == SLOTS or n < 0 or n >= (1 << (SLOT_BITS - FAN_BITS)) \
                                        or f >= (1 << FAN_BITS):
                                    return rank + 1
                                e |= (f | (n << FAN_BITS)) << (SLOT_BITS * s)
                                s += 1
                        if family == 0:
                            chows[rank] = e
                        else:
                            pungs[rank] = e
    return 0


def _bytes(indices: np.ndarray, words: int) -> np.ndarray:
    """Palette indices as bytes, eight to an int64 word (little-endian: byte k of the
    table is ``table_bytes[k]`` in the kernel's uint8 view)."""
    b = np.zeros(8 * words, dtype=np.uint8)
    b[:indices.size] = indices
    return b.view(np.int64)


@functools.lru_cache(maxsize=1)
def pack_tables() -> np.ndarray:
    """The chow bytes' :data:`CHOW_WORDS` words, the pung bytes' :data:`PUNG_WORDS`, the
    palette's :data:`PALETTE_WORDS` (int64; built once per process, a few milliseconds
    once compiled)."""
    chows = np.zeros(N_CHOW_SETS, dtype=np.int64)
    pungs = np.zeros(N_PUNG_SETS, dtype=np.int64)
    bad = _fill(chows, pungs, CHOW_CODES, PUNG_CODES)
    if bad:
        raise AssertionError(f"MCR pack table: entry {bad - 1} needs more than {SLOTS} fans")
    palette, index = np.unique(np.concatenate([chows, pungs]), return_inverse=True)
    if palette.size > PALETTE_WORDS:
        raise AssertionError(f"MCR pack tables: {palette.size} distinct entries")
    out = np.concatenate([_bytes(index[:N_CHOW_SETS], CHOW_WORDS),
                          _bytes(index[N_CHOW_SETS:], PUNG_WORDS),
                          np.pad(palette, (0, PALETTE_WORDS - palette.size))])
    assert out.size == PACK_WORDS
    return out


def table_views(packs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(chow bytes, pung bytes, palette) of :func:`pack_tables`' array, as the kernel
    reads them."""
    chow = packs[:CHOW_WORDS].view(np.uint8)[:N_CHOW_SETS]
    pung = packs[CHOW_WORDS:CHOW_WORDS + PUNG_WORDS].view(np.uint8)[:N_PUNG_SETS]
    return chow, pung, packs[CHOW_WORDS + PUNG_WORDS:]
