"""The one-hand paths (``mjfast.score``, ``score_waits``) against the batch kernels.

A one-hand call reuses its thread's scoring scratch, shares its FanHit items and its
settlement parameters between calls: none of that may change a result. Hands of the four
rule sets are scored interleaved (one scratch per context size, reused across rule
sets), and from two Python threads at once.
"""
from __future__ import annotations

import threading
from dataclasses import fields

import numpy as np
import pytest

import mjfast
from mjfast import HandBatch, random_hands
from mjfast.rules import get_profile
from mjfast.tiles import tile_name

RULES = ("mcr", "taiwan", "tuidaohu", "two_player")
N = 120


def _hands(rules: str, kind: str = "complete", n: int = N, seed: int = 11):
    b = random_hands(n, rules, kind, seed=seed)
    return b, [b.hand(i) for i in range(n)]


def _expected(rules: str, res, i: int):
    """(total, fans as (id, points, count) in the scorer's order) of row ``i`` of the batch
    kernel's scores ``res``, named from the rule table."""
    table = get_profile(rules, None)
    counts = res.fan_counts[i]
    fans = [(int(f), table.row(int(f)).points, int(counts[f])) for f in np.flatnonzero(counts)]
    if rules == "mcr":
        fans.sort(key=lambda x: (-x[1], x[0]))
    return int(res.totals[i]), fans


def test_from_hands_round_trips_every_field():
    for rules in RULES:
        b, hands = _hands(rules)
        again = HandBatch.from_hands(hands)
        for f in fields(b):
            x, y = getattr(b, f.name), getattr(again, f.name)
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and x.shape == y.shape, (rules, f.name)
                assert np.array_equal(x, y), (rules, f.name)
        assert again.rules == b.rules
    empty = HandBatch.from_hands([])
    assert len(empty) == 0 and empty.counts.shape == (0, 34) and empty.melds.shape == (0, 5, 4)


def test_score_agrees_with_the_batch_kernel_interleaved_across_rule_sets():
    data = {r: _hands(r) for r in RULES}
    scores = {r: mjfast.score_batch(data[r][0]) for r in RULES}
    checked = 0
    for i in range(N):
        for rules in RULES:          # each call on a context other than the previous one's
            _, hands = data[rules]
            want_total, want_fans = _expected(rules, scores[rules], i) if i < 40 else (None, None)
            try:
                got = mjfast.score(hands[i])
            except mjfast.IncompleteHandError:
                assert scores[rules].totals[i] < 0
                continue
            if want_total is None:
                continue
            assert got.total == want_total, (rules, i)
            assert [(f.id, f.points, f.count) for f in got.fans] == want_fans, (rules, i)
            checked += 1
    assert checked > 100


def test_fan_hits_are_named_from_the_table():
    b, hands = _hands("mcr", n=30)
    table = get_profile("mcr", None)
    for h in hands:
        for f in mjfast.score(h).fans:
            r = table.row(f.id)
            assert (f.name_en, f.name_zh, f.name_ja, f.points) == (r.en, r.zh, r.ja, r.points)


@pytest.mark.parametrize("rules", ["mcr", "taiwan"])
def test_score_waits_agrees_with_the_batch_kernel(rules):
    batch, hands = _hands(rules, "ready", n=40, seed=3)
    grid = mjfast.scoring.mcr.score_waits_batch(batch) if rules == "mcr" else \
        mjfast.scoring.taiwan.score_waits_batch(batch)
    for i, h in enumerate(hands):
        got = mjfast.score_waits(h)
        tiles = np.flatnonzero(grid.wins[i]).tolist()
        assert [w["tile"] for w in got] == [tile_name(t) for t in tiles], (rules, i)
        for w, t in zip(got, tiles):
            assert w["total_discard"] == grid.total_discard[i, t]
            assert w["total_self_drawn"] == grid.total_self_drawn[i, t]


def test_two_threads_score_as_one():
    _, hands = _hands("mcr", n=200, seed=5)
    serial = [mjfast.score(h).to_dict() for h in hands]
    out: dict[int, list] = {}

    def work(k):
        out[k] = [mjfast.score(h).to_dict() for h in hands]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0] == serial and out[1] == serial
