"""Analytics at scale: fan frequency over a 10M-row ``wins`` table and the MCR high/low
analysis over a 10M-row ``hands`` table (Polars lazy scan, streaming engine), seconds and
peak memory (RSS of a fresh process per analysis).

    pytest benchmarks/bench_analytics.py --benchmark-only     # pytest-benchmark
    python benchmarks/bench_analytics.py [ROWS]               # plain timing + peak RSS

The dataset is synthetic and made with NumPy/Arrow (no per-row Python): ``ROWS`` wins with
1-8 fans each (ids 1..82) written as 10 shards, and ``ROWS`` ready hands with 1-4 waits each.
It is cached under ``$MJFAST_BENCH_DIR`` (default: the system temp folder) by row count.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

ROWS = int(os.environ.get("MJFAST_BENCH_ROWS", 10_000_000))
SHARDS = 10


def _lists(rng, n, lo, hi):
    sizes = rng.integers(lo, hi + 1, n)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(sizes, out=offsets[1:])
    return offsets, int(offsets[-1])


def make_dataset(rows: int = ROWS) -> Path:
    from mjfast.datasets import FAN, WAIT, Dataset
    root = Path(os.environ.get("MJFAST_BENCH_DIR", tempfile.gettempdir())) / f"mjfast-bench-analytics-{rows}"
    if (root / "manifest.json").exists():
        return root
    ds = Dataset(root)
    per = -(-rows // SHARDS)
    for s in range(SHARDS):
        n = min(per, rows - s * per)
        if n <= 0:
            break
        rng = np.random.default_rng(s)
        off, m = _lists(rng, n, 1, 8)
        fans = pa.StructArray.from_arrays(
            [pa.array(rng.integers(1, 83, m, dtype=np.int16)),
             pa.array(rng.choice([1, 2, 4, 6, 8, 16, 24], m).astype(np.int32)),
             pa.array(np.ones(m, np.int16))], fields=list(FAN))
        total = rng.integers(8, 60, n).astype(np.int32)
        wins = pa.table({"deal_id": pa.array((np.arange(n) + s * per).astype(str)),
                         "step": pa.array(np.zeros(n, np.int32)),
                         "winner": pa.array(rng.integers(0, 4, n, dtype=np.int8)),
                         "total": pa.array(total), "legal": pa.array(np.ones(n, bool)),
                         "fans": pa.ListArray.from_arrays(pa.array(off), fans)})
        ds.write("wins", wins, rules="mcr", shard=f"{s:05d}")
        off, m = _lists(rng, n, 1, 4)
        td = rng.integers(1, 40, m).astype(np.int32)
        waits = pa.StructArray.from_arrays(
            [pa.array(rng.integers(0, 34, m, dtype=np.int8)),
             pa.array(rng.integers(0, 5, m, dtype=np.int8)), pa.array(td),
             pa.array(td + rng.integers(1, 3, m).astype(np.int32)),
             pa.array(td >= 8), pa.array(td + 1 >= 8),
             pa.nulls(m, WAIT.field("fans_discard").type),
             pa.nulls(m, WAIT.field("fans_self_drawn").type)], fields=list(WAIT))
        hands = pa.table({"hand_id": pa.array(np.arange(n, dtype=np.int64) + s * per),
                          "form": pa.array(rng.integers(0, 2, n, dtype=np.int8)),
                          "n_melds": pa.array(rng.integers(0, 5, n, dtype=np.int8)),
                          "shanten": pa.array(np.zeros(n, np.int8)),
                          "waits": pa.ListArray.from_arrays(pa.array(off), waits)})
        ds.write("hands", hands, rules="mcr", shard=f"{s:05d}")
    ds.write_manifest({"job": "bench-analytics", "rows": rows})
    return root


_CHILD = """
import json, resource, sys, time
from mjfast.analytics import run
t = time.perf_counter()
df = run(sys.argv[1], sys.argv[2])
dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "rows_out": df.height,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(name: str, root: Path) -> dict:
    """Run one analysis in a fresh process: seconds and peak RSS."""
    out = subprocess.run([sys.executable, "-c", _CHILD, name, str(root)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_fan_frequency_10m(benchmark):
    root = make_dataset()
    from mjfast.analytics import run
    benchmark.extra_info.update(rows=ROWS, **measure("fan-frequency", root))
    benchmark.pedantic(run, args=("fan-frequency", root), rounds=1, iterations=1)


def test_high_low_10m(benchmark):
    root = make_dataset()
    from mjfast.analytics import run
    benchmark.extra_info.update(rows=ROWS, **measure("high-low", root))
    benchmark.pedantic(run, args=("high-low", root), rounds=1, iterations=1)


if __name__ == "__main__":
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else ROWS
    t = time.perf_counter()
    root = make_dataset(rows)
    print(f"dataset {root}: {rows:,} wins + {rows:,} ready hands ({time.perf_counter() - t:.1f} s)")
    for name in ("fan-frequency", "high-low"):
        r = measure(name, root)
        print(f"{name:14s} {r['seconds']:7.2f} s  {rows / r['seconds'] / 1e6:6.2f} M rows/s  "
              f"peak RSS {r['peak_rss_mb']:7.0f} MB")
