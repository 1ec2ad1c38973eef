"""Batch scoring of 1M random complete hands, Tuidaohu and two-player (hands/s).

    pytest benchmarks/bench_score_tuidaohu.py --benchmark-only     # pytest-benchmark
    python benchmarks/bench_score_tuidaohu.py [N]                  # plain timing, prints hands/s

The hands come from :func:`mjfast.scoring.tuidaohu.random_batch` (0-4 called melds with
open/added/concealed kongs, about 10% seven pairs, 40% self-drawn), made once per rule
set outside the timed part. The timed part is :func:`mjfast.scoring.score_batch` (input
validation + the compiled kernel + the capped/multiplier columns).
"""
from __future__ import annotations

import os
import sys
import time

import pytest

from mjfast.scoring import score_batch
from mjfast.scoring.tuidaohu import random_batch

N = int(os.environ.get("MJFAST_BENCH_N", 1_000_000))


@pytest.fixture(scope="module", params=["tuidaohu", "two_player"])
def batch(request):
    b = random_batch(N, request.param, seed=2026)
    score_batch(random_batch(100, request.param, seed=1))       # compile / load the cache
    return b


def test_score_batch_1m(benchmark, batch):
    res = benchmark.pedantic(score_batch, args=(batch,), rounds=3, iterations=1)
    assert res.complete.all()
    benchmark.extra_info["hands"] = len(batch)
    benchmark.extra_info["rules"] = batch.rules
    benchmark.extra_info["hands_per_s"] = len(batch) / benchmark.stats.stats.min


def main(n: int = N) -> None:
    for rules in ("tuidaohu", "two_player"):
        b = random_batch(n, rules, seed=2026)
        score_batch(random_batch(100, rules, seed=1))
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            res = score_batch(b)
            best = min(best, time.perf_counter() - t)
        assert res.complete.all()
        print(f"{rules:11s} {n:>9,d} hands  {best:6.3f} s  {n / best:12,.0f} hands/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else N)
