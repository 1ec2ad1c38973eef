"""A dataset on disk: partitioned Parquet tables, atomic shard writes, a manifest.

Layout (Hive partitions, one file per shard)::

    DIR/manifest.json
    DIR/_done/<shard>.json                         one marker per finished shard
    DIR/<table>/rules=<rules>/variant=<variant>/part-<shard>.parquet

Every file is written to a temporary name in the same folder and renamed into place, so a
killed run leaves whole files or none. Nothing written depends on the time or the worker
count (no timestamps in files or the manifest), so a resumed run ends with files identical to
an uninterrupted one.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterable

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError
from ._schema import DEFAULT_VARIANT, conform, schema

_KEY = re.compile(r"^[A-Za-z0-9_.\-]+$")
PARQUET_OPTIONS = dict(compression="zstd", compression_level=3, use_dictionary=True,
                       write_statistics=True)


def _check_key(what: str, value: str) -> str:
    value = str(value)
    if not _KEY.match(value):
        raise InputError(value, None, f"bad {what}: use letters, digits, '_', '.', '-'")
    return value


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder + rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_table(path: Path, table: pa.Table) -> None:
    """Write one Parquet file atomically (temporary file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp, **PARQUET_OPTIONS)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


class Dataset:
    """A folder of partitioned Parquet tables with a manifest (see the module docstring)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    # -- writing -------------------------------------------------------------------------
    def shard_path(self, table: str, rules: str, variant: str | None, shard: str) -> Path:
        schema(table)  # validates the name
        return (self.path / table / f"rules={_check_key('rules', rules)}"
                / f"variant={_check_key('variant', variant or DEFAULT_VARIANT)}"
                / f"part-{_check_key('shard', shard)}.parquet")

    def write(self, table: str, data, *, rules: str, variant: str | None = None,
              shard: str = "00000") -> Path:
        """Conform ``data`` (Arrow table, Polars frame or dict of columns) to the table's
        schema and write it as one shard, atomically. Returns the file's path."""
        t = conform(table, data)
        path = self.shard_path(table, rules, variant, shard)
        atomic_write_table(path, t)
        return path

    def mark_done(self, shard: str, info: dict[str, Any]) -> None:
        """Record a finished shard (after all its tables are written): ``info`` holds its
        inputs and row counts; resumed runs skip shards that have a marker."""
        atomic_write_bytes(self.path / "_done" / f"{_check_key('shard', shard)}.json",
                           json.dumps(info, sort_keys=True, indent=1).encode())

    def is_done(self, shard: str) -> bool:
        return (self.path / "_done" / f"{_check_key('shard', shard)}.json").exists()

    def done_shards(self) -> dict[str, dict[str, Any]]:
        out = {}
        for p in sorted((self.path / "_done").glob("*.json")):
            out[p.stem] = json.loads(p.read_text())
        return out

    def write_manifest(self, meta: dict[str, Any]) -> dict[str, Any]:
        """Write ``manifest.json``: ``meta`` (job, seed, inputs with hashes, rule-file
        hashes, code version...) plus the row count of every table, summed over the files
        on disk. Deterministic (sorted keys, no timestamps): a manifest whose content is
        already on disk is not written again."""
        from .._version import __version__
        manifest = {"format": "mjfast-dataset/1", "mjfast_version": __version__, **meta,
                    "tables": self.row_counts(),
                    "shards": self.done_shards()}
        data = json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False).encode()
        path = self.path / "manifest.json"
        if not (path.is_file() and path.read_bytes() == data):
            atomic_write_bytes(path, data)
        return manifest

    def manifest(self) -> dict[str, Any]:
        p = self.path / "manifest.json"
        if not p.exists():
            raise InputError(str(self.path), None, "not an mjfast dataset (no manifest.json)")
        return json.loads(p.read_text())

    # -- reading -------------------------------------------------------------------------
    def files(self, table: str) -> list[Path]:
        return sorted((self.path / table).glob("rules=*/variant=*/part-*.parquet"))

    def tables(self) -> list[str]:
        from ._schema import TABLES
        return [t for t in TABLES if self.files(t)]

    def row_counts(self) -> dict[str, int]:
        return {t: sum(pq.ParquetFile(f).metadata.num_rows for f in self.files(t))
                for t in self.tables()}

    def scan(self, table: str):
        """A Polars LazyFrame over every shard of ``table``, with ``rules`` and ``variant``
        columns from the partition path (an empty frame of the schema when none)."""
        import polars as pl
        files = self.files(table)
        if not files:
            empty = pl.from_arrow(schema(table).empty_table())
            return empty.lazy().with_columns(pl.lit(None, pl.String).alias("rules"),
                                             pl.lit(None, pl.String).alias("variant"))
        return pl.scan_parquet([str(f) for f in files], hive_partitioning=True)

    def read(self, table: str):
        return self.scan(table).collect()


def open_dataset(path: str | os.PathLike) -> Dataset:
    return Dataset(path)


def hash_files(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """``[{path, bytes, sha256}]`` for a manifest's inputs."""
    return [{"path": str(p), "bytes": Path(p).stat().st_size, "sha256": file_sha256(p)}
            for p in paths]
