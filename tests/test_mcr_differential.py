"""Differential test of the MCR kernel against the reference calculator
(``MahjongGB.MahjongFanCalculator``, PyPI PyMahjongGB 1.4.0), ``botzone`` variant: the fan
lists (id and count, flowers included) and the totals must agree on every hand.

The large run covers every fan at least 50 times (the library's generator: random melds of
every kind, fan patterns and tile pools for the rare fans, see docs/generator.md). Its size is ``MJFAST_MCR_DIFF_N``
(default 1,000,000)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_mcr_gen import gb_args, gb_score, random_batch  # noqa: E402

from mjfast.scoring import mcr  # noqa: E402

pytest.importorskip("MahjongGB")


def reference(b):
    """(fan counts (N, 83), totals (N,), accepted (N,)) from the reference calculator."""
    n = len(b)
    fc = np.zeros((n, 83), dtype=np.int16)
    tot = np.full(n, -1, dtype=np.int32)
    ok = np.zeros(n, dtype=bool)
    for i in range(n):
        g = gb_score(gb_args(b, i))
        if g is not None:
            fc[i], tot[i] = g
            ok[i] = True
    return fc, tot, ok


def check(n, seed, min_cover=0):
    b = random_batch(n, seed)
    mine = mcr.score_batch(b, variant="botzone")
    fc, tot, ok = reference(b)
    assert ok.mean() > 0.999, "the generator should make hands the reference accepts"
    bad = ok & ((mine.fan_counts != fc).any(axis=1) | (mine.totals != tot))
    rows = np.flatnonzero(bad)
    assert rows.size == 0, [(int(i), gb_args(b, int(i)), int(mine.totals[i]), int(tot[i])) for i in rows[:5]]
    if min_cover:
        cover = (fc[ok] > 0).sum(axis=0)
        low = {int(k): int(cover[k]) for k in range(1, 83) if cover[k] < min_cover}
        assert not low, f"fans seen fewer than {min_cover} times: {low}"
    # the official default differs only by 明暗杠 (明杠 1 + 暗杠 2 instead of 5)
    default = mcr.score_batch(b)
    exp = mine.fan_counts.copy()
    both = exp[:, 82] > 0
    exp[both, 74] += 1
    exp[both, 67] += 1
    exp[:, 82] = 0
    assert (default.fan_counts == exp).all()
    assert (default.totals == mine.totals - 2 * both).all()
    return n


def test_differential_quick():
    check(20_000, seed=101)


@pytest.mark.slow
def test_differential_large():
    n = int(os.environ.get("MJFAST_MCR_DIFF_N", "1000000"))
    check(n, seed=20261129, min_cover=50 if n >= 1_000_000 else 0)
