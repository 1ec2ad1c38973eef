"""Numba settings shared by every kernel.

Compiled kernels are cached on disk, in a folder keyed by a hash of every kernel source
file. Numba's own cache only checks the timestamp of the file a function is defined in,
so a kernel that calls into another file (every scorer calls the decomposer) could load
stale machine code after an upgrade; keying the folder by all sources rules that out.
The folder is ``$NUMBA_CACHE_DIR/mjfast-<hash>`` when the user set NUMBA_CACHE_DIR, else
``$XDG_CACHE_HOME/mjfast/numba-<hash>`` (``~/.cache``), else a temp folder: always a
per-user writable place, so caching also works on a read-only install.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".mjfast-write-probe")
        with open(probe, "w"):
            pass
        os.remove(probe)
        return True
    except OSError:
        return False


def sources_hash() -> str:
    """Hash of every kernel source (Python and Cython) and the package version."""
    h = hashlib.sha256()
    for p in sorted(HERE.glob("*.py")) + sorted(HERE.glob("*.pyx")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def choose_cache_dir() -> str | None:
    """The first writable candidate folder for the compiled-kernel cache, or None."""
    key = sources_hash()
    candidates = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], f"mjfast-{key}"))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates.append(os.path.join(base, "mjfast", f"numba-{key}"))
    uid = os.getuid() if hasattr(os, "getuid") else 0
    candidates.append(os.path.join(tempfile.gettempdir(), f"mjfast-{uid}", f"numba-{key}"))
    for candidate in candidates:
        if _writable(candidate):
            return candidate
    return None


def ensure_cache_dir() -> str | None:
    """Point Numba's cache at :func:`choose_cache_dir` (before or after Numba loads)."""
    path = choose_cache_dir()
    if path is None:
        return None
    import numba.core.config as numba_config
    numba_config.CACHE_DIR = path
    return path


CACHE_DIR = ensure_cache_dir()

# cache=False when no folder is writable: compile in memory rather than fail.
JIT_OPTIONS = dict(cache=CACHE_DIR is not None, nogil=True)
