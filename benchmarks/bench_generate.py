"""The random-hand generator: hands/s of ``mjfast.random_hands`` (complete and ready, every
rule set), one thread and all threads.

    pytest benchmarks/bench_generate.py --benchmark-only
    python benchmarks/bench_generate.py [N]          # default 10M ready MCR hands

The pipelines generate 10M hands end to end in under a minute; the generator's share is
this figure (the output HandBatch allocation included).
"""
from __future__ import annotations

import os
import sys
import time

import pytest

from mjfast import random_hands

N = int(os.environ.get("MJFAST_BENCH_N", 1_000_000))
RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


@pytest.mark.parametrize("threads", [1, None], ids=["1_thread", "all_threads"])
@pytest.mark.parametrize("kind", ["complete", "ready"])
@pytest.mark.parametrize("rules", RULES)
def test_random_hands(benchmark, rules, kind, threads):
    random_hands(1000, rules, kind, seed=1)                     # compile / load
    b = benchmark.pedantic(random_hands, args=(N, rules, kind, 7),
                           kwargs={"threads": threads}, rounds=3, iterations=1)
    assert len(b) == N
    benchmark.extra_info["hands"] = N
    benchmark.extra_info["hands_per_s"] = round(N / benchmark.stats.stats.min)


def main(n: int) -> None:
    random_hands(1000, "mcr", "ready", seed=1)
    for threads in (1, None):
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            random_hands(n, "mcr", "ready", seed=7, threads=threads)
            best = min(best, time.perf_counter() - t)
        print(f"random_hands mcr ready {n:>11,d} hands  threads={threads}  {best:6.2f} s  "
              f"{n / best:12,.0f} hands/s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
