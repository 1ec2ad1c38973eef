"""One hand a call: ``mjfast.score`` on each rule set and ``mjfast.score_waits`` (MCR),
beside the reference calculator's per-hand call (PyMahjongGB, MCR) in the same run.

    PYTHONPATH=. python3 benchmarks/bench_one_call.py [N] [--rounds 7]
    pytest benchmarks/bench_one_call.py --benchmark-only -s

``N`` (default 1,000) generated hands per rule set (``random_hands(N, rules, "complete",
seed=5)``; ``score_waits`` on ``random_hands(N, "mcr", "ready", seed=5)``) as
:class:`~mjfast.hand.Hand` objects built beforehand, and the MCR hands once more as
strings (``score mcr string``: parsing and validation included); the reference's argument tuples
for the same MCR hands built beforehand too. Each pass calls once per hand; the passes
of every path alternate, and each path's best pass counts (wall time on one thread: a
call is Python around the kernel). Reported: microseconds a call, and for MCR the
reference's, with the load average. A hand a scorer refuses (an incomplete random hand)
is left out of every pass.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


def _paths(n: int):
    """{name: (function, [argument tuples])} with every call checked once."""
    import mjfast
    paths = {}
    for rules in RULES:
        b = mjfast.random_hands(n, rules, "complete", seed=5)
        kw = {"variant": "botzone"} if rules == "mcr" else {}
        hands, rows = [], []
        for i in range(n):
            h = b.hand(i)
            try:
                mjfast.score(h, **kw)
            except mjfast.IncompleteHandError:
                continue
            hands.append(h)
            rows.append(i)
        paths[f"score {rules}"] = (lambda h, kw=kw: mjfast.score(h, **kw), hands)
        if rules == "mcr":
            paths["score mcr string"] = (lambda s: mjfast.score(s, variant="botzone"),
                                         [h.to_string("mcr") for h in hands])
        if rules == "mcr":
            try:
                import MahjongGB  # noqa: F401
            except ImportError:
                continue
            from test_mcr_gen import gb_args
            paths["MahjongGB per call"] = (None, [gb_args(b, i) for i in rows])
    ready = mjfast.random_hands(n, "mcr", "ready", seed=5)
    paths["score_waits mcr"] = (mjfast.score_waits, [ready.hand(i) for i in range(n)])
    return paths


def per_call(n: int = 1_000, rounds: int = 7) -> dict[str, float]:
    """Best microseconds a call of every path (passes alternating)."""
    paths = _paths(n)
    best = {k: float("inf") for k in paths}
    for _ in range(rounds):
        for name, (fn, items) in paths.items():
            if fn is None:
                from bench_score_mcr import reference_seconds
                sec = reference_seconds(items)
            else:
                t = time.perf_counter()
                for x in items:
                    fn(x)
                sec = time.perf_counter() - t
            best[name] = min(best[name], sec / max(len(items), 1) * 1e6)
    return best


def report(us: dict[str, float]) -> str:
    ref = us.get("MahjongGB per call")
    lines = []
    for name, v in us.items():
        extra = ""
        if ref and name == "score mcr":
            extra = f" ({ref / v:.3f}x the reference's call)"
        lines.append(f"{name:22s} {v:8.1f} us a call{extra}")
    return "\n".join(lines)


def test_one_call(benchmark):
    n = int(os.environ.get("MJFAST_BENCH_N", 1_000))
    us = benchmark.pedantic(per_call, args=(min(n, 2_000),), rounds=1, iterations=1)
    benchmark.extra_info.update({f"{k.replace(' ', '_')}_us": v for k, v in us.items()})
    benchmark.extra_info["load"] = os.getloadavg()[0]
    print("\n" + report(us))


def main(argv=None) -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=1_000, help="hands per path")
    ap.add_argument("--rounds", type=int, default=7, help="alternating passes")
    a = ap.parse_args(argv)
    us = per_call(a.n, a.rounds)
    print(f"{a.n:,} hands per path, best of {a.rounds} alternating passes, one thread, "
          f"wall time; load {os.getloadavg()[0]:.2f}")
    print(report(us))


if __name__ == "__main__":
    main()
