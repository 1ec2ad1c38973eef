"""The user kernel cache (a read-only install) keeps a few keyed folders, never the current
one (prune_stale)."""
from __future__ import annotations

import os
import time

from mjfast.kernels import _cache as _config


def _folder(parent, name, age_s):
    p = parent / name
    p.mkdir()
    (p / "x.nbi").write_text("x")
    t = time.time() - age_s
    os.utime(p, (t, t))
    return p


def test_prune_keeps_current_newest_and_recent(tmp_path):
    day = 24 * 3600
    current = _folder(tmp_path, "numba-" + "0" * 16, 30 * day)     # oldest, still kept
    old = [_folder(tmp_path, f"numba-{i:016x}", (10 + i) * day) for i in range(1, 6)]
    recent = _folder(tmp_path, "numba-" + "f" * 16, 60)            # used a minute ago
    other = [_folder(tmp_path, "numba-notakey", 40 * day),          # not a keyed name
             _folder(tmp_path, "mjfast-" + "1" * 16, 40 * day)]     # another prefix
    (tmp_path / "shanten-v1-suit_sh.npy").write_bytes(b"x")         # other cached data
    removed = _config.prune_stale(str(current), keep=2)
    left = {p.name for p in tmp_path.iterdir()}
    # the two most recently used others are `recent` and old[0]; old[1:] go
    assert sorted(removed) == sorted(str(p) for p in old[1:])
    assert left == {current.name, recent.name, old[0].name, "numba-notakey",
                    "mjfast-" + "1" * 16, "shanten-v1-suit_sh.npy"}
    assert time.time() - current.stat().st_mtime < 3600        # marked used
    assert other[0].is_dir() and other[1].is_dir()


def test_prune_spares_recently_used_folders(tmp_path):
    current = _folder(tmp_path, "numba-" + "0" * 16, 0)
    busy = [_folder(tmp_path, f"numba-{i:016x}", 600) for i in range(1, 5)]
    assert _config.prune_stale(str(current), keep=0) == []
    assert all(p.is_dir() for p in busy)
    assert _config.prune_stale(str(current), keep=0, idle_s=60) != []


def test_prune_never_fails(tmp_path, monkeypatch):
    assert _config.prune_stale(str(tmp_path / "missing" / ("numba-" + "0" * 16))) == []
    monkeypatch.setenv("MJFAST_CACHE_KEEP", "not a number")
    assert _config.prune_stale(str(tmp_path / ("numba-" + "0" * 16))) == []


def test_choose_cache_dir_prunes_its_parent(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("MJFAST_JIT_DIR", raising=False)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")                    # the shipped folder cannot be created here
    monkeypatch.setattr(_config, "SHIPPED", blocked / "_jitcache")
    parent = tmp_path / "mjfast"
    parent.mkdir()
    stale = [_folder(parent, f"jit-{i:016x}", 5 * 24 * 3600 + i) for i in range(1, 7)]
    chosen = _config.choose_cache_dir()
    assert os.path.dirname(chosen) == str(parent)
    kept = [p for p in stale if p.is_dir()]
    assert kept == stale[:_config.KEEP_OTHERS] and os.path.isdir(chosen)
