"""Scoring does not depend on the order of a batch's rows: the order probe's arrangements
(benchmarks/mcr_order_probe.py: hands cycled, drawn at random, sorted by their suits) give
each row the scores it gets in the random batch."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from mcr_order_probe import arrangements, probe  # noqa: E402


def test_arrangements_are_row_indices():
    batch, idx = arrangements(500, 20)
    assert set(idx) == {"random", "cycled", "drawn", "sorted"}
    assert sorted(idx["sorted"].tolist()) == list(range(500))
    assert idx["cycled"].max() == 19 and idx["drawn"].max() < 20
    assert len(batch) == 500


def test_scores_follow_their_rows():
    # probe() scores every arrangement and asserts its scores are the random batch's,
    # permuted the same way
    times = probe(n=3_000, k=50, rounds=1)
    assert set(times) == {"random", "cycled", "drawn", "sorted"}
    assert all(len(t) == 1 and t[0] > 0 for t in times.values())
