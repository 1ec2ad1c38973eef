"""The compiled single-hand entry points (mjfast.kernels._entry) agree with score_batch,
and other @njit code can call them."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from mjfast import random_hands  # noqa: E402
from mjfast.kernels import _entry as E  # noqa: E402
from mjfast.rules._profile import get_profile  # noqa: E402
from mjfast.scoring import mcr, taiwan, tuidaohu  # noqa: E402

N = 2000


def _batch(rules: str, n: int, seed: int):
    """The library's generator: every form, meld count and situation flag of the rule set."""
    return random_hands(n, rules, "complete", seed=seed)


def _score_batch(rules, variant, b):
    if rules == "mcr":
        return mcr.score_batch(b, variant=variant)
    if rules == "taiwan":
        return taiwan.score_batch(b, variant=variant)
    return tuidaohu.score_batch(b, variant=variant)


def _row_args(b, i):
    return (b.counts[i].astype(np.int64), np.ascontiguousarray(b.melds[i], dtype=np.int8),
            np.int64(b.n_melds[i]), np.int64(b.winning_tile[i]), np.int64(b.flags[i]),
            np.int64(b.seat[i]), np.int64(b.prevalent[i]), np.int64(b.dealer[i]),
            np.int64(b.discarder[i]), np.int64(b.streak[i]), np.int64(b.table_discards[i]),
            np.int64(b.flowers[i]))


@njit
def _loop_entry(counts, melds, n_melds, win, flags, seat, prevalent, dealer, discarder, streak,
                td, flowers, prof, ws, out, totals, legal):
    """Calls the entry point from compiled code, one hand at a time."""
    c = np.zeros(34, dtype=np.int64)
    m = np.zeros((5, 4), dtype=np.int8)
    for h in range(counts.shape[0]):
        for t in range(34):
            c[t] = counts[h, t]
        for j in range(5):
            for k in range(4):
                m[j, k] = melds[h, j, k]
        tot, ok = E.score_hand(c, m, np.int64(n_melds[h]), np.int64(win[h]),
                               np.int64(flags[h]), np.int64(seat[h]), np.int64(prevalent[h]),
                               np.int64(dealer[h]), np.int64(discarder[h]),
                               np.int64(streak[h]), np.int64(td[h]), np.int64(flowers[h]),
                               prof, ws, out[h])
        totals[h] = tot
        legal[h] = ok


CASES = [("mcr", None), ("mcr", "botzone"), ("taiwan", None), ("tuidaohu", None),
         ("two_player", None)]


@pytest.mark.slow
@pytest.mark.parametrize("rules,variant", CASES)
def test_entry_agrees_with_score_batch(rules, variant):
    b = _batch(rules, N, seed=5)
    ref = _score_batch(rules, variant, b)
    prof = get_profile(rules, variant).kernel_args()
    ws = E.workspace(prof)
    ncols = ref.fan_counts.shape[1]
    out = np.zeros((N, prof[0][1]), dtype=np.int64)
    totals = np.zeros(N, dtype=np.int64)
    legal = np.zeros(N, dtype=np.bool_)
    _loop_entry(b.counts, b.melds, b.n_melds, b.winning_tile, b.flags, b.seat, b.prevalent,
                b.dealer, b.discarder, b.streak, b.table_discards, b.flowers, prof, ws, out,
                totals, legal)
    assert (ref.totals >= 0).mean() > 0.9
    np.testing.assert_array_equal(totals, ref.totals)
    np.testing.assert_array_equal(legal, ref.legal)
    np.testing.assert_array_equal(out[:, :ncols], ref.fan_counts)
    # the per-rule-set function, called from Python, on a few rows
    fn = {"mcr": E.score_hand_mcr, "taiwan": E.score_hand_taiwan}.get(rules, E.score_hand_tuidaohu)
    one = np.zeros(prof[0][1], dtype=np.int64)
    for i in range(0, N, 97):
        tot, ok = fn(*_row_args(b, i), prof, ws, one)
        assert (tot, ok) == (ref.totals[i], ref.legal[i])
        np.testing.assert_array_equal(one[:ncols], ref.fan_counts[i])


def test_entry_incomplete_hand():
    prof = get_profile("mcr").kernel_args()
    ws = E.workspace(prof)
    c = np.zeros(34, dtype=np.int64)
    c[0:9] = 1          # 123m 456m 789m 123p 45p: 14 tiles, no pair
    c[9:14] = 1
    out = np.ones(prof[0][1], dtype=np.int64)
    z = np.int64(0)
    melds = np.full((5, 4), -1, dtype=np.int8)
    tot, ok = E.score_hand_mcr(c, melds, z, z, z, z, z, z, np.int64(-1), z, np.int64(-1), z,
                               prof, ws, out)
    assert tot == -1 and not ok and not out.any()
    c[13] += 1          # 15 tiles: not a hand at all
    tot, ok = E.score_hand_mcr(c, melds, z, z, z, z, z, z, np.int64(-1), z, np.int64(-1), z,
                               prof, ws, out)
    assert tot == -1 and not ok


def test_entry_does_not_compile_the_batch_kernels():
    import subprocess
    code = """
import numpy as np
from mjfast.kernels import _entry as E, _score_mcr, _score_taiwan, _score_tuidaohu
from mjfast.rules._profile import get_profile
prof = get_profile("mcr").kernel_args()
c = np.zeros(34, dtype=np.int64); c[0:9] = 1; c[9:12] = 1; c[27] = 2
z = np.int64(0)
out = np.zeros(prof[0][1], dtype=np.int64)
tot, ok = E.score_hand_mcr(c, np.full((5, 4), -1, np.int8), z, z, np.int64(1), z, z, z,
                           np.int64(-1), z, np.int64(-1), z, prof, E.workspace(prof), out)
assert tot > 0, tot
for k in (_score_mcr.score_batch_kernel, _score_mcr.score_waits_kernel,
          _score_taiwan.score_batch_kernel, _score_tuidaohu.score_batch_kernel):
    assert not k.signatures, k
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=str(Path(__file__).parent.parent))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
