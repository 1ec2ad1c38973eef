"""The kernel cache: compiled at install time and loaded by a copy of the package elsewhere
(a wheel in site-packages); each function keyed by the sources it depends on, so an edit
recompiles what it touches and nothing else; compiling is announced once, by the CLI only.
(How long a first run takes is a benchmark: benchmarks/bench_first_run.py.)"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from mjfast.kernels import _cache

COUNT_COMPILES = """
import json, sys
from numba.core import event
n = []
class L(event.Listener):
    def on_start(self, ev): n.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev): pass
event.register("numba:compile", L())
import mjfast
from mjfast.kernels import _cache
b = mjfast.random_hands(50, "taiwan", "ready", seed=3, threads=1)
extra = None
if len(sys.argv) > 1 and sys.argv[1] == "probe":
    from mjfast.kernels import _probe_use
    extra = int(_probe_use.probe(1))
print(json.dumps({"compiled": n, "cache": _cache.CACHE_DIR, "sum": int(b.counts.sum()),
                  "probe": extra}))
"""


def _copy(dst: Path) -> Path:
    shutil.copytree(REPO / "mjfast", dst / "mjfast",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "_jitcache"))
    return dst


def _run(site: Path, home: Path, *args, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "MJFAST_JIT_DIR", "MJFAST_ANNOUNCE_COMPILE")}
    env.update(PYTHONPATH=str(site), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), **extra)
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES, *args], env=env, cwd=site,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_install_time_cache_is_loaded_by_a_copy_elsewhere(tmp_path):
    build = _copy(tmp_path / "build")
    made = _run(build, tmp_path / "h0")
    assert "generate_range" in made["compiled"]
    assert Path(made["cache"]) == build / "mjfast" / "kernels" / "_jitcache"
    # "install": the package (with its _jitcache) copied elsewhere, fresh mtimes, new user
    site = tmp_path / "site"
    shutil.copytree(build / "mjfast", site / "mjfast")
    for p in (site / "mjfast").rglob("*.py"):
        p.touch()
    used = _run(site, tmp_path / "h1")
    assert used["compiled"] == [], used["compiled"]          # loaded, not compiled
    assert Path(used["cache"]) == site / "mjfast" / "kernels" / "_jitcache"
    assert used["sum"] == made["sum"]
    # an empty cache folder (MJFAST_JIT_DIR) compiles again
    cold = _run(site, tmp_path / "h2", MJFAST_JIT_DIR=str(tmp_path / "empty"))
    assert "generate_range" in cold["compiled"]


@pytest.mark.slow
def test_an_edit_recompiles_its_dependants_and_nothing_else(tmp_path):
    site = _copy(tmp_path / "site")
    kernels = site / "mjfast" / "kernels"
    (kernels / "_probe_dep.py").write_text("K = 3\n")
    (kernels / "_probe_use.py").write_text(
        "from ._jit import kernel\nfrom ._probe_dep import K\n\n\n"
        "@kernel\ndef probe(x):\n    return x + K\n")
    first = _run(site, tmp_path / "h", "probe")
    assert first["probe"] == 4 and "probe" in first["compiled"]
    again = _run(site, tmp_path / "h", "probe")
    assert again["compiled"] == [] and again["probe"] == 4
    # a constant changed in the module it imports: the caller is stale, and recompiles
    (kernels / "_probe_dep.py").write_text("K = 5\n")
    edited = _run(site, tmp_path / "h", "probe")
    assert edited["probe"] == 6 and edited["compiled"] == ["probe"], edited["compiled"]
    # an edit to a module the function does not depend on recompiles nothing
    (site / "mjfast" / "cli" / "_app.py").write_text(
        (site / "mjfast" / "cli" / "_app.py").read_text() + "\n# edited\n")
    (kernels / "_probe_other.py").write_text("Z = 1\n")
    calm = _run(site, tmp_path / "h", "probe")
    assert calm["compiled"] == [] and calm["probe"] == 6


def test_stamps_follow_module_level_imports(tmp_path, monkeypatch):
    fake = tmp_path / "mjfast"
    (fake / "kernels").mkdir(parents=True)
    (fake / "engine").mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "kernels" / "__init__.py").write_text("")
    (fake / "engine" / "__init__.py").write_text("")
    (fake / "kernels" / "_a.py").write_text("X = 1\n")
    (fake / "kernels" / "_b.py").write_text("def f():\n    from ._a import X\n")   # not module level
    (fake / "engine" / "_c.py").write_text("from ..kernels import _a\nfrom mjfast.kernels._b import f\n")
    for fn in (_cache._direct_deps, _cache.imports_of, _cache.module_closure,
               _cache.module_stamp, _cache._file_hash):
        fn.cache_clear()
    monkeypatch.setattr(_cache, "PACKAGE", fake)
    try:
        # ``from ..kernels import _a`` depends on the submodule, not on the package's face
        assert _cache.module_closure("mjfast.engine._c") == (
            "mjfast.engine._c", "mjfast.kernels._a", "mjfast.kernels._b")
        assert _cache.module_closure("mjfast.kernels._b") == ("mjfast.kernels._b",)
    finally:
        for fn in (_cache._direct_deps, _cache.imports_of, _cache.module_closure,
                   _cache.module_stamp, _cache._file_hash):
            fn.cache_clear()


def test_engine_simulation_and_replay_kernels_use_the_package_cache():
    if _cache.CACHE_DIR is None:
        return
    from mjfast.engine import _core
    locator = _core.apply._cache._impl.locator     # the locator Numba chose for it
    assert locator.get_cache_path() == _cache.CACHE_DIR
    assert locator.get_source_stamp() == _cache.module_stamp("mjfast.engine._core")
    assert locator.get_disambiguator() == "engine._core"
    closure = _cache.module_closure("mjfast.engine._core")
    assert "mjfast.engine.layout" in closure and "mjfast.cli" not in closure


ANNOUNCE = """
import os
os.environ.update(MJFAST_ANNOUNCE_COMPILE=sys_arg) if (sys_arg := __import__("sys").argv[1]) else None
import mjfast.kernels._jit
from numba import njit
@njit
def f(x): return x + 1
@njit
def g(x): return x * 2
f(1); g(2); f(1.5)
"""


@pytest.mark.slow
def test_compiling_is_announced_once_when_asked():
    def stderr(flag):
        return subprocess.run([sys.executable, "-c", ANNOUNCE, flag], capture_output=True,
                              text=True, check=True,
                              env={k: v for k, v in os.environ.items()
                                   if k != "MJFAST_ANNOUNCE_COMPILE"}).stderr
    assert stderr("1").count("compiling kernels") == 1
    assert "compiling kernels" not in stderr("")          # library use: silent


def test_the_cli_asks_for_the_announcement(monkeypatch):
    monkeypatch.delenv("MJFAST_ANNOUNCE_COMPILE", raising=False)
    from mjfast.cli import main
    try:
        main(["--help"])
    except SystemExit:
        pass
    assert os.environ.get("MJFAST_ANNOUNCE_COMPILE") == "1"
