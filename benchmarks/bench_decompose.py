"""Decomposer: 1M random complete concealed MCR hands (``mjfast.random_hands(melds=0)``) in batch, against the reference calculator's
scoring call (which decomposes internally) on the same hands."""
from __future__ import annotations

import time

import numpy as np
import pytest

from mjfast import decompose_batch
from handsets import to_mahjonggb

import mjfast

N = 1_000_000
PEER_SAMPLE = 50_000   # the peer is timed on the first hands of the same set


@pytest.fixture(scope="module")
def hands():
    b = mjfast.random_hands(N, "mcr", seed=1, melds=0)      # concealed hands, every form
    return b.counts, b.winning_tile


def _peer_seconds_per_hand(counts, win) -> float:
    MahjongGB = pytest.importorskip("MahjongGB")
    args = [to_mahjonggb(counts[i], int(win[i])) for i in range(PEER_SAMPLE)]
    t0 = time.perf_counter()
    for hand, wt in args:
        try:
            MahjongGB.MahjongFanCalculator(pack=(), hand=hand, winTile=wt, flowerCount=0,
                                           isSelfDrawn=False, is4thTile=False, isAboutKong=False,
                                           isWallLast=False, seatWind=0, prevalentWind=0)
        except Exception:   # under 8 points: the reference raises after decomposing
            pass
    return (time.perf_counter() - t0) / PEER_SAMPLE


def test_decompose_batch_1m(benchmark, hands):
    counts, win = hands
    decompose_batch(counts[:100], "mcr")          # compile / load from cache
    res = benchmark.pedantic(decompose_batch, args=(counts, "mcr"), rounds=3, iterations=1)
    assert (res.count() > 0).all()
    ours = benchmark.stats.stats.min / N
    peer = _peer_seconds_per_hand(counts, win)
    benchmark.extra_info.update({
        "hands": N, "hands_per_s": round(1 / ours), "divisions": int(res.offsets[-1]),
        "mahjonggb_fan_calculator_us_per_hand": round(peer * 1e6, 3),
        "ratio_vs_mahjonggb": round(peer / ours, 1),
    })
    print(f"\ndecompose: {1 / ours:,.0f} hands/s; MahjongGB scoring {peer * 1e6:.2f} us/hand; "
          f"ratio {peer / ours:.1f}x")
