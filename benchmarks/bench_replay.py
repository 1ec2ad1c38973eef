"""Replay throughput: deals per second over Botzone text logs, default tables (turns with
every ready hand's waits scored) and, separately, with ``--candidates``.

Input: the bundled 16-deal sample repeated with fresh ``Match`` ids (``MJFAST_BENCH_REPLAY_DEALS``
deals, default 16,000; the issue's figure is 100k), written once to a temporary file.
Simulated MCR deals in Botzone text can replace it once the simulator writes them.

Run: ``pytest benchmarks/bench_replay.py --benchmark-only``. ``extra_info`` holds
``deals_per_s`` (best round), the reader's share, and the 98,209-deal projection.
"""
from __future__ import annotations

import os
import time

import pytest

from mjfast.data import botzone_text_sample
from mjfast.replay import read_chunks, replay

DEALS = int(os.environ.get("MJFAST_BENCH_REPLAY_DEALS", "16000"))


@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    text = botzone_text_sample().read_bytes().decode("utf-8")
    blocks = [b for b in text.split("\r\n\r\n") if b.strip()]
    path = tmp_path_factory.mktemp("replay") / "repeated.txt"
    reps = max(1, DEALS // len(blocks))
    with open(path, "w", encoding="utf-8", newline="") as f:
        for r in range(reps):
            for b in blocks:
                lines = b.split("\r\n")
                lines[0] = f"Match {r:08x}{lines[0][14:]}"
                f.write("\r\n".join(lines) + "\r\n\r\n")
    replay([path], "botzone", candidates=True, chunk_deals=64)   # compile outside the timing
    return path, reps * len(blocks)


def _run(benchmark, path, n, candidates):
    res = benchmark.pedantic(lambda: replay([path], "botzone", candidates=candidates),
                             rounds=3, iterations=1)
    assert res.stats.replayed == n and res.stats.discrepancies == 0
    best = benchmark.stats.stats.min
    t0 = time.perf_counter()
    for _ in read_chunks([path], "botzone", rules="mcr", variant="botzone"):
        pass
    read_s = time.perf_counter() - t0
    benchmark.extra_info.update({
        "deals": n, "candidates": candidates, "deals_per_s": round(n / best, 1),
        "reader_share": round(read_s / best, 3),
        "seconds_for_98209_deals": round(98209 * best / n, 1)})


def test_replay_default_tables(benchmark, log_file):
    path, n = log_file
    _run(benchmark, path, n, candidates=False)


def test_replay_with_candidates(benchmark, log_file):
    path, n = log_file
    _run(benchmark, path, n, candidates=True)
