"""Reader of the project's own events: Parquet ``events`` files (alone or in an mjfast
dataset folder, where the matching ``deals`` shard gives each deal's dealer, winds and wall)
and JSON lines (:mod:`mjfast.datasets._jsonl`, the header of each deal giving the same).

Parquet is read by record batches and cut at deal boundaries (never a whole file at once);
JSON lines are split into deal blocks at each ``start_deal`` line. A block the JSON-lines
reader rejects is quarantined with its line; every other deal is read. The events' own WIN
totals, fans and scores are the "logged" numbers the replay checks.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ..datasets import Events, events_from_arrow
from ..errors import MjfastError
from ._log import CAN_HU_NONE, DealInfo, LogChunk

BATCH_ROWS = 1 << 18


def _info(did: str, source: str, meta: dict[str, Any] | None, line: int = 0,
          botzone_default: bool = False) -> DealInfo:
    meta = meta or {}
    wall = meta.get("wall")
    wall = None if wall is None or len(wall) == 0 else np.asarray(wall, dtype=np.int8)
    seats = meta.get("seats")
    return DealInfo(deal_id=did, source=source, line=line,
                    prevalent=int(meta.get("prevalent") or 0),
                    dealer=int(meta.get("dealer") or 0), streak=int(meta.get("streak") or 0),
                    seats=None if seats is None else [int(s) for s in seats],
                    wall=wall, botzone_wall=(len(wall) == 136 if wall is not None
                                             else botzone_default),
                    seed=meta.get("seed"), bots=meta.get("bots"),
                    game_id=meta.get("game_id"), deal_index=meta.get("deal_index"))


def _chunk(source: str, ev: Events, infos: list[DealInfo], quarantine, n_in,
           lines: np.ndarray | None = None) -> LogChunk:
    line = lines if lines is not None else ev.seq.astype(np.int64)
    return LogChunk(source, ev, line, np.full((len(ev), ev.players), CAN_HU_NONE, np.int16),
                    infos, quarantine, n_in, has_can_hu=False, logged_in_events=True)


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
            infos.append(_info(did, src, meta.get(did), botzone_default=bz))
        if len(keep) != len(ev.deal_ids):
            ev = ev.take_deals(keep)
        return _chunk(src, ev, infos, quarantine, len(keep) + len(quarantine))

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


def _jsonl_blocks(path: Path) -> Iterator[tuple[int, list[str]]]:
    """(first line number, lines) of each deal block (a start_deal line and what follows)."""
    block: list[str] = []
    start = 1
    with open(path, "rb") as f:
        for no, raw in enumerate(f, start=1):
            text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if '"start_deal"' in text and block:
                yield start, block
                block, start = [], no
            if not block:
                start = no
            block.append(text)
    if block:
        yield start, block


def _read_jsonl(path: Path, chunk_deals: int, seen: set, bz: bool) -> Iterator[LogChunk]:
    from ..datasets._jsonl import read_jsonl
    src = str(path)
    parts: list[Events] = []
    infos: list[DealInfo] = []
    lines: list[np.ndarray] = []
    quarantine: list[dict] = []
    n_in = 0

    def flush():
        ev = Events.concat(parts) if parts else Events.empty()
        ln = np.concatenate(lines) if lines else np.zeros(0, np.int64)
        return _chunk(src, ev, list(infos), list(quarantine), n_in, ln)

    for start, block in _jsonl_blocks(path):
        n_in += 1
        try:
            ev, headers = read_jsonl(block, with_headers=True)
        except MjfastError as e:
            did = None
            try:
                did = json.loads(block[0]).get("deal_id")
            except (ValueError, AttributeError):
                pass
            pos = getattr(e, "position", None)
            quarantine.append({"source": src, "deal_id": did,
                               "line": start + (pos - 1 if isinstance(pos, int) else 0),
                               "step": None, "reason": getattr(e, "reason", str(e)),
                               "rows": len(block)})
            continue
        if len(ev.deal_ids) != 1:
            quarantine.append({"source": src, "deal_id": None, "line": start, "step": None,
                               "reason": "a block without exactly one start_deal",
                               "rows": len(block)})
            continue
        did = ev.deal_ids[0]
        if did in seen:
            quarantine.append({"source": src, "deal_id": did, "line": start, "step": None,
                               "reason": f"deal id {did} repeats an earlier deal",
                               "rows": len(block)})
            continue
        seen.add(did)
        parts.append(ev)
        infos.append(_info(did, src, headers[0], start, botzone_default=bz))
        # line of each event: events follow the header one per line (DEAL rows share one)
        lines.append(np.full(len(ev), start, np.int64))
        if len(infos) >= chunk_deals:
            yield flush()
            parts, infos, lines, quarantine, n_in = [], [], [], [], 0
    yield flush()


def read_events(path, chunk_deals: int = 2000, seen: set | None = None,
                botzone_default: bool = False) -> Iterator[LogChunk]:
    """Chunks of the deals in a Parquet events file, an mjfast dataset folder or a JSON
    lines file. A deal's wall decides the wall convention (136 tiles: the Botzone wall);
    a deal without a wall takes the Botzone wall when ``botzone_default`` (MCR, variant
    ``botzone``: a replayed Botzone log), else the standard one."""
    seen = seen if seen is not None else set()
    p = Path(path)
    if p.is_dir():
        from ..datasets import Dataset
        for f in Dataset(p).files("events"):
            yield from _read_parquet(f, chunk_deals, seen, botzone_default)
    elif p.suffix == ".parquet":
        yield from _read_parquet(p, chunk_deals, seen, botzone_default)
    else:
        yield from _read_jsonl(p, chunk_deals, seen, botzone_default)
