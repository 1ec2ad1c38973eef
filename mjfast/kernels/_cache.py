"""Where compiled kernels are cached, and when a cached function is still valid.

Every compiled function of the package is cached by Numba through
:class:`KernelCacheLocator` (first in Numba's list), in ONE flat folder (:data:`CACHE_DIR`):

- ``mjfast/kernels/_jitcache/`` beside the sources when that folder is writable (an
  editable install, a wheel in a virtual environment: ``setup.py`` compiles the kernels into
  it while building, so a fresh install's first command loads them);
- else a per-user folder (``$NUMBA_CACHE_DIR/mjfast-<KEY>``, else
  ``$XDG_CACHE_HOME/mjfast/jit-<KEY>`` with ``~/.cache`` as the default, else a temporary
  folder), seeded once from the shipped folder: a read-only install still caches;
- ``MJFAST_JIT_DIR`` overrides both (an empty folder measures a first run with nothing
  compiled).

**Per-function validity.** A function's cache stamp is the hash of the sources of its
module's *closure*: the module and every ``mjfast`` module it imports at module level,
followed transitively (:func:`module_closure`). Compiled code sees exactly those modules'
globals (functions it calls, constants it reads), so an edit invalidates every function
that can contain the edited code or constant and nothing else. Code reached through a
linked symbol (:mod:`._jit` ``external``) is not in the caller's closure: the callee is
compiled once, in its own cache entry, and the caller only knows the symbol's signature
(declared in :mod:`._symbols`, which is in the caller's closure). Line numbers play no
part (the file names are ``<module>.<function>-<package path>``). Numba itself keys each
entry by its version, the Python version, the function's bytecode and the CPU, so another
CPU or Numba version compiles once more (announced by the command line) and adds its entry.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent                      # the ``mjfast`` folder
ROOT = "mjfast"
SHIPPED = HERE / "_jitcache"
WARM_MARKER = "warm.json"                  # written by mjfast._warmup
FORMAT = "mjfast-cache-2"                  # bump to invalidate every entry


# ---------------------------------------------------------------------------------------
# module closures
# ---------------------------------------------------------------------------------------
def _module_file(name: str) -> Path | None:
    """The source file of the dotted module ``name`` (``mjfast.x.y``), or None."""
    parts = name.split(".")
    if parts[0] != ROOT:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def in_package(py_func) -> bool:
    """Whether ``py_func`` is defined in a file of the package."""
    import inspect
    try:
        Path(inspect.getfile(py_func)).resolve().relative_to(PACKAGE)
    except (TypeError, OSError, ValueError):
        return False
    return True


def _module_name(path: Path) -> str:
    rel = path.resolve().relative_to(PACKAGE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([ROOT, *parts])


def _top_level_imports(tree: ast.Module):
    """Import nodes executed at module level (inside top-level if/try too; not under
    ``if TYPE_CHECKING``, not inside functions or classes)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            test = node.test
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                stack.extend(node.orelse)
                continue
            stack.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend(node.body + node.orelse + node.finalbody)
            for h in node.handlers:
                stack.extend(h.body)


@functools.lru_cache(maxsize=None)
def imports_of(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(module, names)`` for every ``mjfast`` import module ``name`` runs at module level
    (``names`` empty for ``import mjfast.x``; ``from mjfast.x import a, b`` gives
    ``("mjfast.x", ("a", "b"))``)."""
    path = _module_file(name)
    if path is None:
        return ()
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out = []
    tree = ast.parse(path.read_bytes(), filename=str(path))
    for node in _top_level_imports(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, ()) for a in node.names if a.name.split(".")[0] == ROOT)
            continue
        if node.level:
            base = package.split(".")
            if node.level > 1:
                base = base[: len(base) - (node.level - 1)]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        if mod.split(".")[0] == ROOT:
            out.append((mod, tuple(a.name for a in node.names)))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _direct_deps(name: str) -> tuple[str, ...]:
    """The ``mjfast`` modules that module ``name`` imports at module level (a name
    imported from a package that is a submodule counts as that module; one the package
    re-exports from a submodule, ``from ._shanten import waits_row`` in its
    ``__init__``, counts as that submodule)."""
    out: set[str] = set()
    for mod, names in imports_of(name):
        exports = _reexports(mod)
        own = not names
        for a in names:
            if _module_file(f"{mod}.{a}") is not None:
                out.add(f"{mod}.{a}")
            elif a in exports:
                out.add(exports[a])
            else:
                own = True                        # a name defined by ``mod`` itself
        if own:
            out.add(mod)
    return tuple(sorted(m for m in out if _module_file(m) is not None and m != name))


def _reexports(package: str) -> dict[str, str]:
    """The names a package's ``__init__`` imports at module level from its own
    submodules, each with that submodule."""
    path = _module_file(package)
    if path is None or path.name != "__init__.py":
        return {}
    return {a: mod for mod, names in imports_of(package)
            if mod.startswith(package + ".") and _module_file(mod) is not None for a in names}


# modules no compiled code reads (this one decides where the cache is, not what it holds)
NOT_IN_STAMPS = frozenset({f"{ROOT}.kernels._cache"})


@functools.lru_cache(maxsize=None)
def module_closure(name: str) -> tuple[str, ...]:
    """``name`` and every ``mjfast`` module it imports at module level, transitively
    (less :data:`NOT_IN_STAMPS`)."""
    seen = {name}
    todo = [name]
    while todo:
        for dep in _direct_deps(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen - NOT_IN_STAMPS))


@functools.lru_cache(maxsize=None)
def _file_hash(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


@functools.lru_cache(maxsize=None)
def module_stamp(name: str) -> str:
    """The cache stamp of every compiled function defined in module ``name``."""
    h = hashlib.sha256(FORMAT.encode())
    for mod in module_closure(name):
        h.update(mod.encode() + b"\0")
        h.update(_file_hash(_module_file(mod)))
    return h.hexdigest()[:16]


def compiled_modules() -> list[str]:
    """Every module of the package that defines compiled functions (a ``kernel`` or
    ``export`` decorator, or Numba's own)."""
    mods = []
    pat = re.compile(rb"^@(kernel|export|njit|cfunc)\b", re.M)
    for p in sorted(PACKAGE.rglob("*.py")):
        if "_jitcache" in p.parts or "__pycache__" in p.parts:
            continue
        if pat.search(p.read_bytes()):
            mods.append(_module_name(p))
    return mods


def sources_hash() -> str:
    """One hash of every compiled module's closure (names a user cache folder for a
    read-only install, which nobody edits)."""
    h = hashlib.sha256(FORMAT.encode())
    for m in compiled_modules():
        h.update(m.encode() + b"\0" + module_stamp(m).encode())
    return h.hexdigest()[:16]


# ---------------------------------------------------------------------------------------
# the folder
# ---------------------------------------------------------------------------------------
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


def _copy_missing(src: Path, dst: str) -> None:
    """Copy the cache files of ``src`` that ``dst`` lacks (atomic per file)."""
    for f in sorted(src.iterdir()):
        if not f.is_file() or f.name.endswith(".tmp"):
            continue
        target = os.path.join(dst, f.name)
        if not os.path.exists(target):
            tmp = f"{target}.{os.getpid()}.tmp"
            shutil.copyfile(f, tmp)
            os.replace(tmp, target)


def _user_candidates(key: str) -> list[str]:
    out = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        out.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], f"mjfast-{key}"))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    out.append(os.path.join(base, "mjfast", f"jit-{key}"))
    uid = os.getuid() if hasattr(os, "getuid") else 0
    out.append(os.path.join(tempfile.gettempdir(), f"mjfast-{uid}", f"jit-{key}"))
    return out


KEEP_OTHERS = 3               # stale keyed user folders kept (the most recently used)
IDLE_S = 2 * 3600             # a folder used more recently than this is never removed
_KEYED = re.compile(r"(jit|numba|mjfast)-[0-9a-f]{16}")


def prune_stale(current: str, keep: int | None = None, idle_s: float = IDLE_S) -> list[str]:
    """Remove the keyed user cache folders beside ``current`` that older installs left:
    all but the ``keep`` most recently used (default ``MJFAST_CACHE_KEEP`` or 3) and those
    used in the last ``idle_s`` seconds. ``current`` is marked used and never removed.
    Returns the removed paths; never raises (housekeeping must not fail an import)."""
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
    except (OSError, ValueError):
        pass
    return removed


def choose_cache_dir() -> str | None:
    """The folder compiled kernels are cached in (see the module docstring), or None when
    no folder is writable (kernels then compile in memory)."""
    explicit = os.environ.get("MJFAST_JIT_DIR")
    if explicit:
        return explicit if _writable(explicit) else None
    if _writable(str(SHIPPED)):
        return str(SHIPPED)
    key = sources_hash()
    for cand in _user_candidates(key):
        if _writable(cand):
            if SHIPPED.is_dir():
                try:
                    _copy_missing(SHIPPED, cand)
                except OSError:
                    pass                          # compile at first use instead
            prune_stale(cand)
            return cand
    return None


CACHE_DIR = choose_cache_dir()


def locator_class():
    """:class:`KernelCacheLocator` (built on first need: it subclasses Numba's)."""
    from numba.core import caching

    class KernelCacheLocator(caching._CacheLocator):
        """Functions defined in the package: :data:`CACHE_DIR`, stamped per module closure."""

        def __init__(self, module: str):
            self._module = module

        def get_cache_path(self):
            return CACHE_DIR

        def get_source_stamp(self):
            return module_stamp(self._module)

        def get_disambiguator(self):
            return self._module[len(ROOT) + 1:]

        @classmethod
        def from_function(cls, py_func, py_file):
            if CACHE_DIR is None:
                return None
            try:
                path = Path(py_file).resolve()
                path.relative_to(PACKAGE)
            except (OSError, ValueError):
                return None
            return cls(_module_name(path))

    return KernelCacheLocator


def install_locator() -> bool:
    """Put the package's locator first in Numba's list (idempotent)."""
    if CACHE_DIR is None:
        return False
    from numba.core import caching
    impl = caching.CacheImpl
    if not any(c.__name__ == "KernelCacheLocator" for c in impl._locator_classes):
        impl._locator_classes.insert(0, locator_class())
    return True


def prune_orphans(folder: str | None = None) -> int:
    """Remove the files of ``folder`` (default :data:`CACHE_DIR`) that no current function
    uses: indexes of modules or functions that are gone or whose stamp is stale, and data
    files no current index names. Returns how many files were removed (the warm-up calls
    it, so the cache that ships holds only what the sources compile to)."""
    import pickle
    folder = folder or CACHE_DIR
    if folder is None or not os.path.isdir(folder):
        return 0
    keep: set[str] = set()
    names = os.listdir(folder)
    for name in names:
        if not name.endswith(".nbi"):
            continue
        stem = name[: name.rindex(".py")]
        module = f"{ROOT}." + stem[stem.rindex("-") + 1:]
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                pickle.load(fh)
                stamp, overloads = pickle.loads(fh.read())
        except (OSError, ValueError, EOFError, pickle.UnpicklingError, AttributeError):
            continue
        if _module_file(module) is None or stamp != module_stamp(module):
            continue
        keep.add(name)
        keep.update(overloads.values())
    removed = 0
    for name in names:
        if name.endswith((".nbi", ".nbc")) and name not in keep:
            try:
                os.remove(os.path.join(folder, name))
                removed += 1
            except OSError:
                pass
    return removed


def warm_stamps() -> dict[str, str]:
    """The stamp of every compiled module now (what a warm cache was compiled from)."""
    return {m: module_stamp(m) for m in compiled_modules()}


def is_warm() -> bool:
    """True when :mod:`mjfast._warmup` ran against the current sources into this folder."""
    import json
    if CACHE_DIR is None:
        return False
    try:
        with open(os.path.join(CACHE_DIR, WARM_MARKER)) as fh:
            marker = json.load(fh)
    except (OSError, ValueError):
        return False
    return marker.get("stamps") == warm_stamps() and not marker.get("failed")
