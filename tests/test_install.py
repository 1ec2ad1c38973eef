"""Packaging facts: Numba caching on a read-only install, generated files ignored."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from mjfast.kernels import _cache as _config

SCRIPT = """
import os, numpy as np
import mjfast
from mjfast._decompose import decompose_batch
c = np.zeros((1, 34), np.uint8); c[0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]] = 1; c[0, 27] = 2
assert decompose_batch(c, "mcr").count()[0] == 1
from mjfast.kernels import _cache
print(_cache.CACHE_DIR)
"""


def _read_only_copy(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(REPO / "mjfast", site / "mjfast",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "_jitcache"))
    for root, dirs, files in os.walk(site):
        for name in files + dirs:
            p = Path(root) / name
            p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    site.chmod(0o555)
    return site


@pytest.mark.slow
def test_numba_cache_redirected_on_read_only_install(tmp_path):
    site = _read_only_copy(tmp_path)
    # Root ignores permission bits, so also make the kernels' cache folder impossible to
    # create (a plain file stands where _jitcache would go): unwritable for anyone.
    kernels = site / "mjfast" / "kernels"
    kernels.chmod(0o755)
    shutil.rmtree(kernels / "_jitcache", ignore_errors=True)
    (kernels / "_jitcache").write_text("")
    kernels.chmod(0o555)
    assert not _config._writable(str(kernels / "_jitcache"))
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "MJFAST_JIT_DIR")}
    env.update(PYTHONPATH=str(site), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    for _ in range(2):   # the second run loads the kernels from the cache
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=1800)
        assert out.returncode == 0, out.stderr
    cache_dir = out.stdout.strip().splitlines()[-1]
    assert cache_dir.startswith(str(home))
    assert Path(cache_dir).name == f"jit-{_config.sources_hash()}"
    assert any(Path(cache_dir).rglob("*.nbi")), "kernels were not cached"


def test_generated_build_files_are_ignored():
    ignore = (REPO / ".gitignore").read_text()
    for pattern in ("*.so", "*.c", "build/", "__pycache__/"):
        assert pattern in ignore
