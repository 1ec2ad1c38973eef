"""The MCR pack-family tables (mjfast.kernels._mcr_packs): ranks, the sort network, and
each entry against the fan predicates it stands for."""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest

from mjfast.kernels import _mcr_fans as F
from mjfast.kernels import _mcr_packs as P
from mjfast.kernels._jit import python_function


@pytest.mark.parametrize("kinds, total", [(P.N_CHOW_KINDS, P.N_CHOW_SETS),
                                          (P.N_PUNG_KINDS, P.N_PUNG_SETS)])
def test_multiset_rank_is_a_bijection(kinds, total):
    rank = python_function(P.multiset_rank)
    ranks = [rank(*t) for t in combinations_with_replacement(range(kinds + 1), 4)]
    assert len(ranks) == total
    assert sorted(ranks) == list(range(total))


def test_sort4_sorts():
    sort4 = python_function(P.sort4)
    rng = np.random.default_rng(5)
    for t in rng.integers(0, 40, size=(2000, 4)).tolist():
        assert list(sort4(*t)) == sorted(t)


def _entry(table, palette, rank):
    word = int(palette[table[rank]])
    fans = {}
    for s in range(P.SLOTS):
        v = (word >> (P.SLOT_BITS * s)) & ((1 << P.SLOT_BITS) - 1)
        if v:
            fans[v & ((1 << P.FAN_BITS) - 1)] = v >> P.FAN_BITS
    return fans


def _by_predicates(codes, chows):
    ft = np.zeros(F.N_FANS, dtype=np.int64)
    m = np.array(sorted(codes) + [0] * (4 - len(codes)), dtype=np.int64)
    if chows:
        F.chow_family(m, len(codes), ft, np.zeros(16, dtype=np.int64))
    else:
        F.pung_family(m, len(codes), ft)
    return {int(f): int(ft[f]) for f in np.flatnonzero(ft)}


@pytest.mark.parametrize("chows", [True, False])
def test_entries_match_the_predicates(chows):
    chow_bytes, pung_bytes, palette = P.table_views(P.pack_tables())
    table = chow_bytes if chows else pung_bytes
    kinds = P.N_CHOW_KINDS if chows else P.N_PUNG_KINDS
    codes = P.CHOW_CODES if chows else P.PUNG_CODES
    index = P.CHOW_INDEX if chows else P.PUNG_INDEX
    rank = python_function(P.multiset_rank)
    rng = np.random.default_rng(11 if chows else 12)
    seen = set()
    for _ in range(3000):
        k = int(rng.integers(0, 5))
        picks = sorted(rng.integers(0, kinds, size=k).tolist())
        key = tuple(sorted(index[codes[p]] for p in picks) + [kinds] * (4 - k))
        got = _entry(table, palette, rank(*key))
        want = _by_predicates([int(codes[p]) for p in picks], chows)
        assert got == want, (picks, got, want)
        seen.update(want)
    # the sample reached the families' fans (not only empty entries)
    assert len(seen) >= (8 if chows else 5)


def test_code_indices():
    assert (P.CHOW_INDEX[P.CHOW_CODES] == np.arange(P.N_CHOW_KINDS)).all()
    assert (P.PUNG_INDEX[P.PUNG_CODES] == np.arange(P.N_PUNG_KINDS)).all()
    assert P.CHOW_INDEX[0] == P.N_CHOW_KINDS and P.PUNG_INDEX[0] == P.N_PUNG_KINDS
    # pung codes are the tiles' calculator codes; chow codes their middles 2..8
    assert sorted(P.PUNG_CODES.tolist()) == sorted(F.REF_CODE.tolist())
    assert (P.CHOW_INDEX >= 0).sum() == P.N_CHOW_KINDS + 1
