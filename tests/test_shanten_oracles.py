"""Differential tests against the reference calculators.

- ``MahjongGB`` (PyMahjongGB 1.4.0, the MCR calculator): ``MahjongShanten`` and the
  per-form functions on 200k random MCR hands. Documented difference (docs/shanten.md):
  MahjongGB lets a regular hand wait on a fifth copy of a tile it holds four of. Every
  mismatch must be exactly that: the calculator's value equals the brute-force regular
  distance with the four-copy limit lifted.
- ``mahjong`` (the riichi library): regular and seven-pairs shanten, which follow the same
  rules except that riichi seven pairs need seven different pairs (a held four is not two
  pairs, so a held triplet is not one tile from two pairs either); seven pairs are compared
  exactly on hands without a triplet or a four, and on the others the riichi value is the
  same or one higher.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from mjfast._shanten import shanten, waits
from test_shanten_bruteforce import random_hands, ref_regular_shanten

MahjongGB = pytest.importorskip("MahjongGB")

GB_NAMES = ([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
            + [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])
GB_FORMS = {
    "regular": "RegularShanten",
    "seven_pairs": "SevenPairsShanten",
    "thirteen_orphans": "ThirteenOrphansShanten",
    "honors_knitted": "HonorsAndKnittedTilesShanten",
    "knitted_straight": "KnittedStraightShanten",
}
N_GB = int(os.environ.get("MJFAST_ORACLE_N", 200_000))


def _gb_tiles(row) -> tuple:
    return tuple(GB_NAMES[t] for t in np.repeat(np.arange(34), row))


def _gb_chunk(rows: np.ndarray) -> np.ndarray:
    """(n, 6): MahjongShanten, then the five per-form functions."""
    import MahjongGB as gb
    out = np.zeros((len(rows), 6), dtype=np.int64)
    for i, row in enumerate(rows):
        t = _gb_tiles(row)
        out[i, 0] = gb.MahjongShanten(pack=(), hand=t)
        for j, fn in enumerate(GB_FORMS.values()):
            out[i, j + 1] = getattr(gb, fn)(t)[0]
    return out


def _gb_all(hands: np.ndarray) -> np.ndarray:
    """Two worker processes (the calculator holds the GIL; CI machines have two cores)."""
    chunks = np.array_split(hands, 8)
    with ProcessPoolExecutor(2) as ex:
        return np.concatenate(list(ex.map(_gb_chunk, chunks)))


@pytest.fixture(scope="module")
def mcr_sample():
    rng = np.random.default_rng(4242)
    return np.concatenate([random_hands(rng, "mcr", 13, N_GB),
                           random_hands(rng, "mcr", 13, N_GB // 10, dense=True)])


@pytest.mark.slow
def test_mahjonggb_all_forms(mcr_sample):
    hands = mcr_sample
    gb = _gb_all(hands)
    ours = shanten(hands, rules="mcr", forms=True)
    # per-form functions other than the regular one: no difference at all
    for j, name in enumerate(GB_FORMS, start=1):
        if name == "regular":
            continue
        bad = np.flatnonzero(gb[:, j] != ours[name])
        assert bad.size == 0, (name, [_gb_tiles(hands[i]) for i in bad[:3]])
    # regular form: every difference is the fifth-copy one, nothing else
    diff = np.flatnonzero(gb[:, 1] != ours["regular"])
    if diff.size:
        no_cap = ref_regular_shanten(hands[diff], "mcr", cap=8)
        unexplained = diff[(gb[diff, 1] != no_cap) | (gb[diff, 1] > ours["regular"][diff])]
        assert unexplained.size == 0, [_gb_tiles(hands[i]) for i in unexplained[:3]]
        assert (hands[diff] == 4).any(axis=1).all()
    # MahjongShanten = the minimum of its forms, with the regular form as it counts it
    gb_min = np.minimum(gb[:, 1], np.min(gb[:, 2:], axis=1))
    assert np.array_equal(gb[:, 0], gb_min)
    expect = ours["shanten"].astype(np.int64).copy()
    if diff.size:
        others = np.min(np.stack([ours[n] for n in GB_FORMS if n != "regular"]), axis=0)
        expect[diff] = np.minimum(gb[diff, 1], others[diff])
    assert np.array_equal(gb[:, 0], expect)
    # the uniform sample alone (hands as dealt) differs in very few rows
    assert (diff < N_GB).sum() <= N_GB // 1000


def test_mahjonggb_fifth_copy_example():
    """The documented difference, on the hand that shows it: 111m 333m 777p 5555s."""
    row = np.zeros(34, dtype=np.uint8)
    row[[0, 2, 15, 22]] = 3
    row[22] = 4
    assert MahjongGB.MahjongShanten(pack=(), hand=_gb_tiles(row)) == 0
    assert shanten(row, rules="mcr") == 1         # 5s would be a fifth copy
    w = waits(row, rules="mcr")
    assert not w.mask[22]


@pytest.mark.slow
def test_mahjonggb_with_melds():
    """Hands with called melds (MahjongShanten with packs): regular form and, with one
    meld, the knitted straight."""
    rng = np.random.default_rng(77)
    for k in (1, 2, 3, 4):
        hands = random_hands(rng, "mcr", 13 - 3 * k, 3000)
        ours = shanten(hands, rules="mcr")
        gb = np.zeros(len(hands), dtype=np.int64)
        for i, row in enumerate(hands):
            # packs of tiles the hand does not hold (the calculator only counts them)
            free = [t for t in range(27, 34) if row[t] == 0][:k]
            packs = tuple(("PENG", GB_NAMES[t], 1) for t in free)
            gb[i] = MahjongGB.MahjongShanten(pack=packs, hand=_gb_tiles(row))
        diff = np.flatnonzero(gb != ours)
        if diff.size:
            no_cap = ref_regular_shanten(hands[diff], "mcr", cap=8)
            assert np.array_equal(gb[diff], np.minimum(no_cap, ours[diff])), k


@pytest.mark.slow
def test_riichi_library_regular_and_seven_pairs(mcr_sample):
    from mahjong.shanten import Shanten
    calc = Shanten()
    hands = mcr_sample[: min(len(mcr_sample), N_GB)]
    ours = shanten(hands, rules="tuidaohu", forms=True)
    lists = [list(map(int, h)) for h in hands]
    reg = np.array([calc.calculate_shanten_for_regular_hand(h) for h in lists])
    assert np.array_equal(reg, ours["regular"])
    # riichi seven pairs need seven different pairs; here a four is two pairs, so a held
    # triplet is one tile from two pairs: the rules coincide on hands without 3 or 4 copies
    same_rules = (hands < 3).all(axis=1)
    sp = np.array([calc.calculate_shanten_for_chiitoitsu_hand(lists[i]) for i in np.flatnonzero(same_rules)])
    assert np.array_equal(sp, ours["seven_pairs"][same_rules])
    other = np.flatnonzero(~same_rules)[:5000]
    sp3 = np.array([calc.calculate_shanten_for_chiitoitsu_hand(lists[i]) for i in other])
    assert (sp3 >= ours["seven_pairs"][other]).all()
    assert (sp3 - ours["seven_pairs"][other] <= 1).all()
