"""Numba settings shared by every kernel.

Numba caches compiled kernels beside their source. On a read-only install (site-packages
owned by root, a container image) that fails, so :func:`ensure_cache_dir` points
``NUMBA_CACHE_DIR`` at a writable per-user folder before Numba is imported.
"""
from __future__ import annotations

import os
import tempfile


def _writable(path: str) -> bool:
    try:
        probe = os.path.join(path, "__pycache__")
        os.makedirs(probe, exist_ok=True)
        return os.access(probe, os.W_OK)
    except OSError:
        return False


def ensure_cache_dir() -> str | None:
    """Set NUMBA_CACHE_DIR when the package folder is not writable; return the dir used."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    here = os.path.dirname(os.path.abspath(__file__))
    if _writable(here):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for candidate in (os.path.join(base, "mjfast", "numba"),
                      os.path.join(tempfile.gettempdir(), f"mjfast-numba-{os.getuid() if hasattr(os, 'getuid') else 0}")):
        try:
            os.makedirs(candidate, exist_ok=True)
            if os.access(candidate, os.W_OK):
                os.environ["NUMBA_CACHE_DIR"] = candidate
                return candidate
        except OSError:
            continue
    return None


ensure_cache_dir()

JIT_OPTIONS = dict(cache=True, nogil=True)
