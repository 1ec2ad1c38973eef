"""The compiled per-hand entry (``mjfast.kernels.score_row``: the linked scorer symbols)
called from other compiled code agrees with score_batch, handles incomplete rows, and
the scorers' machine code is not generated again in the caller."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import random_hands
from mjfast.kernels import (R_COUNTS, R_DEALER, R_DISCARDER, R_FLAGS, R_FLOWERS, R_LEGAL,
                            R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT, R_STREAK,
                            R_TABLE_DISCARDS, R_WIN, ROW_SIZE, X_NCOLS, X_WS_LEN, context_for,
                            kernel,
                            new_row, new_workspace, score_row)
from mjfast.scoring import scorer_module

N = 2000


@kernel
def _loop_rows(ctx, counts, melds, n_melds, win, flags, seat, prevalent, dealer, discarder,
               streak, td, flowers, out, totals, legal):
    """Calls the entry from compiled code, one hand at a time."""
    ws = np.zeros(ctx[X_WS_LEN], dtype=np.int64)
    row = np.zeros(ROW_SIZE, dtype=np.int64)
    for h in range(counts.shape[0]):
        for t in range(34):
            row[R_COUNTS + t] = counts[h, t]
        for j in range(5):
            for k in range(4):
                row[R_MELDS + 4 * j + k] = melds[h, j, k]
        row[R_N_MELDS] = n_melds[h]
        row[R_WIN] = win[h]
        row[R_FLAGS] = flags[h]
        row[R_SEAT] = seat[h]
        row[R_PREVALENT] = prevalent[h]
        row[R_DEALER] = dealer[h]
        row[R_DISCARDER] = discarder[h]
        row[R_STREAK] = streak[h]
        row[R_TABLE_DISCARDS] = td[h]
        row[R_FLOWERS] = flowers[h]
        totals[h] = score_row(ctx, ws, row, out[h])
        legal[h] = row[R_LEGAL] != 0


CASES = [("mcr", None), ("mcr", "botzone"), ("taiwan", None), ("tuidaohu", None),
         ("two_player", None)]


@pytest.mark.slow
@pytest.mark.parametrize("rules,variant", CASES)
def test_compiled_callers_agree_with_score_batch(rules, variant):
    b = random_hands(N, rules, "complete", seed=5)
    ref = scorer_module(rules).score_batch(b, variant=variant)
    ctx = context_for(rules, variant)
    ncols = int(ctx[X_NCOLS])
    out = np.zeros((N, ncols), dtype=np.int64)
    totals = np.zeros(N, dtype=np.int64)
    legal = np.zeros(N, dtype=np.bool_)
    _loop_rows(ctx, b.counts, b.melds, b.n_melds, b.winning_tile, b.flags, b.seat,
               b.prevalent, b.dealer, b.discarder, b.streak, b.table_discards, b.flowers,
               out, totals, legal)
    assert (ref.totals >= 0).mean() > 0.9
    np.testing.assert_array_equal(totals, ref.totals)
    np.testing.assert_array_equal(legal, ref.legal)
    np.testing.assert_array_equal(out, ref.fan_counts)


def test_incomplete_rows_score_nothing():
    ctx = context_for("mcr")
    ws = new_workspace(ctx)
    row = new_row()
    row[R_COUNTS:R_COUNTS + 14] = 1      # 123m 456m 789m 123p 45p: 14 tiles, no pair
    row[R_MELDS:R_MELDS + 20:4] = -1
    row[R_DISCARDER] = -1
    row[R_TABLE_DISCARDS] = -1
    fans = np.ones(int(ctx[X_NCOLS]), dtype=np.int64)
    assert _score_one(ctx, ws, row, fans) == -1 and not fans.any() and row[R_LEGAL] == 0
    row[R_COUNTS + 13] += 1               # 15 tiles: not a hand at all
    assert _score_one(ctx, ws, row, fans) == -1
    row[R_COUNTS + 13] = 5                # a fifth copy
    assert _score_one(ctx, ws, row, fans) == -1
    row[R_COUNTS + 13] = 1
    row[R_COUNTS + 12] = 3                # 14 tiles again, one count negative
    row[R_COUNTS + 0] = -1
    assert _score_one(ctx, ws, row, fans) == -1 and not fans.any()


@kernel
def _score_one(ctx, ws, row, fans):
    return score_row(ctx, ws, row, fans)


def test_a_caller_does_not_contain_the_scorers():
    """The caller's machine code calls the scorer symbols; it does not hold their code."""
    from numba import njit

    @njit(cache=False)        # compiled here, not loaded: its IR can be read
    def caller(ctx, ws, row, fans):
        return score_row(ctx, ws, row, fans)

    ctx = context_for("taiwan")
    caller(ctx, new_workspace(ctx), new_row(), np.zeros(64, dtype=np.int64))
    ir = caller.overloads[caller.signatures[0]].library.get_llvm_str()
    assert "mjfast_score_mcr_" in ir and "mjfast_score_taiwan_" in ir
    assert "score_one" not in ir and "divisions" not in ir
