"""Per-hand scoring cost of the four rule sets on one thread, against MCR's (the peer the
other scorers are held to: no slower per hand than MCR).

    python benchmarks/bench_score_rules.py [N] [--rounds 5]
    pytest benchmarks/bench_score_rules.py --benchmark-only -s

``mjfast.score_batch(threads=1)`` on ``N`` (default 200,000) generated complete hands per
rule set (``random_hands(N, rules, "complete", seed=2026)``, made outside the timing; MCR
with the ``botzone`` variant as in bench_score_mcr.py), timed in CPU seconds
(``time.process_time``), the rule sets interleaved round by round (a loaded machine
slows them alike); the best round each. Reported: microseconds a hand and the ratio to
MCR's, with the load average.
"""
from __future__ import annotations

import os
import sys
import time


RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


def per_hand(n: int = 200_000, rounds: int = 5) -> dict[str, float]:
    """Best CPU microseconds a hand per rule set (one thread, interleaved rounds)."""
    import mjfast
    batches = {r: mjfast.random_hands(n, r, "complete", seed=2026) for r in RULES}
    variant = {"mcr": "botzone"}
    for r, b in batches.items():
        mjfast.score_batch(b, variant=variant.get(r), threads=1)       # compile / load, warm
    best = {r: float("inf") for r in RULES}
    for _ in range(rounds):
        for r, b in batches.items():
            t = time.process_time()
            mjfast.score_batch(b, variant=variant.get(r), threads=1)
            best[r] = min(best[r], time.process_time() - t)
    return {r: best[r] / n * 1e6 for r in RULES}


def report(us: dict[str, float]) -> str:
    return "; ".join(f"{r} {v:.3f} us/hand ({v / us['mcr']:.2f}x MCR's)" for r, v in us.items())


def test_score_rules_per_hand(benchmark):
    n = int(os.environ.get("MJFAST_BENCH_N", 200_000))
    us = benchmark.pedantic(per_hand, args=(n,), rounds=1, iterations=1)
    benchmark.extra_info.update({f"{r}_us_per_hand": v for r, v in us.items()})
    benchmark.extra_info.update({f"{r}_vs_mcr": v / us["mcr"] for r, v in us.items()})
    benchmark.extra_info["load"] = os.getloadavg()[0]
    print("\n" + report(us))


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else 200_000
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    us = per_hand(n, rounds)
    print(f"{n:,} hands per rule set, best of {rounds} interleaved rounds, one thread, "
          f"CPU time; load {os.getloadavg()[0]:.2f}")
    print(report(us))
