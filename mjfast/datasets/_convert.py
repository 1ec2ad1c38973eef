"""Events <-> the Arrow ``events`` table, without a per-row Python loop."""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from ._events import EVENT_COLUMNS, EventKind, Events
from ._schema import FAN, schema


def _fan_column(ev: Events) -> pa.Array:
    n = len(ev)
    values = pa.StructArray.from_arrays(
        [pa.array(ev.fan_id, pa.int16()), pa.array(ev.fan_points, pa.int32()),
         pa.array(ev.fan_count, pa.int16())], fields=list(FAN))
    is_win = ev.kind == EventKind.WIN
    return pa.ListArray.from_arrays(pa.array(ev.fan_offsets, pa.int32()), values,
                                    mask=pa.array(~is_win) if n else None)


def _scores_column(ev: Events) -> pa.Array:
    n, p = ev.scores.shape if ev.scores.ndim == 2 else (len(ev), ev.players)
    has = (ev.kind == EventKind.WIN) | (ev.kind == EventKind.KONG_PAYMENT)
    offsets = pa.array(np.arange(0, (n + 1) * p, p, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(ev.scores.reshape(-1), pa.int32()),
                                    mask=pa.array(~has) if n else None)


def events_to_arrow(ev: Events) -> pa.Table:
    """The ``events`` table of these events (schema ``schema('events')``)."""
    ids = pa.DictionaryArray.from_arrays(pa.array(ev.deal, pa.int32()),
                                         pa.array(ev.deal_ids, pa.string()))
    cols = {"deal_id": ids.cast(pa.string())}
    for c in EVENT_COLUMNS[1:]:
        cols[c] = pa.array(getattr(ev, c))
    total = np.where(ev.kind == EventKind.WIN, ev.total, 0)
    cols["total"] = pa.array(total, pa.int32(), mask=ev.kind != EventKind.WIN)
    cols["fans"] = _fan_column(ev)
    cols["scores"] = _scores_column(ev)
    return pa.Table.from_pydict(cols, schema=schema("events"))


def events_from_arrow(table, players: int | None = None) -> Events:
    """Events from an ``events`` table (pyarrow Table or Polars DataFrame), rows kept in
    order; deals must be contiguous."""
    if hasattr(table, "to_arrow"):
        table = table.to_arrow()
    table = table.combine_chunks()
    n = table.num_rows
    dids = table.column("deal_id").to_numpy(zero_copy_only=False)
    if n:
        starts = np.concatenate(([True], dids[1:] != dids[:-1]))
        deal = (np.cumsum(starts) - 1).astype(np.int32)
        deal_ids = [str(x) for x in dids[starts]]
        if len(set(deal_ids)) != len(deal_ids):
            raise ValueError("events of one deal are not contiguous")
    else:
        deal, deal_ids = np.zeros(0, np.int32), []

    def col(name, dtype, fill=-1):
        c = table.column(name)
        return np.asarray(c.fill_null(fill).to_numpy(zero_copy_only=False), dtype=dtype)

    scores_col = table.column("scores").combine_chunks()
    lens = scores_col.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    if players is None:
        players = int(lens.max()) if n and lens.max() > 0 else 4
    scores = np.zeros((n, players), dtype=np.int32)
    has = lens > 0
    if has.any():
        flat = scores_col.flatten().to_numpy(zero_copy_only=False).astype(np.int32)
        scores[has] = flat.reshape(-1, players)
    fans_col = table.column("fans").combine_chunks()
    flens = fans_col.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(flens, out=offsets[1:])
    flat = fans_col.flatten()
    return Events(deal_ids=deal_ids, deal=deal, seq=col("seq", np.int32),
                  kind=col("kind", np.int8), player=col("player", np.int8),
                  tile=col("tile", np.int8), aux=col("aux", np.int8),
                  target=col("target", np.int8), flags=col("flags", np.int8, 0),
                  total=col("total", np.int32), scores=scores, fan_offsets=offsets,
                  fan_id=np.asarray(flat.field("id").to_numpy(zero_copy_only=False), np.int16),
                  fan_points=np.asarray(flat.field("points").to_numpy(zero_copy_only=False), np.int32),
                  fan_count=np.asarray(flat.field("count").to_numpy(zero_copy_only=False), np.int16),
                  players=players)
