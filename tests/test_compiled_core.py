"""The compiled core is compiled once: one version per function, a small cache, no
scorer code outside its linked symbol, edits that recompile only what they touch, and
after the warm-up no command or public call compiles anything."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from mjfast.kernels import _cache

ENGINE_SIDE = ("mjfast.engine", "mjfast.simulation", "mjfast.replay")


def _current_indexes():
    """(module, path, overloads) of every cache index whose stamp is current."""
    folder = Path(_cache.CACHE_DIR)
    out = []
    for p in sorted(folder.glob("*.nbi")):
        stem = p.name[: p.name.rindex(".py")]
        module = "mjfast." + stem[stem.rindex("-") + 1:]
        with open(p, "rb") as fh:
            pickle.load(fh)                          # the Numba version
            stamp, overloads = pickle.loads(fh.read())
        if _cache._module_file(module) is None or stamp != _cache.module_stamp(module):
            continue
        out.append((module, p, overloads))
    return out


def _warm() -> None:
    """Run the warm-up (cheap when the cache is warm: it then only loads)."""
    if _cache.CACHE_DIR is None:
        pytest.skip("no writable kernel cache folder")
    if not _cache.is_warm():
        r = subprocess.run([sys.executable, "-m", "mjfast._warmup"], cwd=REPO,
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]


def test_no_fan_predicate_reaches_the_engine_side():
    """The engine, simulation and replay modules depend on the scorers' symbol table,
    never on a scorer's implementation: an edit to a fan predicate recompiles none of
    them (their cache stamps do not cover it)."""
    impl = {"mjfast.kernels._mcr_fans", "mjfast.kernels._mcr_hand", "mjfast.kernels._score_taiwan",
            "mjfast.kernels._score_tuidaohu", "mjfast.kernels._exclude"}
    compiled = [m for m in _cache.compiled_modules() if m.startswith(ENGINE_SIDE)]
    assert compiled
    for m in compiled:
        closure = set(_cache.module_closure(m))
        assert not closure & impl, (m, closure & impl)


@pytest.mark.slow
def test_one_version_per_function_and_a_small_cache():
    _warm()
    entries = _current_indexes()
    assert len(entries) > 50
    for module, path, overloads in entries:
        per_cpu: dict = {}
        for key in overloads:
            sig, magic = key[0], key[1]
            per_cpu.setdefault(magic, []).append(sig)
        for magic, sigs in per_cpu.items():
            assert len(sigs) == 1, (path.name, sigs)
    size = 0
    for _module, path, overloads in entries:
        size += path.stat().st_size
        size += sum((path.parent / name).stat().st_size for name in overloads.values()
                    if (path.parent / name).exists())
    assert size <= 20 * 2 ** 20, f"{size / 2 ** 20:.1f} MB of compiled kernels"


COUNT = r"""
import json, os, sys
from numba.core import event
compiled = []
class L(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        f = getattr(d, "py_func", d)
        compiled.append(f"{f.__module__}.{f.__qualname__}")
    def on_end(self, ev):
        pass
event.register("numba:compile", L())
from mjfast.cli import main
for argv in json.loads(sys.argv[1]):
    try:
        main(argv)
    except SystemExit as e:
        if e.code not in (0, None, 1):
            raise
import mjfast
for rules in ("mcr", "taiwan", "tuidaohu", "two_player"):
    b = mjfast.random_hands(20, rules, "complete", seed=4)
    r = mjfast.random_hands(20, rules, "ready", seed=4)
    mjfast.score_batch(b, rules=rules)
    mjfast.score_batch(mjfast.random_hands(5000, rules, "complete", seed=4), rules=rules)
    mjfast.score(b.hand(0), rules=rules)
    mjfast.score_waits(r.hand(0), rules=rules)
    mjfast.shanten(r.counts, rules=rules)
    mjfast.waits(r.counts, rules=rules)
    mjfast.decompose(b.hand(0))
print(json.dumps(compiled))
"""


@pytest.mark.slow
def test_nothing_compiles_after_the_warm_up(tmp_path):
    from mjfast.data import botzone_text_sample
    _warm()
    out = str(tmp_path)
    commands = [
        ["score", "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3", "--rules", "mcr", "--json"],
        ["score", "123m456m789m123p456p1s1s", "--rules", "taiwan", "--tsumo"],
        ["score", "123m456m789m123p11p", "--rules", "tuidaohu", "--tsumo"],
        ["shanten", "123m456p789s1299s", "--rules", "mcr"],
        ["parse", "123m456p789s1299s1z", "--rules", "mcr"],
        ["score-waits", "123m456p789s1299s", "--rules", "mcr"],
        ["simulate", "--rules", "mcr", "--bots", "efficiency,value,efficiency,value",
         "--deals", "4", "--out", out + "/sim-mcr", "--quiet"],
        ["simulate", "--rules", "taiwan", "--deals", "2", "--out", out + "/sim-tw", "--quiet"],
        ["simulate", "--rules", "two_player", "--deals", "2", "--out", out + "/sim-tp",
         "--quiet"],
        ["simulate", "--rules", "mcr", "--bots", "planner", "--deals", "2", "--out",
         out + "/sim-mcr-planner", "--quiet"],
        ["simulate", "--rules", "mcr", "--bots", "planner_defend,planner,planner,planner",
         "--deals", "2", "--out", out + "/sim-mcr-defend", "--quiet"],
        ["simulate", "--rules", "tuidaohu", "--bots", "planner,value,efficiency,planner",
         "--deals", "2", "--out", out + "/sim-tdh", "--quiet"],
        ["replay", str(botzone_text_sample()), "--format", "botzone", "--candidates", "--out",
         out + "/replay", "--quiet"],
        ["hands", "-n", "2000", "--kind", "ready", "--out", out + "/hands", "--quiet"],
    ]
    env = {k: v for k, v in os.environ.items() if k != "MJFAST_ANNOUNCE_COMPILE"}
    r = subprocess.run([sys.executable, "-c", COUNT, json.dumps(commands)], cwd=tmp_path,
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    compiled = json.loads(r.stdout.strip().splitlines()[-1])
    assert compiled == [], compiled


FIRST_USE_IN_THREADS = r"""
import threading
import numpy as np
import mjfast
from mjfast.scoring import score_batch
batches = [mjfast.random_hands(2000, "mcr", "complete", seed=s) for s in (1, 2, 3, 4)]
start = threading.Barrier(len(batches))
out = [None] * len(batches)
def work(i):
    start.wait()
    out[i] = score_batch(batches[i], threads=1).totals
ts = [threading.Thread(target=work, args=(i,)) for i in range(len(batches))]
for t in ts: t.start()
for t in ts: t.join()
for i, b in enumerate(batches):
    assert np.array_equal(out[i], score_batch(b, threads=1).totals)
print("ok")
"""


def test_first_use_from_several_threads():
    """Threads that call a kernel at the same time as its first use in the process (the
    serial batch path loads from the cache and links the scorer symbol) all get the
    same answers as a later call: none runs code whose linked symbol is not there yet
    (this crashed the process before the symbols were registered under the compiler
    lock)."""
    _warm()
    r = subprocess.run([sys.executable, "-c", FIRST_USE_IN_THREADS], cwd=REPO,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


def test_vector_helpers_agree_with_python():
    """The intrinsics that write and read fixed slices with vector instructions
    (``widen_into``: the batch arrays into a hand row; ``sum_and_max``: the row's
    checks) do in compiled code what their Python versions do: zero- or sign-extension
    by the source's dtype, the max read as unsigned."""
    import numpy as np
    from mjfast.kernels import _jit
    if _jit.DISABLED:
        pytest.skip("compiled code only")

    @_jit.kernel
    def widen(dst, src_u8, src_i8):
        _jit.widen_into(dst, 3, src_u8, 34)
        _jit.widen_into(dst, 40, src_i8, 20)
        return _jit.sum_and_max(dst, 3, 34)

    rng = np.random.default_rng(5)
    for _ in range(20):
        u8 = rng.integers(0, 256, size=(2, 34)).astype(np.uint8)
        i8 = rng.integers(-128, 128, size=(2, 5, 4)).astype(np.int8)
        got = np.full(64, 7, dtype=np.int64)
        want = got.copy()
        s, m = widen(got, u8[1], i8[1])
        _jit._py_widen_into(want, 3, u8[1], 34)
        _jit._py_widen_into(want, 40, i8[1], 20)
        np.testing.assert_array_equal(got, want)
        assert (s, m) == _jit._py_sum_and_max(want, 3, 34)

    @_jit.kernel
    def check(a):
        return _jit.sum_and_max(a, 0, 34)

    counts = np.zeros(40, dtype=np.int64)
    counts[6] = 4
    counts[39] = 9                           # (outside the slice)
    assert check(counts) == (4, 4)
    counts[5] = -1                           # a negative count: the largest unsigned
    assert check(counts) == (3, 2 ** 64 - 1) == _jit._py_sum_and_max(counts, 0, 34)
