"""Random complete / ready MCR hands for the differential tests, and the bridge to the
reference calculator (PyMahjongGB 1.4.0, ``import MahjongGB``).

``random_batch(n, seed)`` builds a :class:`HandBatch` of complete hands from random melds
(chows / pungs / kongs of every kind, called or concealed) + a pair, mixed with targeted
generators for the rare fans (patterns of chows and pungs, one-suit / honor / terminal /
green / reversible / rank-band pools, seven pairs, thirteen orphans, knitted forms, nine
gates, seven shifted pairs), with random situation flags and flowers.
"""
from __future__ import annotations

import numpy as np
import pytest

from mjfast.hand import (FIRST_TURN, FOURTH_TILE, KONG_REPLACEMENT, LAST_TILE, MELD_ADDED,
                         MELD_CONCEALED, ROBBING_KONG, SELF_DRAWN, HandBatch)

GB_NAMES = ([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
            + [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])

SUITED = list(range(27))
HONORS = list(range(27, 34))
WINDS = list(range(27, 31))
DRAGONS = list(range(31, 34))
TERMS = [0, 8, 9, 17, 18, 26]
GREEN = [19, 20, 21, 23, 25, 32]           # 2 3 4 6 8 s + 發
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33]


class _Rng:
    """The few numpy-Generator methods the generator uses, on Python's ``random`` (scalar
    draws are ~20x cheaper there; the hands are made one by one)."""

    def __init__(self, seed):
        import random
        self.r = random.Random(seed)

    def integers(self, lo, hi):
        return self.r.randrange(lo, hi)

    def random(self):
        return self.r.random()

    def choice(self, seq, size=None, replace=True):
        if isinstance(seq, int):
            seq = range(seq)
        seq = list(seq)
        if size is None:
            return self.r.choice(seq)
        if replace:
            return [self.r.choice(seq) for _ in range(size)]
        return self.r.sample(seq, size)

    def permutation(self, x):
        x = list(range(x)) if isinstance(x, int) else list(x)
        self.r.shuffle(x)
        return x


def _pool(rng):
    k = rng.integers(0, 16)
    if k <= 3:
        return list(range(34))
    if k == 4:
        s = rng.integers(0, 3) * 9
        return list(range(s, s + 9))
    if k == 5:
        s = rng.integers(0, 3) * 9
        return list(range(s, s + 9)) + HONORS
    if k == 6:
        return TERMS + HONORS
    if k == 7:
        return GREEN
    if k == 8:
        return REVERSIBLE
    if k == 9:
        lo, hi = [(0, 3), (0, 4), (5, 9), (6, 9), (3, 6)][rng.integers(0, 5)]
        return [s * 9 + r for s in range(3) for r in range(lo, hi)]
    if k == 10:
        return [s * 9 + r for s in range(3) for r in (1, 3, 5, 7)]
    if k == 11:
        return HONORS
    if k == 12:
        return TERMS
    if k == 13:
        return WINDS + DRAGONS + list(range(rng.integers(0, 3) * 9, 27))
    if k == 14:
        return [s * 9 + r for s in range(3) for r in range(2, 7)]
    return list(range(27))


def _random_set(rng, pool):
    """A chow or a pung (or a kong marker) whose tiles are in pool (chows may stick out)."""
    for _ in range(20):
        t = int(rng.choice(pool))
        if rng.random() < 0.5 and t < 27:
            lo = t - int(rng.integers(0, 3))
            if lo // 9 == t // 9 and lo % 9 <= 6 and lo >= 0:
                if all((lo + d) in pool for d in range(3)) or rng.random() < 0.15:
                    return (0, lo)
        return (1, t)
    return (1, int(rng.choice(pool)))


def _pattern(rng):
    """0..4 sets forming a fan pattern."""
    k = rng.integers(0, 12)
    suits = rng.permutation(3)
    if k == 0:   # shifted / identical chows
        n = int(rng.integers(2, 5))
        step = int(rng.integers(0, 3))
        mixed = rng.random() < 0.4 and n <= 3
        start = int(rng.integers(0, 7 - step * (n - 1))) if 7 - step * (n - 1) > 0 else 0
        return [(0, (suits[i] if mixed else suits[0]) * 9 + start + step * i) for i in range(n)]
    if k == 1:   # shifted / identical pungs
        n = int(rng.integers(2, 5))
        step = int(rng.integers(0, 2))
        mixed = rng.random() < 0.5 and n <= 3
        if not mixed and step == 0:
            step = 1
        start = int(rng.integers(0, 9 - step * (n - 1)))
        return [(1, (suits[i] if mixed else suits[0]) * 9 + start + step * i) for i in range(n)]
    if k == 2:   # straights
        mixed = rng.random() < 0.5
        return [(0, (suits[i] if mixed else suits[0]) * 9 + 3 * i) for i in range(3)]
    if k == 3:   # terminal chows
        if rng.random() < 0.5:
            s = suits[0] * 9
            return [(0, s), (0, s), (0, s + 6), (0, s + 6)]
        return [(0, suits[0] * 9), (0, suits[0] * 9 + 6), (0, suits[1] * 9), (0, suits[1] * 9 + 6)]
    if k == 4:   # winds
        ws = list(rng.permutation(WINDS)[: int(rng.integers(2, 5))])
        return [(1, int(w)) for w in ws]
    if k == 5:   # dragons
        ds = list(rng.permutation(DRAGONS)[: int(rng.integers(1, 4))])
        return [(1, int(d)) for d in ds]
    if k == 6:   # two terminal chows / short straight / mixed double
        s = suits[0] * 9
        return [[(0, s), (0, s + 6)], [(0, s + 1), (0, s + 4)], [(0, s + 2), (0, suits[1] * 9 + 2)]][rng.integers(0, 3)]
    if k == 7:   # same-rank pungs
        r = int(rng.integers(0, 9))
        return [(1, suits[i] * 9 + r) for i in range(int(rng.integers(2, 4)))]
    return []


def _regular(rng):
    pool = _pool(rng)
    sets = _pattern(rng) if rng.random() < 0.6 else []
    while len(sets) < 4:
        sets.append(_random_set(rng, pool))
    sets = [sets[i] for i in rng.permutation(len(sets))][:4]
    pair = int(rng.choice(pool)) if rng.random() < 0.85 else int(rng.integers(0, 34))
    # kongs: a pung may become a kong (it must then be a meld)
    n_melds = int(rng.integers(0, 5))
    kinds = []
    for (kd, t) in sets:
        if kd == 1 and rng.random() < 0.22:
            kinds.append((2, t))
        else:
            kinds.append((kd, t))
    # kongs first among the melds so that every kong is a meld
    kinds.sort(key=lambda s: -1 if s[0] == 2 else 0)
    n_kongs = sum(1 for s in kinds if s[0] == 2)
    n_melds = max(n_melds, n_kongs)
    return kinds, pair, n_melds


def _tiles_of(kind, t):
    if kind == 0:
        return [t, t + 1, t + 2]
    return [t] * (3 if kind == 1 else 4)


def random_hands(n: int, seed: int = 0):
    """Yield (concealed tiles incl. winning tile, melds [(kind, tile, flags, claimed)],
    winning tile) of complete hands."""
    rng = _Rng(seed)
    out = 0
    while out < n:
        r = rng.random()
        melds = []
        if r < 0.80:
            sets, pair, nm = _regular(rng)
            conc = []
            for i, (kd, t) in enumerate(sets):
                if i < nm:
                    if kd == 0:
                        melds.append((0, t, 0, int(rng.integers(1, 4))))
                    elif kd == 1:
                        melds.append((1, t, 0, int(rng.integers(1, 4))))
                    else:
                        v = rng.random()
                        if v < 0.4:
                            melds.append((2, t, MELD_CONCEALED, 0))
                        elif v < 0.7:
                            melds.append((2, t, 0, int(rng.integers(1, 4))))
                        else:
                            melds.append((2, t, MELD_ADDED, int(rng.integers(1, 4))))
                else:
                    conc += _tiles_of(kd, t)
            conc += [pair, pair]
        elif r < 0.86:   # seven pairs (a held four counts as two pairs)
            pool = _pool(rng)
            if rng.random() < 0.2:
                s = int(rng.integers(0, 3)) * 9 + int(rng.integers(0, 3))
                conc = [s + k for k in range(7) for _ in range(2)]
            else:
                conc = [int(t) for t in rng.choice(pool, 7) for _ in range(2)]
        elif r < 0.89:   # thirteen orphans
            conc = TERMS + HONORS + [int(rng.choice(TERMS + HONORS))]
        elif r < 0.93:   # honors and knitted
            perm = rng.permutation(3)
            knit = [int(perm[g]) * 9 + g + 3 * j for g in range(3) for j in range(3)]
            tiles = knit + HONORS
            drop = rng.choice(16, 2, replace=False) if rng.random() < 0.8 else rng.choice(9, 2, replace=False)
            conc = [t for i, t in enumerate(tiles) if i not in set(int(x) for x in drop)]
        elif r < 0.97:   # knitted straight + set + pair
            perm = rng.permutation(3)
            knit = [int(perm[g]) * 9 + g + 3 * j for g in range(3) for j in range(3)]
            kd, t = _random_set(rng, _pool(rng))
            if rng.random() < 0.15:
                kd = 2
            pair = int(rng.integers(0, 34))
            if rng.random() < 0.4 or kd == 2:
                if kd == 2:
                    v = rng.random()
                    fl = MELD_CONCEALED if v < 0.5 else (MELD_ADDED if v < 0.75 else 0)
                    melds.append((2, t, fl, 0 if fl == MELD_CONCEALED else int(rng.integers(1, 4))))
                else:
                    melds.append((kd, t, 0, int(rng.integers(1, 4))))
                conc = knit + [pair, pair]
            else:
                conc = knit + _tiles_of(kd, t) + [pair, pair]
        else:            # nine gates
            s = int(rng.integers(0, 3)) * 9
            conc = [s] * 3 + [s + k for k in range(1, 8)] + [s + 8] * 3 + [s + int(rng.integers(0, 9))]
        allt = list(conc)
        for (kd, t, fl, cl) in melds:
            allt += _tiles_of(kd, t)
        cnt = [0] * 34
        for t in allt:
            cnt[t] += 1
        if max(cnt) > 4:
            continue
        if len(conc) + 3 * len(melds) != 14:
            continue
        win = int(conc[rng.integers(0, len(conc))])
        out += 1
        yield conc, melds, win


def random_batch(n: int, seed: int = 0) -> HandBatch:
    """A HandBatch of n random complete hands with random situations and flowers."""
    rng = np.random.default_rng(seed + 1_000_003)
    b = HandBatch.empty(n, "mcr")
    for i, (conc, melds, win) in enumerate(random_hands(n, seed)):
        b.counts[i] = np.bincount(conc, minlength=34)
        b.winning_tile[i] = win
        for j, m in enumerate(melds):
            b.melds[i, j] = m
        b.n_melds[i] = len(melds)
    u = rng.random((n, 6))
    self_drawn = u[:, 0] < 0.45
    flags = np.where(self_drawn, SELF_DRAWN, 0)
    flags |= np.where(u[:, 1] < 0.12, FOURTH_TILE, 0)
    flags |= np.where(u[:, 2] < 0.08, LAST_TILE, 0)
    kong = u[:, 3] < 0.10
    flags |= np.where(kong & self_drawn, KONG_REPLACEMENT, 0)
    flags |= np.where(kong & ~self_drawn, ROBBING_KONG, 0)
    b.flags[:] = flags
    b.seat[:] = rng.integers(0, 4, n)
    b.prevalent[:] = rng.integers(0, 4, n)
    b.flowers[:] = np.where(u[:, 4] < 0.5, 0, rng.integers(0, 9, n))
    disc = (b.seat.astype(np.int64) + rng.integers(1, 4, n)) % 4
    b.discarder[:] = np.where(self_drawn, -1, disc)
    return b


def gb_args(b: HandBatch, i: int):
    """The reference calculator's arguments for row i (botzone pack offers)."""
    packs = []
    mc = np.zeros(34, dtype=np.int64)
    for j in range(int(b.n_melds[i])):
        kd, t, fl, cl = (int(x) for x in b.melds[i, j])
        if kd == 0:
            packs.append(("CHI", GB_NAMES[t + 1], cl))
        elif kd == 1:
            packs.append(("PENG", GB_NAMES[t], cl))
        else:
            packs.append(("GANG", GB_NAMES[t], 0 if fl & MELD_CONCEALED else cl))
    c = b.counts[i].astype(np.int64).copy()
    w = int(b.winning_tile[i])
    c[w] -= 1
    hand = tuple(GB_NAMES[t] for t in np.repeat(np.arange(34), c))
    fl = int(b.flags[i])
    return (tuple(packs), hand, GB_NAMES[w], int(b.flowers[i]), bool(fl & SELF_DRAWN),
            bool(fl & FOURTH_TILE), bool(fl & (KONG_REPLACEMENT | ROBBING_KONG)),
            bool(fl & LAST_TILE), int(b.seat[i]), int(b.prevalent[i]))


_EN_TO_ID: dict[str, int] = {}


def en_to_id() -> dict[str, int]:
    if not _EN_TO_ID:
        from mjfast.scoring.mcr import rule_table
        _EN_TO_ID.update({r.en: r.id for r in rule_table("botzone").rows})
    return _EN_TO_ID


def gb_score(args):
    """(fan counts (83,), total) from the reference calculator, or None if it rejects."""
    import MahjongGB
    try:
        res = MahjongGB.MahjongFanCalculator(*args, verbose=True)
    except TypeError:
        return None
    m = en_to_id()
    fc = np.zeros(83, dtype=np.int64)
    tot = 0
    for pts, cnt, zh, en in res:
        fc[m[en]] += cnt
        tot += pts * cnt
    return fc, tot


def test_generator_makes_complete_hands():
    b = random_batch(500, seed=3)
    assert (b.counts.sum(axis=1) + 3 * b.n_melds == 14).all()
    assert (b.winning_tile >= 0).all()
    pytest.importorskip("MahjongGB")
    ok = sum(gb_score(gb_args(b, i)) is not None for i in range(len(b)))
    assert ok >= 480
