"""Pipelines: strings -> scored Arrow table against its parts, the hands job end to end on a
process pool and on a Dask LocalCluster with the memory of the whole process tree, the
memory at growing N (flat: streaming by shard), and ``mjfast --help``.

Run: ``pytest benchmarks/bench_pipelines.py --benchmark-only``. Sizes from the environment:

- ``MJFAST_BENCH_SCORE_ROWS`` (default 1M; the issue's figure is 10M);
- ``MJFAST_BENCH_HANDS`` (default 1M; the issue's figure is 10M);
- ``MJFAST_BENCH_WAIT_FANS`` (default 0: each wait's totals and legality; 1: its fan lists
  too);
- ``MJFAST_BENCH_SCALING`` (default ``250000,500000,1000000``; e.g. ``1000000,3000000,
  10000000,100000000``): hand counts of the memory-scaling run (pool);
- ``MJFAST_BENCH_WORKERS`` (default 2).

``extra_info`` holds rates, the ratio to parse + kernel, the load average and peak memory:
``tree_peak_mb`` is the largest sum of the resident memory of the driver and all its
descendant processes (forkserver, pool workers, Dask nannies and workers) sampled every
0.2 s (shared pages counted once per process: an upper bound), ``tree_peak_pss_mb`` the
same with proportional set sizes (shared pages split), ``driver_peak_mb`` /
``worker_peak_mb`` the largest single process; ``tree_cpu_s`` the CPU seconds of the
tree (sampled, so a process's last 0.2 s may be missed): on a loaded machine
``tree_cpu_s / workers`` is what the run would take on idle cores. By hand:
``python benchmarks/bench_pipelines.py hands N processes|dask [fans]``.
Nothing here asserts a duration.
"""
from __future__ import annotations

import json
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
WAIT_FANS = os.environ.get("MJFAST_BENCH_WAIT_FANS", "0") not in ("0", "", "false")
SCALING = [int(x) for x in os.environ.get("MJFAST_BENCH_SCALING",
                                          "250000,500000,1000000").split(",") if x]
DISTINCT = 50_000


def shard_size(n: int, workers: int = WORKERS) -> int:
    """Hands per shard: at least 4 shards a worker (balance), 10k..250k (memory)."""
    return max(10_000, min(250_000, -(-n // (4 * workers))))


def _peak_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def _load() -> float:
    return round(os.getloadavg()[0], 2)


@pytest.fixture(scope="module")
def strings() -> pa.Array:
    import mjfast
    from mjfast.notation import format_batch
    base = format_batch(mjfast.random_hands(DISTINCT, "mcr", "complete", seed=5))
    idx = np.random.default_rng(1).integers(0, DISTINCT, SCORE_ROWS)
    return pa.array(base, pa.string()).take(pa.array(idx))


def test_score_strings(benchmark, strings):
    """strings -> scored Arrow table (fans list<struct>, dictionary errors) vs the parts:
    parse (all threads, chunk by chunk as score_strings does) + the score kernel (all
    threads)."""
    import mjfast
    from mjfast.notation import parse_batch
    from mjfast.scoring import score_strings
    score_strings(strings.slice(0, 1000), "mcr")          # compile outside the timing
    load0 = _load()
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
        peak_rss_mb=round(_peak_mb()), load_before=load0, load_after=_load())
    assert res.num_rows == len(strings)


_CHILD = """
import json, os, sys, threading, time
import psutil
from mjfast.pipelines import hands, make_executor, run_job

def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

peak = {"tree": 0, "tree_pss": 0, "driver": 0, "worker": 0}
cpu = {}          # pid -> user + system seconds, last seen
stop = threading.Event()

def sample():
    me = psutil.Process()
    while not stop.is_set():
        try:
            procs = [me] + me.children(recursive=True)
            rss = {}
            for p in procs:
                try:
                    rss[p.pid] = p.memory_info().rss
                    c = p.cpu_times()
                    cpu[p.pid] = max(cpu.get(p.pid, 0.0), c.user + c.system)
                except psutil.Error:
                    pass
            peak["tree"] = max(peak["tree"], sum(rss.values()))
            peak["tree_pss"] = max(peak["tree_pss"], 1024 * sum(pss_kb(p) for p in rss))
            peak["driver"] = max(peak["driver"], rss.get(me.pid, 0))
            peak["worker"] = max([peak["worker"]] + [v for k, v in rss.items() if k != me.pid])
        except psutil.Error:
            pass
        stop.wait(0.2)

if __name__ == "__main__":
    n, executor, workers, shard, fans, out = sys.argv[1:7]
    job = hands.job_from_spec(None, n=int(n), kind="ready", shard_size=int(shard),
                              variants=["default"], strings=False, wait_fans=fans == "1")
    ex = make_executor(int(workers), dask=executor == "dask")
    th = threading.Thread(target=sample, daemon=True)
    th.start()
    load0 = os.getloadavg()[0]
    t = time.perf_counter()
    s = run_job(job, out, ex)
    dt = time.perf_counter() - t
    stop.set()
    th.join()
    c = psutil.Process().cpu_times()
    cpu[os.getpid()] = c.user + c.system
    size = sum(p.stat().st_size for p in __import__("pathlib").Path(out).rglob("*.parquet"))
    print(json.dumps({"seconds": round(dt, 2), "rows": s.n_out, "shards": s.shards_total,
        "shard_size": int(shard), "parquet_mb": round(size / 2**20, 1),
        "load_before": round(load0, 2), "load_after": round(os.getloadavg()[0], 2),
        "tree_cpu_s": round(sum(cpu.values()), 1),
        **{k + "_peak_mb": round(v / 2**20) for k, v in peak.items()}}))
"""


def run_hands(n: int, executor: str, out: str, fans: bool = WAIT_FANS,
              workers: int = WORKERS, shard: int | None = None) -> dict:
    """The ready-hands job in a fresh process (its whole process tree's memory sampled)."""
    shard = shard or shard_size(n, workers)
    r = subprocess.run([sys.executable, "-c", _CHILD, str(n), executor, str(workers),
                        str(shard), "1" if fans else "0", out],
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_hands_job_ready_mcr(benchmark, tmp_path, executor):
    """N ready MCR hands -> shanten + waits + every wait scored both ways (fan lists with
    ``MJFAST_BENCH_WAIT_FANS=1``) -> Parquet, on WORKERS worker processes (local pool or
    Dask LocalCluster, started inside the timing). Peak memory of the process tree."""
    if executor == "dask":
        pytest.importorskip("distributed")
    run_hands(10_000, executor, str(tmp_path / "warm"))      # compile / warm the cache
    outs = iter(range(100))
    info = {}

    def once():
        info.update(run_hands(HANDS, executor, str(tmp_path / f"r{next(outs)}")))
    benchmark.pedantic(once, rounds=1, iterations=1)
    benchmark.extra_info.update(hands=HANDS, workers=WORKERS, executor=executor,
                                wait_fans=WAIT_FANS, hands_per_s=round(HANDS / info["seconds"]),
                                **info)


def test_hands_memory_flat(benchmark, tmp_path):
    """Peak memory of the process tree at growing N (pool, 250k-hand shards): flat when
    the job streams by shard (the driver holds the shard list and the small done markers
    only)."""
    rows = []

    def once():
        for k, n in enumerate(SCALING):
            rows.append({"n": n, **run_hands(n, "processes", str(tmp_path / f"n{k}"),
                                             shard=min(250_000, n))})
    benchmark.pedantic(once, rounds=1, iterations=1)
    benchmark.extra_info["by_n"] = rows


def test_help(benchmark):
    """``mjfast --help`` in a fresh interpreter."""
    def once():
        subprocess.run([sys.executable, "-m", "mjfast", "--help"], check=True,
                       capture_output=True)
    benchmark.pedantic(once, rounds=5, iterations=1)
    benchmark.extra_info.update(best_s=round(benchmark.stats.stats.min, 3), load=_load())


if __name__ == "__main__":          # by hand: python benchmarks/bench_pipelines.py hands N EXECUTOR [fans]
    import tempfile
    if sys.argv[1] == "hands":
        with tempfile.TemporaryDirectory(dir=os.environ.get("MJFAST_BENCH_TMP")) as d:
            print(json.dumps(run_hands(int(sys.argv[2]), sys.argv[3], os.path.join(d, "out"),
                                       fans=len(sys.argv) > 4 and sys.argv[4] == "fans")))
