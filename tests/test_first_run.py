"""The first run: kernels compiled at install time are loaded, not compiled, by a copy of
the package elsewhere (a wheel in site-packages); compiling is announced once, by the CLI
only. (How long a first run takes is a benchmark: benchmarks/bench_first_run.py.)"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from mjfast.kernels import _config

COUNT_COMPILES = """
import json, sys
from numba.core import event
n = []
class L(event.Listener):
    def on_start(self, ev): n.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev): pass
event.register("numba:compile", L())
import mjfast
from mjfast.kernels import _config
b = mjfast.random_hands(50, "taiwan", "ready", seed=3, threads=1)
if sys.argv[1] == "mark":
    open(_config.CACHE_DIR + "/" + _config.WARM_MARKER, "w").write("{}")
print(json.dumps({"compiled": n, "cache": _config.CACHE_DIR, "sum": int(b.counts.sum())}))
"""


def _copy(dst: Path) -> Path:
    shutil.copytree(REPO / "mjfast", dst / "mjfast",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "_jitcache"))
    return dst


def _run(site: Path, home: Path, arg: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "MJFAST_JIT_BUILD_DIR", "MJFAST_JIT_NO_SHIPPED",
                        "MJFAST_ANNOUNCE_COMPILE")}
    env.update(PYTHONPATH=str(site), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), **extra)
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES, arg], env=env, cwd=site,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_install_time_cache_is_loaded_by_a_copy_elsewhere(tmp_path):
    build = _copy(tmp_path / "build")
    jit = build / "mjfast" / "kernels" / "_jitcache"
    made = _run(build, tmp_path / "h0", "mark", MJFAST_JIT_BUILD_DIR=str(jit))
    assert "generate_range" in made["compiled"]
    assert Path(made["cache"]).parent == jit
    # "install": the package (with its _jitcache) copied elsewhere, fresh mtimes, new user
    site = tmp_path / "site"
    shutil.copytree(build / "mjfast", site / "mjfast")
    for p in (site / "mjfast").rglob("*.py"):
        p.touch()
    used = _run(site, tmp_path / "h1", "")
    assert used["compiled"] == [], used["compiled"]          # loaded, not compiled
    assert used["cache"].startswith(str(tmp_path / "h1"))
    assert used["sum"] == made["sum"]
    # without the shipped cache the same run compiles
    cold = _run(site, tmp_path / "h2", "", MJFAST_JIT_NO_SHIPPED="1")
    assert "generate_range" in cold["compiled"]


def test_a_changed_kernel_source_is_a_different_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("MJFAST_JIT_BUILD_DIR", raising=False)
    fake = tmp_path / "pkg"
    for sub in ("kernels", "engine", "cli"):
        (fake / sub).mkdir(parents=True)
    (fake / "kernels" / "_a.py").write_text("x = 1")
    (fake / "engine" / "_b.py").write_text("y = 1")
    (fake / "cli" / "_c.py").write_text("z = 1")
    monkeypatch.setattr(_config, "PACKAGE", fake)
    a = _config.choose_cache_dir()
    (fake / "kernels" / "_a.py").write_text("x = 2")
    b = _config.choose_cache_dir()
    assert b != a
    # the engine calls into the kernels: its sources key the cache too (Numba's own stamp
    # looks only at the defining file, so a cached engine kept stale kernel code)
    (fake / "engine" / "_b.py").write_text("y = 2")
    c = _config.choose_cache_dir()
    assert c != b
    # the command line never reaches compiled code: editing it keeps the cache
    (fake / "cli" / "_c.py").write_text("z = 2")
    assert _config.choose_cache_dir() == c


def test_engine_simulation_and_replay_kernels_use_the_keyed_cache():
    sources = {p.relative_to(_config.PACKAGE).as_posix() for p in _config.jit_sources()}
    for f in ("kernels/_entry.py", "engine/_core.py", "simulation/_loop.py", "replay/_fold.py",
              "hand.py", "rules/_profile.py", "datasets/_events.py"):
        assert f in sources
    assert not any(s.startswith(("cli/", "report/", "analytics/")) for s in sources)
    if _config.CACHE_DIR is None:
        return
    from mjfast.engine import _core
    locator = _core.apply._cache._impl.locator     # the locator Numba chose for it
    assert locator.get_cache_path() == _config.CACHE_DIR
    assert locator.get_source_stamp() == _config.KEY
    assert locator.get_disambiguator().startswith("engine-")


ANNOUNCE = """
import os
os.environ.update(MJFAST_ANNOUNCE_COMPILE=sys_arg) if (sys_arg := __import__("sys").argv[1]) else None
import mjfast.kernels._config
from numba import njit
@njit
def f(x): return x + 1
@njit
def g(x): return x * 2
f(1); g(2); f(1.5)
"""


def test_compiling_is_announced_once_when_asked():
    def stderr(flag):
        return subprocess.run([sys.executable, "-c", ANNOUNCE, flag], capture_output=True,
                              text=True, check=True,
                              env={k: v for k, v in os.environ.items()
                                   if k != "MJFAST_ANNOUNCE_COMPILE"}).stderr
    assert stderr("1").count("compiling kernels, first run only") == 1
    assert "compiling kernels" not in stderr("")          # library use: silent


def test_the_cli_asks_for_the_announcement(monkeypatch):
    monkeypatch.delenv("MJFAST_ANNOUNCE_COMPILE", raising=False)
    from mjfast.cli import main
    try:
        main(["--help"])
    except SystemExit:
        pass
    assert os.environ.get("MJFAST_ANNOUNCE_COMPILE") == "1"
