"""The first run: what a fresh install spends compiling, per family, and what each command
then costs.

    python benchmarks/bench_first_run.py              # warm-up per family + CLI first runs
    python benchmarks/bench_first_run.py --serial     # one process (compile CPU per family)
    python benchmarks/bench_first_run.py --wheel      # pip wheel, installed in a new venv
    pytest benchmarks/bench_first_run.py --benchmark-only

Every measurement uses an empty kernel cache folder (``MJFAST_JIT_DIR`` pointed at a new
temporary folder), so nothing is loaded from an earlier compile.

- **Warm-up** (:mod:`mjfast._warmup`, what ``pip install`` runs): wall seconds in all, the
  seconds and peak memory of each group (the families: the MCR scorer symbol; the Taiwan
  and Tuidaohu symbols with the tables and shanten kernels; the engine, bots and play
  loop; the public API with replay), the CPU seconds, the cache size and the number of
  cached functions and versions.
- **CLI first runs** (``mjfast score``, ``mjfast shanten``), wall time: ``cold`` (empty
  cache: everything a command needs compiles), ``installed`` (the cache the warm-up made)
  and ``warm`` (the same command again).
"""
from __future__ import annotations

import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

HANDS = {"score": ["score", "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3", "--rules", "mcr"],
         "shanten": ["shanten", "123m456p789s1299s", "--rules", "mcr"]}


def _env(folder: str) -> dict:
    env = dict(os.environ, MJFAST_JIT_DIR=folder)
    env.pop("MJFAST_ANNOUNCE_COMPILE", None)
    return env


def cache_summary(folder: str) -> dict:
    """Size of the cache folder, functions cached and versions per index."""
    size = 0
    indexes = 0
    versions = 0
    for p in Path(folder).iterdir():
        size += p.stat().st_size
        if p.suffix == ".nbi":
            indexes += 1
            with open(p, "rb") as fh:
                pickle.load(fh)
                _stamp, overloads = pickle.loads(fh.read())
            versions += len(overloads)
    return {"mb": round(size / 2 ** 20, 1), "functions": indexes, "versions": versions}


def warmup(jobs: int | None = None) -> dict:
    """Run the warm-up into an empty cache; its marker plus CPU seconds and the cache."""
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        args = [sys.executable, "-m", "mjfast._warmup"] + (["--jobs", str(jobs)] if jobs else [])
        res = subprocess.run(args, env=_env(folder), capture_output=True, text=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode != 0:
            raise RuntimeError(res.stderr[-3000:])
        marker = json.loads((Path(folder) / "warm.json").read_text())
        return {"wall_s": round(wall, 1),
                "cpu_s": round((after.ru_utime - before.ru_utime)
                               + (after.ru_stime - before.ru_stime), 1),
                "groups": marker["groups"], "peak_mb": marker["peak_mb"],
                "cache": cache_summary(folder), "load": round(os.getloadavg()[0], 2)}


def cli_first_run(command: str) -> dict:
    """Seconds of one CLI command: on an empty cache, after the warm-up, and again."""
    with tempfile.TemporaryDirectory() as folder:
        env = _env(folder)
        out = {}
        for label in ("cold", "warm"):
            t = time.perf_counter()
            res = subprocess.run([sys.executable, "-m", "mjfast", *HANDS[command]], env=env,
                                 capture_output=True, text=True)
            out[label] = round(time.perf_counter() - t, 2)
            if res.returncode != 0:
                raise RuntimeError(res.stderr[-2000:])
            if label == "cold":
                out["announced"] = "compiling kernels" in res.stderr
        return out


def wheel_install(repo: str = ".") -> dict:
    """``pip wheel`` of a clean clone of ``repo`` (the warm-up runs in the build), the wheel
    installed in a new virtual environment (system site-packages for the dependencies),
    then ``mjfast score`` there: it must load, not compile (nothing announced)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, whl, venv = (os.path.join(tmp, x) for x in ("src", "whl", "venv"))
        subprocess.run(["git", "clone", "-q", os.path.abspath(repo), src], check=True)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", whl, src],
                       check=True, capture_output=True)
        build = time.perf_counter() - t
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        wheel = next(Path(whl).glob("mjfast-*.whl"))
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-deps", str(wheel)],
                       check=True, capture_output=True)
        env = dict(os.environ, MJFAST_ANNOUNCE_COMPILE="1")
        for var in ("MJFAST_JIT_DIR", "PYTHONPATH"):
            env.pop(var, None)
        t = time.perf_counter()
        res = subprocess.run([os.path.join(venv, "bin", "mjfast"), *HANDS["score"]], env=env,
                             capture_output=True, text=True, cwd=tmp)
        first = time.perf_counter() - t
        return {"build_s": round(build, 1), "wheel_mb": round(wheel.stat().st_size / 2 ** 20, 1),
                "score_s": round(first, 2), "ok": res.returncode == 0,
                "announced": "compiling kernels" in res.stderr,
                "load": round(os.getloadavg()[0], 2)}


# ---- pytest-benchmark ---------------------------------------------------------------------
def test_warmup(benchmark):
    res = benchmark.pedantic(warmup, rounds=1, iterations=1)
    benchmark.extra_info.update(res)


@pytest.mark.parametrize("command", list(HANDS))
def test_cli_first_run(benchmark, command):
    res = benchmark.pedantic(cli_first_run, args=(command,), rounds=1, iterations=1)
    benchmark.extra_info.update(res)


if __name__ == "__main__":
    if "--wheel" in sys.argv:
        print(wheel_install(str(Path(__file__).resolve().parent.parent)))
        sys.exit(0)
    r = warmup(1 if "--serial" in sys.argv else None)
    print(f"warm-up: {r['wall_s']} s wall, {r['cpu_s']} s CPU, peak {r['peak_mb']} MB a "
          f"process, load {r['load']}; cache {r['cache']['mb']} MB, "
          f"{r['cache']['functions']} functions, {r['cache']['versions']} versions")
    for g in r["groups"]:
        print(f"  {g['group']:40s} {g['seconds']:7.1f} s wall {g.get('cpu_s', 0):7.1f} s CPU "
              f"{g.get('peak_mb', 0):5d} MB")
    for command in HANDS:
        c = cli_first_run(command)
        print(f"mjfast {command:8s} cold {c['cold']:7.2f} s (announced={c['announced']})  "
              f"warm {c['warm']:5.2f} s", flush=True)
