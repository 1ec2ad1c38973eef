"""The project's own event files (``--format events``): Parquet ``events`` files, alone or
in an mjfast dataset folder (where the matching ``deals`` shard gives each deal's dealer,
winds and wall); ``.jsonl`` files given here are read by :mod:`mjfast.formats.jsonl`.

Parquet is read by record batches and cut at deal boundaries (never a whole file at once).
The events' own WIN totals, fans and scores are the "logged" numbers the replay checks.
The writer is the datasets' ``events`` table (:func:`write`: one Parquet file).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

import numpy as np

from ..datasets import Events, events_from_arrow
from ._chunk import LogChunk, deal_info, events_chunk

if TYPE_CHECKING:
    from ..rules import RuleContext

NAME = "events"
SUFFIXES = (".parquet", ".jsonl", ".ndjson")
SOURCE = None               # the dataset's manifest records the rules that wrote them

BATCH_ROWS = 1 << 18


def _deal_meta(path: Path) -> dict[str, dict[str, Any]]:
    """deals rows by deal id from the ``deals`` shard that matches an events shard."""
    parts = path.parts
    if "events" not in parts:
        return {}
    i = len(parts) - 1 - parts[::-1].index("events")
    cand = Path(*parts[:i], "deals", *parts[i + 1:])
    if not cand.exists():
        return {}
    import pyarrow.parquet as pq
    cols = ["deal_id", "prevalent", "dealer", "streak", "seats", "wall", "seed", "bots",
            "game_id", "deal_index"]
    t = pq.read_table(cand, columns=[c for c in cols if c in pq.read_schema(cand).names])
    return {r["deal_id"]: r for r in t.to_pylist()}


def _read_parquet(path: Path, chunk_deals: int, seen: set, bz: bool) -> Iterator[LogChunk]:
    import pyarrow as pa
    import pyarrow.parquet as pq
    meta = _deal_meta(path)
    pf = pq.ParquetFile(path)
    src = str(path)
    carry = None

    def emit(tbl):
        ev = events_from_arrow(tbl)
        infos, quarantine, keep = [], [], []
        for i, did in enumerate(ev.deal_ids):
            if did in seen:
                quarantine.append({"source": src, "deal_id": did, "line": None,
                                   "step": None, "reason": f"deal id {did} repeats an earlier deal",
                                   "rows": None})
                continue
            seen.add(did)
            keep.append(i)
            infos.append(deal_info(did, src, meta.get(did), botzone_default=bz))
        if len(keep) != len(ev.deal_ids):
            ev = ev.take_deals(keep)
        return events_chunk(src, ev, infos, quarantine, len(keep) + len(quarantine))

    for batch in pf.iter_batches(batch_size=BATCH_ROWS):
        tbl = pa.Table.from_batches([batch])
        if carry is not None:
            tbl = pa.concat_tables([carry, tbl])
        ids = tbl.column("deal_id").to_numpy(zero_copy_only=False)
        if len(ids) == 0:
            continue
        last = ids[-1]
        cut = int(np.flatnonzero(ids != last)[-1]) + 1 if (ids != last).any() else 0
        carry = tbl.slice(cut)
        if cut:
            yield emit(tbl.slice(0, cut))
    if carry is not None and carry.num_rows:
        yield emit(carry)


def read(paths, ctx: "RuleContext | None" = None, *, chunk_deals: int = 2000,
         seen: set | None = None) -> Iterator[LogChunk]:
    """Chunks of the deals in Parquet events files, mjfast dataset folders or JSON-lines
    files. A deal's wall decides the wall convention (136 tiles: the Botzone wall); a deal
    without a wall takes the Botzone wall under ``ctx`` MCR ``botzone`` (a replayed Botzone
    log), else the standard one."""
    from . import jsonl
    seen = seen if seen is not None else set()
    bz = ctx is not None and ctx.rules == "mcr" and ctx.variant == "botzone"
    for path in ([paths] if isinstance(paths, (str, os.PathLike)) else paths):
        p = Path(path)
        if p.is_dir():
            from ..datasets import Dataset
            for f in Dataset(p).files("events"):
                yield from _read_parquet(f, chunk_deals, seen, bz)
        elif p.suffix == ".parquet":
            yield from _read_parquet(p, chunk_deals, seen, bz)
        else:
            yield from jsonl.read_file(p, chunk_deals, seen, bz)


def is_dataset(path: str | os.PathLike) -> bool:
    """A folder that is an mjfast dataset with an ``events`` table (read as one input)."""
    return Path(path).is_dir() and (Path(path) / "events").is_dir()


def recorded_variants(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The rule contexts the events of ``path`` were written with (records, see
    :meth:`mjfast.rules.RuleContext.record`): a dataset folder's manifest ``rules``, the
    manifest of the dataset an events file lies in, or a JSON-lines file's header (rules
    and variant only). Empty when nothing records them."""
    import json
    p = Path(path)
    if p.suffix in (".jsonl", ".ndjson"):
        from . import jsonl
        rv = jsonl.recorded_variant(p)
        return [] if rv is None else [{"rules": rv[0], "variant": rv[1]}]
    folder = p
    if not p.is_dir():
        parts = p.parts
        if "events" not in parts:
            return []
        folder = Path(*parts[:len(parts) - 1 - parts[::-1].index("events")])
    m = folder / "manifest.json"
    return list(json.loads(m.read_text()).get("rules", [])) if m.is_file() else []


def write(path: str | os.PathLike, ev: Events, ctx: "RuleContext | None" = None,
          headers: Mapping[str, Mapping[str, Any]] | None = None) -> Path:
    """Write ``ev`` as one Parquet ``events`` file, atomically (the deals' metadata
    belongs in the ``deals`` table beside it)."""
    from ..datasets import atomic_write_table, events_to_arrow
    path = Path(path)
    atomic_write_table(path, events_to_arrow(ev))
    return path


__all__ = ["NAME", "SUFFIXES", "SOURCE", "read", "is_dataset", "recorded_variants", "write"]
