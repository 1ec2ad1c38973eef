"""Pipelines: strings -> scored Arrow table against its parts, the hands job end to end on a
process pool and on a Dask LocalCluster, and ``mjfast --help``.

Run: ``pytest benchmarks/bench_pipelines.py --benchmark-only``. Sizes from the environment:
``MJFAST_BENCH_SCORE_ROWS`` (default 1M; the issue's figure is 10M),
``MJFAST_BENCH_HANDS`` (default 1M; the issue's figure is 10M), ``MJFAST_BENCH_WORKERS``
(default 2). ``extra_info`` holds rates, the ratio to parse + kernel and peak memory.
Nothing here asserts a duration.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

import numpy as np
import pyarrow as pa
import pytest

SCORE_ROWS = int(os.environ.get("MJFAST_BENCH_SCORE_ROWS", 1_000_000))
HANDS = int(os.environ.get("MJFAST_BENCH_HANDS", 1_000_000))
WORKERS = int(os.environ.get("MJFAST_BENCH_WORKERS", 2))
DISTINCT = 50_000
SHARD = max(10_000, min(250_000, -(-HANDS // (4 * WORKERS))))


def _peak_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


@pytest.fixture(scope="module")
def strings() -> pa.Array:
    import mjfast
    from mjfast.notation import format_batch
    base = format_batch(mjfast.random_hands(DISTINCT, "mcr", "complete", seed=5))
    idx = np.random.default_rng(1).integers(0, DISTINCT, SCORE_ROWS)
    return pa.array(base, pa.string()).take(pa.array(idx))


def test_score_strings(benchmark, strings):
    """strings -> scored Arrow table (fans list<struct>, dictionary errors) vs the parts:
    parse (one thread) + the score kernel (all threads)."""
    import mjfast
    from mjfast.notation import parse_batch
    from mjfast.scoring._arrow import score_strings
    score_strings(strings.slice(0, 1000), "mcr")          # compile outside the timing
    t = time.perf_counter()
    batch = parse_batch(strings, rules="mcr")
    t_parse = time.perf_counter() - t
    t = time.perf_counter()
    mjfast.score_batch(batch)
    t_kernel = time.perf_counter() - t
    del batch
    res = benchmark.pedantic(score_strings, args=(strings, "mcr"), rounds=3, iterations=1)
    best = benchmark.stats.stats.min
    benchmark.extra_info.update(
        rows=len(strings), rows_per_s=round(len(strings) / best), parse_s=round(t_parse, 3),
        kernel_s=round(t_kernel, 3), ratio_to_parse_plus_kernel=round(best / (t_parse + t_kernel), 3),
        peak_rss_mb=round(_peak_mb()))
    assert res.num_rows == len(strings)


def _run_child(executor: str, out: str) -> dict:
    """The job in a fresh process (its peak RSS and its workers' measured apart)."""
    code = f"""
import json, resource, time, sys
from mjfast.pipelines import run_job, make_executor
from mjfast.pipelines import hands
if __name__ == "__main__":
    job = hands.job_from_spec(None, n={HANDS}, kind="ready", shard_size={SHARD},
                              variants=["default"], strings=False, wait_fans=False)
    ex = make_executor({WORKERS}, dask={executor == 'dask'})
    t = time.perf_counter()
    s = run_job(job, {out!r}, ex)
    dt = time.perf_counter() - t
    print(json.dumps({{"seconds": dt, "rows": s.n_out,
        "driver_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "workers_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}}))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    import json
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_hands_job_ready_mcr(benchmark, tmp_path, executor):
    """N ready MCR hands -> shanten + waits + every wait scored -> Parquet, on WORKERS
    worker processes (local pool or Dask LocalCluster). Peak memory per process."""
    if executor == "dask":
        pytest.importorskip("distributed")
    _run_child(executor, str(tmp_path / "warm"))      # compile / warm the cache
    outs = iter(range(100))

    def once():
        return _run_child(executor, str(tmp_path / f"r{next(outs)}"))
    info = benchmark.pedantic(once, rounds=1, iterations=1)
    benchmark.extra_info.update(hands=HANDS, workers=WORKERS, executor=executor,
                                hands_per_s=round(HANDS / info["seconds"]), **{
                                    k: round(v, 1) for k, v in info.items() if k != "rows"})


def test_help(benchmark):
    """``mjfast --help`` in a fresh interpreter."""
    def once():
        subprocess.run([sys.executable, "-m", "mjfast", "--help"], check=True,
                       capture_output=True)
    benchmark.pedantic(once, rounds=3, iterations=1)
    benchmark.extra_info["best_s"] = round(benchmark.stats.stats.min, 3)
