"""Replay throughput: deals per second over Botzone text logs, default tables (turns with
every ready hand's waits and their fan lists) and, separately, with ``--candidates``; and
the replay job's peak memory against the file size (pieces of ``chunk_deals`` deals).

Input of the throughput tests: the bundled 16-deal sample repeated with fresh ``Match`` ids
(``MJFAST_BENCH_REPLAY_DEALS`` deals, default 16,000), written once to a temporary file.

Input of the memory test: simulated MCR deals written as Botzone text (``mjfast simulate
--rules mcr --wall botzone --variant botzone --botzone-text``, ``MJFAST_BENCH_REPLAY_SIM``
deals, default 20,000; or an existing file: ``MJFAST_BENCH_REPLAY_TEXT``), cut at deal
boundaries into files of 1/8, 1/4, 1/2 and all of it. Each run is a fresh process (its peak
RSS is its own): the replay job (``pipelines/replay.py``, inline, one piece at a time) and,
for comparison, a whole-file replay gathered in memory (what a shard was before pieces).

Run: ``pytest benchmarks/bench_replay.py --benchmark-only``, or ``python
benchmarks/bench_replay.py FILE`` for the memory table alone. ``extra_info`` holds
``deals_per_s`` (best round), the reader's share, the 98,209-deal projection, and the
memory rows (deals, MB, seconds, deals/s, peak RSS MB).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

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


# --- peak memory against file size (the replay job's pieces) --------------------------------
SIM_DEALS = int(os.environ.get("MJFAST_BENCH_REPLAY_SIM", "20000"))
CHUNK = int(os.environ.get("MJFAST_BENCH_REPLAY_CHUNK", "2000"))

_CHILD = r"""
import json, resource, shutil, sys, time
path, mode, chunk, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
import mjfast.replay, mjfast.pipelines.replay as rj
from mjfast.pipelines import run_job
t = time.perf_counter()
if mode == "job":
    s = run_job(rj.job_from_spec(None, files=[path], variants=["botzone"], chunk_deals=chunk), out)
    n, shards = s.n_in, s.shards_total
else:
    r = mjfast.replay.replay([path], "botzone")
    n, shards = r.stats.deals_in, 1
dt = time.perf_counter() - t
print(json.dumps({"mode": mode, "deals": n, "shards": shards, "seconds": round(dt, 2),
                  "deals_per_s": round(n / dt, 1),
                  "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))
shutil.rmtree(out, ignore_errors=True)
"""


def simulate_text(folder: Path, deals: int, seed: int = 7) -> Path:
    """``deals`` simulated MCR deals as one Botzone text file (the simulator's parts joined)."""
    out = folder / "sim"
    subprocess.run([sys.executable, "-m", "mjfast", "simulate", "--rules", "mcr", "--wall",
                    "botzone", "--variant", "botzone", "--botzone-text", "--bots", "value",
                    "--deals", str(deals), "--seed", str(seed), "--out", str(out), "--quiet"],
                   check=True)
    path = folder / f"botzone_{deals}.txt"
    with open(path, "wb") as f:
        for part in sorted(out.rglob("*.txt")):
            f.write(part.read_bytes())
    return path


def prefixes(path: Path, fractions=(8, 4, 2, 1)) -> list[Path]:
    """Files holding the first 1/k of ``path``'s deals (cut at ``Match`` lines)."""
    data = path.read_bytes()
    starts = [0] + [i + 1 for i in _find_all(data, b"\nMatch ")]
    out = []
    for k in fractions:
        n = len(starts) // k
        end = starts[n] if n < len(starts) else len(data)
        p = path.with_name(f"{path.stem}_1of{k}.txt")
        p.write_bytes(data[:end])
        out.append(p)
    return out


def _find_all(data: bytes, needle: bytes):
    i = data.find(needle)
    while i >= 0:
        yield i
        i = data.find(needle, i + 1)


def measure(path: Path, mode: str, chunk: int = CHUNK) -> dict:
    """One replay of ``path`` in a fresh process: ``job`` (the pipeline, pieces of
    ``chunk`` deals) or ``whole`` (every table of the file gathered in memory)."""
    r = subprocess.run([sys.executable, "-c", _CHILD, str(path), mode, str(chunk),
                        str(path.with_suffix(f".{mode}.out"))],
                       check=True, capture_output=True, text=True)
    row = json.loads(r.stdout.strip().splitlines()[-1])
    row["file_mb"] = round(path.stat().st_size / 2 ** 20, 1)
    return row


def memory_table(path: Path) -> list[dict]:
    files = prefixes(path)
    measure(files[0], "job")                      # load the kernel cache once
    rows = [measure(p, "job") for p in files]
    rows += [measure(p, "whole") for p in (files[0], files[-1])]
    return rows


@pytest.fixture(scope="module")
def sim_text(tmp_path_factory) -> Path:
    given = os.environ.get("MJFAST_BENCH_REPLAY_TEXT")
    return Path(given) if given else simulate_text(tmp_path_factory.mktemp("sim"), SIM_DEALS)


def test_replay_job_memory_against_file_size(benchmark, sim_text):
    rows = benchmark.pedantic(lambda: memory_table(sim_text), rounds=1, iterations=1)
    benchmark.extra_info.update({"chunk_deals": CHUNK, "rows": rows,
                                 "load_average": os.getloadavg()})


if __name__ == "__main__":
    for row in memory_table(Path(sys.argv[1])):
        print(row)
    print("load average", os.getloadavg())
