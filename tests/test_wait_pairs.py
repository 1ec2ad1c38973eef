"""The waits of ready hands scored in one compiled pass (``scoring._rows.run_pairs``: each
(hand, winning tile) pair as a discard win and as a self-draw) agree with the plain batch
path on the completed hands built one by one, for every rule set; ``meld_tile_counts``
agrees with counting the melds' tiles in Python."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.kernels import context_of, meld_tile_counts
from mjfast.rules import rule_context
from mjfast.scoring import meld_counts, take_rows, wait_pairs
from mjfast.scoring._rows import run_batch
from mjfast.scoring._waits import pair_flags


def _oracle(batch, ctx, r, t, visible):
    """The pairs scored through ``run_batch`` on a batch of completed hands (the same
    flags as the pair kernel gets: what is under test is the kernel, not the flags)."""
    fl_d, fl_s, keep_discarder = pair_flags(batch, r, t, meld_counts(batch), visible)
    pb = take_rows(batch, r)
    pb.counts[np.arange(r.size), t] += 1
    pb.winning_tile[:] = t
    pb.flags = fl_d
    discard = run_batch(pb, ctx)
    pb.flags = fl_s
    if not keep_discarder:
        pb.discarder = np.full(r.size, -1, dtype=np.int8)
    return discard, run_batch(pb, ctx)


@pytest.mark.parametrize("rules", ["mcr", "taiwan", "tuidaohu", "two_player"])
@pytest.mark.parametrize("with_visible", [False, True])
def test_pairs_match_the_batch_path(rules, with_visible):
    b = mjfast.random_hands(600, rules, "ready", seed=11)
    rng = np.random.default_rng(5)
    players = mjfast.get_rules(rules).players
    b.discarder[:] = rng.integers(-1, players, len(b))      # a discarder to keep or drop
    visible = None
    if with_visible:
        visible = rng.integers(0, 3, (len(b), 34)).astype(np.int16)
    ctx = context_of(rule_context(rules, None).profile)
    pairs = wait_pairs(b, ctx, visible)
    assert pairs.row.size > len(b)             # most hands wait on more than one tile
    want_d, want_s = _oracle(b, ctx, pairs.row, pairs.tile, visible)
    for got, want in ((pairs.discard, want_d), (pairs.self_drawn, want_s)):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_pairs_many_threads_match_one():
    """The parallel pair kernel (enough pairs for it) gives the serial kernel's values and
    the plain batch path's (MCR: the self-draw read back from the discard win's memo,
    ``FLAG_SAME_HAND``, on every form of the generator's mix)."""
    import numba
    b = mjfast.random_hands(3000, "mcr", "ready", seed=3)
    ctx = context_of(rule_context("mcr", None).profile)
    many = wait_pairs(b, ctx, None, threads=None)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = wait_pairs(b, ctx, None)
    finally:
        numba.set_num_threads(old)
    want_d, want_s = _oracle(b, ctx, one.row, one.tile, None)
    for a, c, w in ((many.discard, one.discard, want_d), (many.self_drawn, one.self_drawn, want_s)):
        for g, o, x in zip(a, c, w):
            np.testing.assert_array_equal(g, o)
            np.testing.assert_array_equal(o, x)


def test_meld_tile_counts():
    b = mjfast.random_hands(400, "mcr", "complete", seed=4)
    melds = np.ascontiguousarray(b.melds, dtype=np.int8).reshape(len(b), -1, 4).copy()
    n_melds = np.asarray(b.n_melds, dtype=np.uint8).copy()
    # a chow from tile 32 (two of its tiles past the last) and a pung of tile 40: tiles
    # outside 0..33 count nowhere
    melds[0, 0] = (0, 32, 0, 0)
    melds[1, 0] = (1, 40, 0, 0)
    n_melds[:2] = np.maximum(n_melds[:2], 1)
    out = np.full((len(b), 34), 99, dtype=np.int16)
    meld_tile_counts(melds, n_melds, out)
    want = np.zeros((len(b), 34), dtype=np.int16)
    for h in range(len(b)):
        for j in range(n_melds[h]):
            kind, tile = int(melds[h, j, 0]), int(melds[h, j, 1])
            for x, n in ([(tile + d, 1) for d in range(3)] if kind == 0
                         else [(tile, 3 if kind == 1 else 4)]):
                if 0 <= x < 34:
                    want[h, x] += n
    np.testing.assert_array_equal(out, want)
    assert out[0, 32] >= 1 and out[0, 33] >= 1          # the chow's tiles inside the board
