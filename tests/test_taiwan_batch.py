"""Taiwan batch scoring, waits and property tests (random complete 17-tile hands)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast.errors import InvalidCountsError
from mjfast.hand import SELF_DRAWN, HandBatch
from mjfast.scoring import score_batch, score_waits
from mjfast.scoring import taiwan as tw

from test_taiwan import SEED_HAND, H, T, chow

POINTS = tw.FAN_TABLE.table.points_array(tw.FAN_TABLE.n_cols).astype(np.int64)
NO_FLOWER_IDS = [tw.FAN_TABLE.row(k).id for k in ("no_flowers", "no_honors_no_flowers",
                                                   "pure_all_chows")]


@pytest.fixture(scope="module")
def batch():
    return mjfast.random_hands(3000, "taiwan", seed=7)


def test_random_batch_all_complete_and_totals_are_sums(batch):
    res = score_batch(batch, rules="taiwan")
    assert res.complete.all() and res.legal.all()
    assert (res.totals >= 2).all()
    assert np.array_equal((res.fan_counts.astype(np.int64) * POINTS).sum(axis=1), res.totals)
    # every item of the table fires somewhere except the rare situational/standalone ones
    fired = {tw.FAN_TABLE.row(int(i)).key for i in np.flatnonzero(res.fan_counts.sum(axis=0))}
    assert {"win_shape", "flowers", "honor_pung", "all_pungs", "seven_pairs_triplet",
            "concealed_kong", "open_kong", "all_chows", "two_concealed_pungs"} <= fired


def test_batch_matches_single_hand(batch):
    res = score_batch(batch, rules="taiwan")
    for i in range(0, len(batch), 15):
        h = batch.hand(i)
        one = tw.score_hand(h)
        assert one.total == res.totals[i]
        row = {f.id: f.count for f in one.fans}
        assert row == {int(j): int(res.fan_counts[i, j]) for j in np.flatnonzero(res.fan_counts[i])}
        assert one.extras["dealer_bonus"] == res.extras["dealer_bonus"][i]
        assert one.settlement[one.extras["winner"]] == res.extras["winner_gain"][i]
        assert sum(one.settlement.values()) == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), melds=st.one_of(st.none(), st.integers(0, 5)),
       special=st.floats(0, 0.5))
def test_property_random_complete_hand_scores(seed, melds, special):
    b = mjfast.random_hands(1, "taiwan", seed=seed, melds=melds, special=special)
    res = mjfast.score(b.hand(0), rules="taiwan")
    assert res.total == sum(f.points * f.count for f in res.fans)
    assert res.total >= 2
    assert sum(res.settlement.values()) == 0


def _with_flowers(b: HandBatch, flowers: np.ndarray) -> HandBatch:
    import dataclasses
    return dataclasses.replace(b, flowers=flowers.astype(np.uint8))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_property_flowers_monotone(seed):
    """Removing a flower never lowers the no-flower items (無花, 無字無花, 清平和・花なし);
    adding one never raises them; the 花牌 count follows the flowers."""
    b = mjfast.random_hands(200, "taiwan", seed=seed)
    f = b.flowers.astype(np.int64)
    cur = score_batch(b).fan_counts[:, NO_FLOWER_IDS].astype(int)
    less = score_batch(_with_flowers(b, np.maximum(f - 1, 0))).fan_counts[:, NO_FLOWER_IDS]
    more_b = _with_flowers(b, np.minimum(f + 1, 7))
    more = score_batch(more_b).fan_counts
    assert (less >= cur).all()
    assert (more[:, NO_FLOWER_IDS] <= cur).all()
    assert (more[:, tw.FAN_TABLE.row("flowers").id] == np.minimum(f + 1, 7)).all()


def test_incomplete_rows_and_invalid_counts():
    b = mjfast.random_hands(10, "taiwan", seed=3)
    b.winning_tile[2] = -1
    rows = np.arange(10)
    b.counts[5] = 0
    b.counts[5, :5] = 3      # not a hand
    res = score_batch(b)
    assert not res.complete[2] and not res.complete[5] and res.totals[5] == -1
    assert res.complete.sum() == 8
    b.counts[7, 0] = 5
    with pytest.raises(InvalidCountsError):
        score_batch(b)
    del rows


def test_eight_flowers_in_batch():
    b = mjfast.random_hands(5, "taiwan", seed=11)
    b.flowers[:] = 8
    res = score_batch(b)
    assert (res.totals == 30).all()
    assert (res.fan_counts[:, 42] == 1).all() and res.fan_counts.sum() == 5
    assert (res.extras["dealer_bonus"] == 0).all()
    assert (res.extras["winner_gain"] == 90).all()


def test_score_waits_seed_hand():
    h = mjfast.Hand(tuple(T(SEED_HAND)), (chow("1m"),), None, rules="taiwan")
    w = score_waits(h, rules="taiwan")
    by_tile = {d["tile"]: d for d in w}
    assert set(by_tile) == {"5m"}
    assert by_tile["5m"]["total_discard"] == 8 and by_tile["5m"]["total_self_drawn"] == 9
    assert by_tile["5m"]["live"] == 2      # two 5m held


def test_score_waits_matches_scoring_each_wait():
    rb = mjfast.random_hands(150, "taiwan", "ready", seed=5)
    ws = tw.score_waits_batch(rb, None)
    # every hand has at least the tile it was built from
    assert ws.wins.any(axis=1).all()
    n = len(rb)
    hand_idx, tiles = np.nonzero(rb.counts < 4)     # a fifth concealed copy is no hand
    assert not ws.wins[rb.counts >= 4].any()
    big = HandBatch.empty(len(hand_idx), "taiwan")
    for name in ("melds", "n_melds", "flowers", "seat", "prevalent", "dealer", "streak",
                 "table_discards"):
        getattr(big, name)[:] = getattr(rb, name)[hand_idx]
    big.counts[:] = rb.counts[hand_idx]
    big.counts[np.arange(len(hand_idx)), tiles] += 1
    big.winning_tile[:] = tiles
    allc = big.counts.astype(int).copy()
    for j in range(5):
        kind, t = big.melds[:, j, 0], big.melds[:, j, 1].astype(int)
        for d in range(3):
            sel = kind == 0
            np.add.at(allc, (np.flatnonzero(sel), t[sel] + d), 1)
        for k, c in ((1, 3), (2, 4)):
            sel = kind == k
            np.add.at(allc, (np.flatnonzero(sel), t[sel]), c)
    possible = (allc <= 4).all(axis=1)
    # discard: the batch's discarder (a random other seat), no self-draw flags
    big.flags[:] = rb.flags[hand_idx] & ~np.uint16(SELF_DRAWN | 8)
    big.discarder[:] = (rb.seat[hand_idx] + 1) % 4
    disc = score_batch(big)
    big.flags[:] = (rb.flags[hand_idx] | SELF_DRAWN) & ~np.uint16(16)
    big.discarder[:] = -1
    selfd = score_batch(big)
    wins = ws.wins[hand_idx, tiles]
    assert np.array_equal(wins, disc.complete & possible)
    assert np.array_equal(ws.total_self_drawn[hand_idx, tiles], np.where(wins, selfd.totals, -1))
    # the discard totals do not depend on who discarded except for 地和 (first turn)
    first = (rb.flags[hand_idx] & 64) != 0
    ok = ~first
    assert np.array_equal(ws.total_discard[hand_idx, tiles][ok],
                          np.where(wins, disc.totals, -1)[ok])


def test_score_waits_live_counts():
    rb = mjfast.random_hands(20, "taiwan", "ready", seed=9)
    vis = np.zeros((20, 34), dtype=np.uint8)
    vis[:, 0] = 1
    ws = tw.score_waits_batch(rb, vis)
    assert (ws.live >= 0).all() and (ws.live <= 4).all()
    ws0 = tw.score_waits_batch(rb, None)
    assert (ws.live[:, 0] == np.maximum(ws0.live[:, 0].astype(int) - 1, 0)).all()


def test_batch_discarder_missing_matches_single_hand():
    b = mjfast.random_hands(400, "taiwan", seed=21)
    ron = (b.flags & SELF_DRAWN) == 0
    b.discarder[ron] = -1
    res = score_batch(b)
    for i in np.flatnonzero(ron)[:120]:
        one = tw.score_hand(b.hand(int(i)))
        assert one.extras["discarder_assumed"]
        assert one.extras["dealer_bonus"] == res.extras["dealer_bonus"][i]
        assert one.settlement[one.extras["winner"]] == res.extras["winner_gain"][i]


def test_unknown_variant():
    from mjfast.errors import RuleSetError
    with pytest.raises(RuleSetError):
        tw.get_table("no_such_variant")


def test_score_table_taiwan():
    import polars as pl
    df = pl.DataFrame({"hand": ["[123m,1]456m789p222s678s5m5m", "123m456m789p222s678s5m5m",
                                "123m456m789p222s678s5m9p"]})
    out = mjfast.score_table(df, rules="taiwan")
    assert out["total"].to_list() == [8, 9, None]      # discard wins (no --tsumo)
    assert out["error"].to_list()[2] is not None
