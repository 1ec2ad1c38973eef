"""Numba settings shared by every kernel, and where compiled kernels are cached.

Every compiled function of the package (the kernels here, and the engine, simulation and
replay kernels: :func:`jit_sources`) is cached in ONE flat folder keyed by a hash of every
such source file (``KEY``), by a cache locator of our own (:class:`KernelCacheLocator`, first in
Numba's list):

- the folder does not depend on where the package lies, so a cache compiled at install
  time (``setup.py`` runs :mod:`mjfast._warmup` while building and ships the result as
  ``mjfast/kernels/_jitcache/<KEY>/``) is valid for an editable install and for a wheel
  copied to site-packages alike;
- the freshness stamp is ``KEY``, not one file's stamp: Numba's own check only looks at
  the file a function is defined in, so a kernel calling into another file (every scorer
  calls the decomposer) could load stale machine code; keyed by all sources, it cannot.
  Numba itself still checks its version, the Python version and the CPU.

The user folder is ``$NUMBA_CACHE_DIR/mjfast-<KEY>`` when NUMBA_CACHE_DIR is set, else
``$XDG_CACHE_HOME/mjfast/numba-<KEY>`` (``~/.cache``), else a temp folder: always a
per-user writable place (caching works on a read-only install). On first import it is
seeded from the shipped folder when that exists. ``MJFAST_JIT_BUILD_DIR`` (set by the
build's warm-up only) makes the cache write straight into ``$MJFAST_JIT_BUILD_DIR/<KEY>``,
the folder to ship; ``MJFAST_JIT_NO_SHIPPED=1`` ignores the shipped folder (to measure
a first run without it: ``benchmarks/bench_first_run.py``).

Every source change makes a new keyed folder; :func:`prune_stale` (run on import) removes
the old ones of the same parent: it keeps the current folder, the ``MJFAST_CACHE_KEEP``
(default 3) most recently used others, and any folder used in the last two hours (each
import marks its folder used), and it never raises.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
SHIPPED = HERE / "_jitcache"
WARM_MARKER = "warm.json"     # written by mjfast._warmup when every entry point compiled


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".mjfast-write-probe-{os.getpid()}")
        with open(probe, "w"):
            pass
        os.remove(probe)
        return True
    except OSError:
        return False


# Folders of the package whose code never reaches compiled code: edits there keep the cache.
_NOT_COMPILED = {"cli", "report", "analytics", "data", "_jitcache", "__pycache__"}


def jit_sources() -> list[Path]:
    """Every source file whose code or constants can end up in compiled kernels: every
    ``.py``/``.pyx`` of the package outside the command line, report and analytics
    layers (the engine, simulation and replay kernels import constants from the hand
    model, the rule profile and the event model, so those count too)."""
    files = [p for p in sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.pyx"))
             if not _NOT_COMPILED.intersection(p.relative_to(PACKAGE).parts[:-1])]
    return files


def sources_hash() -> str:
    """Hash of every source in :func:`jit_sources` (names relative to the package)."""
    h = hashlib.sha256()
    for p in jit_sources():
        h.update(p.relative_to(PACKAGE).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


KEY = sources_hash()
_JIT_FILES = frozenset(p.resolve() for p in jit_sources())


def _copy_missing(src: Path, dst: str) -> None:
    """Copy the cache files of ``src`` that ``dst`` lacks (atomic per file; no marker)."""
    for f in sorted(src.iterdir()):
        if f.name == WARM_MARKER or not f.is_file() or f.name.endswith(".tmp"):
            continue
        target = os.path.join(dst, f.name)
        if not os.path.exists(target):
            tmp = f"{target}.{os.getpid()}.tmp"
            shutil.copyfile(f, tmp)
            os.replace(tmp, target)


def _seed_from_shipped(path: str, key: str) -> None:
    """Copy the install-time cache into an empty user folder (once; atomic per file)."""
    src = SHIPPED / key
    if os.environ.get("MJFAST_JIT_NO_SHIPPED") or not (src / WARM_MARKER).is_file():
        return
    if os.path.exists(os.path.join(path, WARM_MARKER)):
        return
    try:
        _copy_missing(src, path)                  # data files first, the marker last
        shutil.copyfile(src / WARM_MARKER, os.path.join(path, WARM_MARKER))
    except OSError:
        pass                                      # compile at first use instead


def _user_candidates(key: str) -> list[str]:
    candidates = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], f"mjfast-{key}"))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates.append(os.path.join(base, "mjfast", f"numba-{key}"))
    uid = os.getuid() if hasattr(os, "getuid") else 0
    candidates.append(os.path.join(tempfile.gettempdir(), f"mjfast-{uid}", f"numba-{key}"))
    return candidates


KEEP_OTHERS = 3               # stale keyed folders kept (the most recently used)
IDLE_S = 2 * 3600             # a folder used more recently than this is never removed
_KEYED = re.compile(r"(numba|mjfast)-[0-9a-f]{16}")


def prune_stale(current: str, keep: int | None = None, idle_s: float = IDLE_S) -> list[str]:
    """Remove the keyed cache folders (``numba-<KEY>`` / ``mjfast-<KEY>``) beside
    ``current`` that older sources left: all but the ``keep`` most recently used (default
    ``MJFAST_CACHE_KEEP`` or 3) and those used in the last ``idle_s`` seconds. ``current``
    itself is marked used (its mtime) and never removed; nothing else in the parent folder
    is touched. Returns the removed paths; never raises (a folder that cannot be removed
    stays)."""
    removed: list[str] = []
    try:
        if keep is None:
            keep = int(os.environ.get("MJFAST_CACHE_KEEP", KEEP_OTHERS))
        parent, name = os.path.split(os.path.abspath(current))
        prefix = name.split("-", 1)[0] + "-"
        try:
            os.utime(current)
        except OSError:
            pass
        now = time.time()
        stale = []
        with os.scandir(parent) as it:
            for e in it:
                if e.name == name or not e.name.startswith(prefix) or not _KEYED.fullmatch(e.name):
                    continue
                try:
                    if e.is_dir(follow_symlinks=False):
                        stale.append((e.stat(follow_symlinks=False).st_mtime, e.path))
                except OSError:
                    continue
        stale.sort(reverse=True)
        for mtime, path in stale[max(keep, 0):]:
            if now - mtime < idle_s:
                continue
            shutil.rmtree(path, ignore_errors=True)
            if not os.path.exists(path):
                removed.append(path)
    except Exception:          # noqa: BLE001 -- pruning is housekeeping: never fail an import
        pass
    return removed


def choose_cache_dir() -> str | None:
    """The first writable candidate folder for the compiled-kernel cache, or None."""
    key = sources_hash()
    build = os.environ.get("MJFAST_JIT_BUILD_DIR")
    if build:
        build = os.path.join(build, key)
        if not _writable(build):
            return None
        # kernels this user already compiled from the same sources need no second compile
        for user in _user_candidates(key):
            if os.path.isdir(user):
                try:
                    _copy_missing(Path(user), build)
                except OSError:
                    pass
        return build
    for candidate in _user_candidates(key):
        if _writable(candidate):
            _seed_from_shipped(candidate, key)
            prune_stale(candidate)
            return candidate
    return None


def _install_locator() -> bool:
    """Put :class:`KernelCacheLocator` first in Numba's locator list."""
    try:
        from numba.core import caching
        base = caching._CacheLocator
        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    except (ImportError, AttributeError):     # pragma: no cover (a Numba without them)
        return False

    class KernelCacheLocator(base):
        """Every compiled function of the package (:func:`jit_sources`): the keyed folder,
        stamped with ``KEY``; the file's folder and line disambiguate (one flat folder
        holds ``engine/_score.py`` and a ``kernels/_score.py`` alike)."""

        def __init__(self, py_func, py_file):
            self._lineno = py_func.__code__.co_firstlineno
            self._folder = Path(py_file).resolve().parent.name

        def get_cache_path(self):
            return CACHE_DIR

        def get_source_stamp(self):
            return KEY

        def get_disambiguator(self):
            return f"{self._folder}-{self._lineno}"

        @classmethod
        def from_function(cls, py_func, py_file):
            if CACHE_DIR is None:
                return None
            try:
                if Path(py_file).resolve() not in _JIT_FILES:
                    return None
            except OSError:
                return None
            return cls(py_func, py_file)

    if not any(c.__name__ == "KernelCacheLocator" for c in impl._locator_classes):
        impl._locator_classes.insert(0, KernelCacheLocator)
    return True


CACHE_DIR = choose_cache_dir()
_LOCATOR = CACHE_DIR is not None and _install_locator()

# cache=False when no folder is writable: compile in memory rather than fail.
JIT_OPTIONS = dict(cache=bool(_LOCATOR), nogil=True)


def _announce_compiles() -> None:
    """Print once on stderr when a kernel starts compiling (the CLI asks for this by
    setting ``MJFAST_ANNOUNCE_COMPILE``; cache hits are silent)."""
    from numba.core import event

    class _Once(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                import sys
                print("mjfast: compiling kernels, first run only (this can take a minute or "
                      "more; later runs load them from the cache) ...", file=sys.stderr,
                      flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Once())


if os.environ.get("MJFAST_ANNOUNCE_COMPILE") == "1":
    _announce_compiles()


def is_warm() -> bool:
    """True when every entry point of :mod:`mjfast._warmup` is in the cache."""
    return CACHE_DIR is not None and os.path.exists(os.path.join(CACHE_DIR, WARM_MARKER))


def python_function(kernel):
    """The Python function behind a compiled kernel (itself under NUMBA_DISABLE_JIT=1), to
    compile a second, inlined copy of it."""
    return getattr(kernel, "py_func", kernel)
