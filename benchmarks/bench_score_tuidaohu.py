"""Tuidaohu and two-player: batch scoring of 1M random complete hands per rule set, and
``score_waits`` on ready hands (hands/s).

    pytest benchmarks/bench_score_tuidaohu.py --benchmark-only     # pytest-benchmark
    python benchmarks/bench_score_tuidaohu.py [N]                  # plain timing, prints hands/s

The hands come from :func:`mjfast.random_hands` (docs/generator.md) (0-4 called melds with
open/added/concealed kongs, about 10% seven pairs, 40% self-drawn), made once per rule
set outside the timed part; the ready hands are the same less their winning tile. The
timed parts are :func:`mjfast.scoring.score_batch` (row validation + the compiled kernel +
the capped/multiplier columns) and :func:`~mjfast.scoring.tuidaohu.score_waits_batch`
(every tile of the set tried on a discard and on a self-draw).

No other library scores Tuidaohu or the two-player game, so the in-run comparison is the
per-hand API (:func:`mjfast.scoring.tuidaohu.score_hand`, which adds settlement and the
Python objects) on a sample of the same hands: ``extra_info["ratio_vs_per_hand"]``.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import fields, replace

import numpy as np
import pytest

from mjfast.scoring import score_batch
from mjfast import random_hands
from mjfast.scoring.tuidaohu import score_hand, score_waits_batch


def random_batch(n, rules, seed):
    return random_hands(n, rules, "complete", seed=seed)

N = int(os.environ.get("MJFAST_BENCH_N", 1_000_000))
N_WAITS = max(N // 10, 1)
N_PER_HAND = 2_000


def ready_of(batch, k=None):
    """The first ``k`` hands less their winning tile (13 tiles: ready hands)."""
    k = len(batch) if k is None else k
    arrays = {f.name: getattr(batch, f.name)[:k].copy() for f in fields(batch)
              if isinstance(getattr(batch, f.name), np.ndarray)}
    r = replace(batch, **arrays)
    r.counts[np.arange(k), r.winning_tile.astype(np.int64)] -= 1
    r.winning_tile[:] = -1
    return r


def per_hand_rate(batch, n=N_PER_HAND) -> float:
    hands = [batch.hand(i) for i in range(min(n, len(batch)))]
    t = time.perf_counter()
    for h in hands:
        score_hand(h)
    return len(hands) / (time.perf_counter() - t)


@pytest.fixture(scope="module", params=["tuidaohu", "two_player"])
def batch(request):
    b = random_batch(N, request.param, seed=2026)
    score_batch(random_batch(100, request.param, seed=1))       # compile / load the cache
    return b


def test_score_batch_1m(benchmark, batch):
    res = benchmark.pedantic(score_batch, args=(batch,), rounds=3, iterations=1)
    assert res.complete.all()
    rate = len(batch) / benchmark.stats.stats.min
    benchmark.extra_info.update(rules=batch.rules, hands=len(batch), hands_per_s=rate,
                                ratio_vs_per_hand=rate / per_hand_rate(batch))


def test_score_waits(benchmark, batch):
    sub = ready_of(batch, N_WAITS)
    score_waits_batch(sub, None)
    res = benchmark.pedantic(score_waits_batch, args=(sub, None), rounds=1, iterations=1)
    assert res.wins.any(axis=1).all()
    benchmark.extra_info.update(rules=batch.rules, hands=len(sub),
                                hands_per_s=len(sub) / benchmark.stats.stats.min)


def _best(fn, *args, rounds=3):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        res = fn(*args)
        best = min(best, time.perf_counter() - t)
    return best, res


def main(n: int = N) -> None:
    for rules in ("tuidaohu", "two_player"):
        b = random_batch(n, rules, seed=2026)
        score_batch(random_batch(100, rules, seed=1))
        dt, res = _best(score_batch, b)
        assert res.complete.all()
        slow = per_hand_rate(b)
        print(f"{rules:11s} score_batch {n:>9,d} hands  {dt:6.3f} s  {n / dt:12,.0f} hands/s"
              f"  (per-hand API {slow:,.0f} hands/s, x{n / dt / slow:,.0f})")
        k = max(n // 10, 1)
        sub = ready_of(b, k)
        score_waits_batch(sub, None)
        dt, res = _best(score_waits_batch, sub, None, rounds=1)
        assert res.wins.any(axis=1).all()
        print(f"{rules:11s} score_waits {k:>9,d} hands  {dt:6.3f} s  {k / dt:12,.0f} hands/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else N)
