"""How much of the MCR batch kernel's time a hand depends on the order of the hands: the
share that the CPU's branch predictors win when a sequence of hands repeats.

    PYTHONPATH=. python3 benchmarks/mcr_order_probe.py [--n 200000] [--k 1000] [--rounds 7]

``score_batch(threads=1)`` (``variant="botzone"``) on the same number of rows, arranged
four ways, rounds alternating between the arrangements (CPU time, ``time.process_time``):

- ``random``: N random complete hands of the differential mix
  (``tests/test_mcr_gen.py::random_batch``), as the benchmarks score them;
- ``cycled``: the first K of them repeated in order (a sequence short enough for the
  predictors to learn; the data fit in the caches);
- ``drawn``: N draws at random from the same K hands (the same data, no order to learn);
- ``sorted``: the N hands sorted by the base-5 code of their 27 suited counts
  (neighbours share their suits' layout, as in a batch sorted before scoring).

``cycled`` against ``drawn`` isolates the order: what a hand costs when its branches are
predicted, against the same hands met unpredictably. Each arrangement's fan counts and
totals are checked against the ``random`` scores permuted the same way (scoring does
not depend on the order of the rows). Printed: the best and the median µs a hand of
each arrangement, and the load average.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_mcr_gen import random_batch  # noqa: E402

from mjfast import score_batch  # noqa: E402
from mjfast.scoring import take_rows  # noqa: E402


def arrangements(n: int, k: int, seed: int = 2026) -> tuple[object, dict[str, np.ndarray]]:
    """The batch of ``n`` random hands and each arrangement's row indices into it."""
    batch = random_batch(n, seed=seed)
    k = min(k, n)
    code = np.zeros(n, dtype=np.int64)
    for t in range(27):
        code = code * 5 + batch.counts[:, t].astype(np.int64)
    rng = np.random.default_rng(seed)
    return batch, {"random": np.arange(n), "cycled": np.arange(n) % k,
                   "drawn": rng.integers(0, k, n), "sorted": np.argsort(code, kind="stable")}


def probe(n: int = 200_000, k: int = 1_000, rounds: int = 7) -> dict[str, list[float]]:
    """µs a hand of every round of each arrangement (:func:`arrangements`); raises
    ``AssertionError`` when an arrangement's scores are not the random ones permuted."""
    batch, idx = arrangements(n, k)
    ref = score_batch(batch, variant="botzone", threads=1)
    batches = {}
    for name, rows in idx.items():
        b = take_rows(batch, rows)
        got = score_batch(b, variant="botzone", threads=1)
        assert np.array_equal(got.fan_counts, ref.fan_counts[rows]), name
        assert np.array_equal(got.totals, ref.totals[rows]), name
        batches[name] = b
    times: dict[str, list[float]] = {name: [] for name in batches}
    names = list(batches)
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            t = time.process_time()
            score_batch(batches[name], variant="botzone", threads=1)
            times[name].append((time.process_time() - t) / n * 1e6)
    return times


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--k", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args(argv)
    times = probe(a.n, a.k, a.rounds)
    print(f"MCR score_batch, one thread, {a.n:,} rows, K = {a.k:,}, {a.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.2f}")
    for name, ts in times.items():
        print(f"{name:8s} best {min(ts):.4f} us a hand, median {statistics.median(ts):.4f}")
    c, d = min(times["cycled"]), min(times["drawn"])
    print(f"order: drawn - cycled = {d - c:.4f} us a hand ({(d - c) / d:.0%} of drawn)")


if __name__ == "__main__":
    main()
