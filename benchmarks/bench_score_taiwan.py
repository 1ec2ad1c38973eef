"""Taiwan 16-tile: batch scoring of 1M random complete hands and ``score_waits`` on 1M
ready 16-tile hands (hands/s).

    pytest benchmarks/bench_score_taiwan.py --benchmark-only     # pytest-benchmark
    python benchmarks/bench_score_taiwan.py [N]                  # plain timing, prints hands/s

The hands come from :func:`mjfast.random_hands` (``rules="taiwan"``, complete and ready:
the mix in docs/generator.md), made once outside the timed part. The timed parts are :func:`mjfast.scoring.score_batch`
(validation + the compiled kernel + the dealer-bonus / winner-gain columns) and
:func:`mjfast.scoring.taiwan.score_waits_batch` (every one of the 34 tiles tried on a
discard and on a self-draw).
"""
from __future__ import annotations

import os
import sys
import time

import pytest

from mjfast.scoring import score_batch
from mjfast import random_hands
from mjfast.scoring.taiwan import score_waits_batch


def random_batch(n, seed):
    return random_hands(n, "taiwan", "complete", seed=seed)


def random_ready_batch(n, seed):
    return random_hands(n, "taiwan", "ready", seed=seed)

N = int(os.environ.get("MJFAST_BENCH_N", 1_000_000))
WARM = 10_000      # above the kernels' chunk size: warms the parallel kernels


@pytest.fixture(scope="module")
def complete():
    b = random_batch(N, seed=2026)
    score_batch(random_batch(WARM, seed=1))           # compile / load the (parallel) kernel
    return b


@pytest.fixture(scope="module")
def ready():
    b = random_ready_batch(N, seed=2027)
    score_waits_batch(random_ready_batch(WARM, seed=1))
    return b


def test_score_batch_taiwan_1m(benchmark, complete):
    res = benchmark.pedantic(score_batch, args=(complete,), rounds=3, iterations=1)
    assert res.complete.all()
    benchmark.extra_info["hands"] = len(complete)
    benchmark.extra_info["hands_per_s"] = len(complete) / benchmark.stats.stats.min


def test_score_waits_taiwan_1m(benchmark, ready):
    res = benchmark.pedantic(score_waits_batch, args=(ready, None), rounds=1, iterations=1)
    assert res.wins.any(axis=1).all()
    benchmark.extra_info["hands"] = len(ready)
    benchmark.extra_info["hands_per_s"] = len(ready) / benchmark.stats.stats.min


def _best(fn, *args, rounds=3):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t)
    return best, out


def main(n: int = N) -> None:
    b = random_batch(n, seed=2026)
    score_batch(random_batch(WARM, seed=1))
    best, res = _best(score_batch, b)
    assert res.complete.all()
    print(f"score_batch  taiwan {n:>9,d} hands  {best:6.3f} s  {n / best:12,.0f} hands/s")
    r = random_ready_batch(n, seed=2027)
    score_waits_batch(random_ready_batch(WARM, seed=1))
    best, ws = _best(score_waits_batch, r, None, rounds=2)
    assert ws.wins.any(axis=1).all()
    print(f"score_waits  taiwan {n:>9,d} hands  {best:6.3f} s  {n / best:12,.0f} hands/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else N)
