"""Random complete MCR hands for the differential tests, and the bridge to the reference
calculator (PyMahjongGB 1.4.0, ``import MahjongGB``).

``random_batch(n, seed)`` is the library's generator (:func:`mjfast.random_hands`): random
melds (chows / pungs / kongs of every kind, called or concealed) + a pair, mixed with fan
patterns and tile pools for the rare fans (one-suit / honor / terminal / green /
reversible / rank-band pools, seven pairs, thirteen orphans, knitted forms, nine gates,
seven shifted pairs), with random situation flags and flowers (docs/generator.md).
"""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import random_hands
from mjfast.hand import (FOURTH_TILE, KONG_REPLACEMENT, LAST_TILE, MELD_CONCEALED,
                         ROBBING_KONG, SELF_DRAWN, HandBatch)

GB_NAMES = ([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
            + [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])


def random_batch(n: int, seed: int = 0) -> HandBatch:
    """n random complete MCR hands with random situations and flowers: the library's
    generator (``mjfast.random_hands``, mix in docs/generator.md)."""
    return random_hands(n, "mcr", "complete", seed=seed)


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
