"""The library's random-hand generator (``mjfast.random_hands``): valid hands for every
scorer, the documented mix, determinism whatever the thread count, typed errors."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import hand as H
from mjfast._generate import MIXES, random_hands
from mjfast.errors import ArgumentError, MjfastError, RuleSetError
from mjfast.kernels import _generate as K
from mjfast.rules.registry import RULESETS, get_rules

RULES = list(RULESETS)
FIELDS = ("counts", "winning_tile", "melds", "n_melds", "flowers", "flags", "seat",
          "prevalent", "dealer", "discarder", "streak", "table_discards")


def all_counts(b) -> np.ndarray:
    """(N, 34) every tile held, melds included (kongs as 4)."""
    c = b.counts.astype(np.int64).copy()
    rows = np.arange(len(b))
    for j in range(5):
        kind, t = b.melds[:, j, 0].astype(np.int64), b.melds[:, j, 1].astype(np.int64)
        for d in range(3):
            sel = kind == 0
            np.add.at(c, (rows[sel], t[sel] + d), 1)
        for k, n in ((1, 3), (2, 4)):
            sel = kind == k
            np.add.at(c, (rows[sel], t[sel]), n)
    return c


def test_flag_bits_match_the_hand_model():
    assert (K.F_SELF_DRAWN, K.F_FOURTH_TILE, K.F_LAST_TILE, K.F_KONG_REPLACEMENT,
            K.F_ROBBING_KONG, K.F_ORIGINAL_READY, K.F_FIRST_TURN) == (
        H.SELF_DRAWN, H.FOURTH_TILE, H.LAST_TILE, H.KONG_REPLACEMENT, H.ROBBING_KONG,
        H.ORIGINAL_READY, H.FIRST_TURN)
    assert (K.M_CONCEALED, K.M_ADDED) == (H.MELD_CONCEALED, H.MELD_ADDED)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("kind", ["complete", "ready"])
def test_hands_are_valid(rules, kind):
    rs = get_rules(rules)
    b = random_hands(20_000, rules, kind, seed=11)
    assert len(b) == 20_000 and b.rules == rs.name
    size = rs.hand_size + (kind == "complete")
    assert (b.counts.sum(axis=1) + 3 * b.n_melds.astype(np.int64) == size).all()
    allc = all_counts(b)
    assert allc.max() <= 4
    assert not allc[:, ~rs.kind_mask].any()
    nm = b.n_melds.astype(np.int64)
    used = np.arange(5)[None, :] < nm[:, None]
    kinds = b.melds[:, :, 0]
    assert ((kinds >= 0) == used).all()
    if not rs.chow_allowed:
        assert not (kinds == 0).any()
    conc_kong = (kinds == 2) & ((b.melds[:, :, 2] & H.MELD_CONCEALED) != 0)
    assert (b.melds[:, :, 3][conc_kong] == 0).all()
    assert b.seat.max() < rs.players and b.dealer.max() < rs.players
    if rs.flowers:
        assert b.flowers.max() > 0
    else:
        assert not b.flowers.any()
    if kind == "complete":
        rows = np.arange(len(b))
        assert (b.counts[rows, b.winning_tile.astype(np.int64)] > 0).all()
        sd = (b.flags & H.SELF_DRAWN) != 0
        assert ((b.discarder < 0) == sd).all()
        assert (b.discarder[~sd] != b.seat[~sd]).all()
    else:
        assert (b.winning_tile == -1).all() and (b.discarder == -1).all()
        assert not (b.flags & (H.SELF_DRAWN | H.FOURTH_TILE | H.KONG_REPLACEMENT
                               | H.ROBBING_KONG)).any()
    for i in range(0, len(b), 211):          # every row is a valid Hand (typed validation)
        assert b.hand(i).rules == rs.name


@pytest.mark.parametrize("rules", RULES)
def test_every_scorer_accepts_every_hand(rules):
    from mjfast.scoring import score_batch
    b = random_hands(3000, rules, seed=5)
    res = score_batch(b, rules=rules)
    assert res.complete.all()


def test_ready_is_complete_less_its_winning_tile():
    c = random_hands(5000, "taiwan", "complete", seed=3)
    r = random_hands(5000, "taiwan", "ready", seed=3)
    rows = np.arange(len(c))
    back = r.counts.astype(np.int64)
    back[rows, c.winning_tile.astype(np.int64)] += 1
    assert np.array_equal(back, c.counts)
    for name in ("melds", "n_melds", "flowers", "seat", "prevalent", "dealer", "streak",
                 "table_discards"):
        assert np.array_equal(getattr(r, name), getattr(c, name))


@pytest.mark.parametrize("rules", ["mcr", "two_player"])
def test_same_seed_same_bytes_whatever_the_threads(rules):
    ref = random_hands(30_000, rules, "ready", seed=2**64 - 5, threads=1)
    for threads in (2, 3, 7):
        b = random_hands(30_000, rules, "ready", seed=2**64 - 5, threads=threads)
        for f in FIELDS:
            assert np.array_equal(getattr(b, f), getattr(ref, f)), (threads, f)
    # any split of the rows into ranges, filled in any order, gives the same bytes
    from mjfast._generate import _params
    from mjfast.hand import HandBatch
    rs = get_rules(rules)
    p, q = _params(rs, "ready", None, None)
    b = HandBatch.empty(30_000, rs.name)
    args = (rs.kind_mask, p, q, b.counts, b.winning_tile, b.melds, b.n_melds, b.flowers,
            b.flags, b.seat, b.prevalent, b.dealer, b.discarder, b.streak, b.table_discards)
    for a, z in [(29_999, 30_000), (1001, 29_999), (1000, 1001), (0, 1000)]:
        K.generate_range(np.uint64(2**64 - 5), a, z, *args)
    for f in FIELDS:
        assert np.array_equal(getattr(b, f), getattr(ref, f)), f
    # a prefix is the same hands; another seed gives other hands
    short = random_hands(777, rules, "ready", seed=2**64 - 5)
    assert np.array_equal(short.counts, ref.counts[:777])
    other = random_hands(777, rules, "ready", seed=2**64 - 6)
    assert (other.counts != short.counts).any(axis=1).mean() > 0.9


def test_documented_mix_mcr():
    """The shares in docs/generator.md, measured (100k hands: a few standard errors)."""
    n = 100_000
    b = random_hands(n, "mcr", seed=1)
    mix = MIXES["mcr"]
    nm = b.n_melds
    c = b.counts.astype(np.int64)
    orphans = (nm == 0) & (c[:, [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]] >= 1).all(axis=1)
    assert abs(orphans.mean() - mix["orphans"]) < 0.003
    pairs = (nm == 0) & ((c % 2) == 0).all(axis=1) & ~orphans
    # seven pairs, plus the rare regular hand of pairs only (e.g. 112233m...)
    assert mix["seven_pairs"] - 0.004 < pairs.mean() < mix["seven_pairs"] + 0.01
    self_drawn = (b.flags & H.SELF_DRAWN) != 0
    assert abs(self_drawn.mean() - mix["self_drawn"]) < 0.01
    assert abs((b.flowers > 0).mean() - mix["flowers"]) < 0.01
    kong = (b.melds[:, :, 0] == 2).any(axis=1)
    assert 0.2 < kong.mean() < 0.6
    assert np.bincount(nm, minlength=5).min() > 0.05 * n


@pytest.mark.parametrize("rules", RULES)
def test_fixed_meld_count_and_special_share(rules):
    rs = get_rules(rules)
    for k in range(rs.sets + 1):
        b = random_hands(500, rules, seed=k, melds=k, special=0.0)
        assert (b.n_melds == k).all()
    b = random_hands(2000, rules, seed=9, special=0.0, melds=0)
    from mjfast.scoring import score_batch
    assert score_batch(b, rules=rules).complete.all()


@pytest.mark.parametrize("bad", [
    dict(n=-1), dict(n=1.5), dict(n=True), dict(n="3"), dict(rules="riichi"), dict(rules=3),
    dict(kind="waiting"), dict(seed=-1), dict(seed=2**64), dict(seed=0.5),
    dict(melds=6), dict(melds=-1), dict(special=1.5), dict(special="x"), dict(threads=0),
    dict(tiles=3), dict(kind="wall", tiles=15), dict(kind="wall", melds=1)])
def test_bad_arguments_are_typed_errors(bad):
    args = dict(n=10, rules="mcr", kind="complete", seed=0)
    args.update(bad)
    with pytest.raises(MjfastError) as e:
        random_hands(**args)
    assert isinstance(e.value, (ArgumentError, RuleSetError))


@pytest.mark.parametrize("rules", RULES)
def test_wall_draws(rules):
    rs = get_rules(rules)
    for size in (1, 5, rs.hand_size, rs.win_size):
        b = random_hands(40_000, rules, "wall", seed=size, tiles=size)
        assert (b.counts.sum(axis=1) == size).all() and b.counts.max() <= 4
        assert not b.counts[:, ~rs.kind_mask].any()
        assert not b.n_melds.any() and (b.winning_tile == -1).all()
        # uniform over the wall: every kind's mean count is size / kinds (5 standard errors)
        mean = b.counts[:, rs.kind_mask].mean(axis=0)
        assert np.abs(mean - size / len(rs.kinds)).max() < 5 * np.sqrt(size / len(rs.kinds) / 40_000) + 1e-9
    one = random_hands(20_000, rules, "wall", seed=3, threads=1)
    two = random_hands(20_000, rules, "wall", seed=3, threads=2)
    assert np.array_equal(one.counts, two.counts)
    assert one.counts.sum() == 20_000 * rs.hand_size


def test_zero_hands():
    b = random_hands(0, "taiwan")
    assert len(b) == 0 and b.counts.shape == (0, 34)
