"""Log and event-file formats: one module per format, found through one registry.

Each format is one public module of this package holding its codes, its reader and (where
the project writes the format) its writer:

==================  ============================  =============================================
name (--format)     module                        what
==================  ============================  =============================================
``botzone``         :mod:`.botzone_text`          Botzone text logs (a compiled lexer + the
                                                  grammar's reader; pieces; the writer)
``botzone-json``    :mod:`.botzone_json`          Botzone match-log JSON (reader)
``jsonl``           :mod:`.jsonl`                 events as JSON lines (reader, writer)
``events``          :mod:`.events`                the project's own events: Parquet files and
                                                  dataset folders (``.jsonl`` too); writer
==================  ============================  =============================================

A format module provides ``NAME``, ``SUFFIXES`` (the files it picks in a folder),
``SOURCE`` (what produced such files, for :func:`mjfast.rules.produced_variant`; None when
the files record it themselves) and ``read(paths, ctx=None, *, chunk_deals, seen)``, which
yields :class:`LogChunk` s (events + what the log itself says + quarantine rows); where
the project writes it, ``encode(events, ctx, headers) -> bytes`` and
``write(path, events, ctx, headers)``; a format whose files can be cut for a job's shards,
``pieces(path, chunk_deals)`` and ``read_piece(path, piece, ctx)``.

**Adding a format** is one new module with those names and one line in :data:`REGISTRY`.
"""
from __future__ import annotations

import glob
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Iterable

from ..errors import ArgumentError
from ._chunk import CAN_HU_NONE, ChunkBuilder, DealInfo, LogChunk

REGISTRY: dict[str, str] = {
    "botzone": "botzone_text",
    "botzone-json": "botzone_json",
    "jsonl": "jsonl",
    "events": "events",
}
"""Format name -> its module in this package (the one registry)."""

FORMATS = tuple(REGISTRY)


def get_format(name: str) -> ModuleType:
    """The module of format ``name`` (:data:`REGISTRY`)."""
    if name not in REGISTRY:
        raise ArgumentError(str(name), None, f"unknown format (known: {', '.join(FORMATS)})")
    return importlib.import_module(f".{REGISTRY[name]}", __name__)


def expand_paths(paths: Iterable[str | os.PathLike], fmt: str) -> list[Path]:
    """The files of format ``fmt`` named by ``paths`` (files, folders, globs), sorted
    within each argument; a folder keeps the files with the format's ``SUFFIXES`` (an
    ``events`` dataset folder is one input)."""
    mod = get_format(fmt)
    is_dataset = getattr(mod, "is_dataset", None)
    out: list[Path] = []
    for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths):
        s = str(p)
        if any(ch in s for ch in "*?["):
            hits = sorted(Path(x) for x in glob.glob(s, recursive=True))
            if not hits:
                raise ArgumentError(s, None, "no file matches this pattern")
            out.extend(h for h in hits if h.is_file())
            continue
        q = Path(s)
        if q.is_dir():
            if is_dataset is not None and is_dataset(q):
                out.append(q)
                continue
            out.extend(sorted(x for x in q.rglob("*") if x.is_file() and x.suffix in mod.SUFFIXES))
        elif q.is_file():
            out.append(q)
        else:
            raise ArgumentError(s, None, "no such file or folder")
    return out


__all__ = ["REGISTRY", "FORMATS", "get_format", "expand_paths", "CAN_HU_NONE", "ChunkBuilder",
           "DealInfo", "LogChunk"]
