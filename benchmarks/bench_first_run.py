"""The first run: what a fresh install spends compiling, per kernel entry and per command.

    python benchmarks/bench_first_run.py            # the CLI first runs (3 settings below)
    python benchmarks/bench_first_run.py --steps    # + each warm-up step alone (slow: minutes)
    pytest benchmarks/bench_first_run.py --benchmark-only

Every measurement runs in a fresh subprocess with an empty kernel cache folder
(``NUMBA_CACHE_DIR`` pointed at a new temporary folder), so nothing is shared between them.

- **CLI** (``mjfast score`` and ``mjfast shanten`` on one hand), wall time of the command:
  ``cold`` = empty cache and the shipped install-time cache ignored
  (``MJFAST_JIT_NO_SHIPPED=1``: what every first run cost before the warm-up existed);
  ``fresh install`` = empty user cache seeded from the shipped cache
  (``mjfast/kernels/_jitcache``, compiled by ``pip install``); ``warm`` = the same command
  again.
- **Tables**: generating the shanten tables into an empty table cache.
- **Steps** (``--steps``): each step of :mod:`mjfast._warmup` (one public entry point on
  a few hands of one rule set) called twice in a cold subprocess: ``first`` (compile +
  run) and ``warm`` (run) seconds; the difference is that entry's compile cost. Steps
  share callees (the decomposer, the tables), so the per-step numbers overlap.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

HANDS = {"score": ["score", "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3", "--rules", "mcr"],
         "shanten": ["shanten", "123m456p789s1299s", "--rules", "mcr"]}
RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


def _env(cache: str, shipped: bool) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, MJFAST_CACHE_DIR=os.path.join(cache, "tables"))
    env.pop("MJFAST_JIT_NO_SHIPPED", None)
    if not shipped:
        env["MJFAST_JIT_NO_SHIPPED"] = "1"
    return env


def cli_first_run(command: str, shipped: bool) -> dict:
    """Seconds of the first and the second run of one CLI command on an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache, shipped)
        out = {}
        for label in ("first", "warm"):
            t = time.perf_counter()
            res = subprocess.run([sys.executable, "-m", "mjfast", *HANDS[command]], env=env,
                                 capture_output=True, text=True)
            out[label] = round(time.perf_counter() - t, 2)
            if res.returncode != 0:
                raise RuntimeError(res.stderr[-2000:])
            if label == "first":
                out["announced"] = "compiling kernels" in res.stderr
        return out


_STEP_CODE = """
import json, sys, time
from mjfast import _warmup
thunk = _warmup.step(sys.argv[1], sys.argv[2])
t = time.perf_counter(); thunk(); first = time.perf_counter() - t
t = time.perf_counter(); thunk(); warm = time.perf_counter() - t
print(json.dumps({"first": round(first, 3), "warm": round(warm, 4)}))
"""


def step_first_call(rules: str, name: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        res = subprocess.run([sys.executable, "-c", _STEP_CODE, rules, name],
                             env=_env(cache, shipped=False), capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(res.stderr[-2000:])
        return json.loads(res.stdout.strip().splitlines()[-1])


_TABLES_CODE = """
import time
from mjfast.kernels import _shanten_tables as T
T.generate()                                   # compile / load the generator kernel
t = time.perf_counter(); T.get_tables(); print(time.perf_counter() - t)
"""


def tables_first_use() -> float:
    """Seconds to generate and store the shanten tables into an empty table cache (the
    kernel cache as it is); moved here from a test that asserted "under 5 s"."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, MJFAST_CACHE_DIR=folder)
        res = subprocess.run([sys.executable, "-c", _TABLES_CODE], env=env, capture_output=True,
                             text=True, check=True)
        return float(res.stdout.strip().splitlines()[-1])


def shipped_cache_present() -> bool:
    from mjfast.kernels import _config
    return (_config.SHIPPED / _config.KEY / _config.WARM_MARKER).is_file()


# ---- pytest-benchmark ---------------------------------------------------------------------
@pytest.mark.parametrize("shipped", [False, True], ids=["cold", "fresh_install"])
@pytest.mark.parametrize("command", list(HANDS))
def test_cli_first_run(benchmark, command, shipped):
    if shipped and not shipped_cache_present():
        pytest.skip("no install-time kernel cache (installed with MJFAST_NO_WARMUP?)")
    res = benchmark.pedantic(cli_first_run, args=(command, shipped), rounds=1, iterations=1)
    benchmark.extra_info.update(res)


def test_shanten_tables_first_use(benchmark):
    s = benchmark.pedantic(tables_first_use, rounds=1, iterations=1)
    benchmark.extra_info["seconds"] = round(s, 3)


@pytest.mark.parametrize("name", ["score", "shanten", "score_waits", "decompose"])
@pytest.mark.parametrize("rules", RULES)
def test_step_first_call(benchmark, rules, name):
    res = benchmark.pedantic(step_first_call, args=(rules, name), rounds=1, iterations=1)
    benchmark.extra_info.update(res)
    benchmark.extra_info["compile_s"] = round(res["first"] - res["warm"], 3)


if __name__ == "__main__":
    print(f"shipped install-time cache present: {shipped_cache_present()}")
    for command in HANDS:
        for shipped in (False, True):
            if shipped and not shipped_cache_present():
                continue
            r = cli_first_run(command, shipped)
            label = "fresh install" if shipped else "cold (no shipped cache)"
            print(f"mjfast {command:8s} {label:24s} first {r['first']:7.2f} s  "
                  f"warm {r['warm']:5.2f} s  announced={r['announced']}", flush=True)
    print(f"shanten tables, first use: {tables_first_use():.2f} s", flush=True)
    if "--steps" in sys.argv:
        from mjfast._warmup import step_names
        for rules in RULES:
            for name in step_names():
                r = step_first_call(rules, name)
                print(f"{rules:10s} {name:15s} first {r['first']:7.2f} s  warm {r['warm']:8.4f} s  "
                      f"compile {r['first'] - r['warm']:7.2f} s", flush=True)
