"""Batch results straight into Arrow columns, with no per-row Python.

- :func:`fan_lists`: a dense (N, F) fan-count matrix -> ``list<struct{id, points, count}>``
  (the datasets' ``FANS`` shape) plus the ``fan_ids`` / ``fan_counts`` list columns, all
  sharing one offsets buffer built from ``np.flatnonzero``;
- :func:`wait_lists`: :class:`~mjfast.scoring.WaitScores` -> ``list<WAIT>``;
- :func:`error_column`: per-row messages -> a dictionary-encoded string column (a loop
  over the bad rows only);
- :func:`score_strings`: hand strings -> scored Arrow table. The input is cut into
  chunks; each group of chunks is parsed on all threads at once (the Cython parser
  releases the GIL), then each chunk is scored by the (parallel) kernel and turned into
  Arrow chunks. Memory is bounded by the chunk size: the dense fan matrix of one chunk
  is the largest temporary.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pyarrow as pa

# The datasets module (a layer above) defines the table types; these are the same fields,
# built by name here and cast to the tables' types by ``mjfast.datasets.conform``.
FAN = pa.struct([("id", pa.int16()), ("points", pa.int32()), ("count", pa.int16())])
_WAIT_BASE = [("tile", pa.int8()), ("live", pa.int8()), ("total_discard", pa.int32()),
              ("total_self_drawn", pa.int32()), ("legal_discard", pa.bool_()),
              ("legal_self_drawn", pa.bool_())]

NOT_COMPLETE = "not a complete hand"


def fan_points(rules: str, variant: str | None, width: int) -> np.ndarray:
    """Points of one occurrence of each fan id (column) of ``rules`` / ``variant`` (a
    bundled name or a ``.toml`` path), from the one rule profile."""
    from ..rules._profile import get_profile
    table = get_profile(rules, variant).table
    return np.asarray(table.points_array(width, dtype=np.int32), dtype=np.int32)


def _offsets(per_row: np.ndarray) -> np.ndarray:
    off = np.zeros(per_row.shape[0] + 1, dtype=np.int32)
    np.cumsum(per_row, out=off[1:])
    return off


def fan_lists(fan_counts: np.ndarray, points: np.ndarray, good: np.ndarray
              ) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(N, F) counts -> (``fans`` list<FAN>, ``fan_ids`` list<int16>, ``fan_counts``
    list<int16>), null where ``good`` is False. ``fan_counts`` rows of bad rows are
    zeroed in place."""
    n, f = fan_counts.shape
    good = np.asarray(good, dtype=bool)
    if n and not good.all():
        fan_counts[~good] = 0
    flat = fan_counts.reshape(-1)
    idx = np.flatnonzero(flat)
    rows = idx // f
    ids = (idx - rows * f).astype(np.int16)
    cnt = flat[idx].astype(np.int16)
    offsets = pa.array(_offsets(np.bincount(rows, minlength=n)))
    mask = None if good.all() else pa.array(~good)
    id_arr, cnt_arr = pa.array(ids), pa.array(cnt)
    pts = pa.array(np.asarray(points, dtype=np.int32)[ids.astype(np.intp)])
    values = pa.StructArray.from_arrays([id_arr, pts, cnt_arr], fields=list(FAN))
    return (pa.ListArray.from_arrays(offsets, values, mask=mask),
            pa.ListArray.from_arrays(offsets, id_arr, mask=mask),
            pa.ListArray.from_arrays(offsets, cnt_arr, mask=mask))


def wait_positions(ws, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hand row, tile) of every wait, in list order (by row, then tile)."""
    wins = np.asarray(ws.wins, dtype=bool)
    if rows is not None:
        wins = wins & np.asarray(rows, dtype=bool)[:, None]
    return np.nonzero(wins)


def wait_lists(ws, rows: np.ndarray | None = None, fans_discard: pa.Array | None = None,
               fans_self_drawn: pa.Array | None = None) -> pa.Array:
    """Every winning tile of each ready hand as ``list<WAIT>`` (tile order); null for
    rows where ``rows`` (a bool mask of hands that have waits to list) is False.
    ``fans_discard`` / ``fans_self_drawn``: one fan list per wait in the order of
    :func:`wait_positions` (null when not given). Fields by name, as the datasets'
    ``WAIT`` (which ``conform`` casts to)."""
    n = np.asarray(ws.wins).shape[0]
    r, t = wait_positions(ws, rows)
    offsets = pa.array(_offsets(np.bincount(r, minlength=n)))
    children = [pa.array(t.astype(np.int8)), pa.array(np.asarray(ws.live)[r, t].astype(np.int8)),
                pa.array(np.asarray(ws.total_discard)[r, t].astype(np.int32)),
                pa.array(np.asarray(ws.total_self_drawn)[r, t].astype(np.int32)),
                pa.array(np.asarray(ws.legal_discard)[r, t].astype(bool)),
                pa.array(np.asarray(ws.legal_self_drawn)[r, t].astype(bool))]
    fields = [pa.field(k, t) for k, t in _WAIT_BASE]
    for name, fl in (("fans_discard", fans_discard), ("fans_self_drawn", fans_self_drawn)):
        children.append(fl if fl is not None else pa.nulls(r.size, pa.list_(FAN)))
        fields.append(pa.field(name, pa.list_(FAN)))
    values = pa.StructArray.from_arrays(children, fields=fields)
    mask = None if rows is None or np.all(rows) else pa.array(~np.asarray(rows, dtype=bool))
    return pa.ListArray.from_arrays(offsets, values, mask=mask)


def error_column(n: int, ok: np.ndarray, messages, incomplete: np.ndarray | None = None
                 ) -> pa.DictionaryArray:
    """``dictionary<int32, string>``: ``messages[i]`` for rows with ``ok[i]`` False,
    :data:`NOT_COMPLETE` for rows flagged ``incomplete``, null elsewhere. Python touches
    only the bad rows."""
    ok = np.asarray(ok, dtype=bool)
    indices = np.zeros(n, dtype=np.int32)
    valid = np.zeros(n, dtype=bool)
    words: dict[str, int] = {}
    if incomplete is not None and np.any(incomplete):
        words[NOT_COMPLETE] = 0
        sel = np.asarray(incomplete, dtype=bool) & ok
        valid |= sel
    bad = np.flatnonzero(~ok)
    if bad.size:
        codes = np.empty(bad.size, dtype=np.int32)
        for j, i in enumerate(bad.tolist()):
            m = messages[i] if messages is not None and messages[i] is not None else "unparsable"
            codes[j] = words.setdefault(m, len(words))
        indices[bad] = codes
        valid[bad] = True
    dictionary = pa.array(list(words), pa.string())
    return pa.DictionaryArray.from_arrays(pa.array(indices, mask=~valid), dictionary)


def _as_string_array(strings) -> pa.Array | None:
    """An Arrow (large_)string array for the input, or None when it is not one."""
    if isinstance(strings, pa.ChunkedArray):
        if pa.types.is_string(strings.type) or pa.types.is_large_string(strings.type):
            return strings.combine_chunks() if strings.num_chunks != 1 else strings.chunk(0)
        return None
    if isinstance(strings, pa.Array):
        return strings if (pa.types.is_string(strings.type)
                           or pa.types.is_large_string(strings.type)) else None
    try:
        import polars as pl
    except ImportError:  # pragma: no cover
        return None
    if isinstance(strings, pl.Series) and strings.dtype == pl.String:
        return _as_string_array(strings.to_arrow())
    return None


def score_strings(strings, rules: str = "mcr", variant: str | None = None,
                  threads: int | None = None, chunk_rows: int = 1 << 19) -> pa.Table:
    """Parse and score hand strings into an Arrow table of ``total`` (int32), ``legal``
    (bool), ``fans`` (list<FAN>), ``fan_ids`` / ``fan_counts`` (list<int16>) and
    ``error`` (dictionary string), one row per input row (nulls where a row does not
    parse or is not complete; ``error`` says why). ``threads`` as everywhere (None =
    all cores): chunks are parsed that many at a time, the kernel uses that many."""
    from .. import _threads
    from ..notation import parse_batch
    from ._api import score_batch
    n_threads = _threads.resolve(threads)
    arr = _as_string_array(strings)
    if arr is None:                       # a list or odd values: parse_batch checks them
        pieces = [strings]
    else:
        n = len(arr)
        step = max(1, int(chunk_rows))
        pieces = [arr.slice(a, min(step, n - a)) for a in range(0, n, step)] or [arr]
    points = None
    cols: dict[str, list[Any]] = {k: [] for k in
                                  ("total", "legal", "fans", "fan_ids", "fan_counts", "error")}

    def parse(piece):
        return parse_batch(piece, rules=rules, errors="mask")

    with ThreadPoolExecutor(n_threads) as ex:
        for g in range(0, len(pieces), n_threads):
            group = pieces[g:g + n_threads]
            parsed = list(ex.map(parse, group)) if len(group) > 1 else [parse(group[0])]
            for batch, ok, messages in parsed:
                ok = np.asarray(ok, dtype=bool)
                sc = score_batch(batch, rules=rules, variant=variant, threads=n_threads)
                if points is None:
                    points = fan_points(batch.rules, variant, sc.fan_counts.shape[1])
                good = ok & sc.complete
                fans, ids, counts = fan_lists(sc.fan_counts, points, good)
                mask = ~good if not good.all() else None
                cols["total"].append(pa.array(sc.totals.astype(np.int32), mask=mask))
                cols["legal"].append(pa.array(np.asarray(sc.legal, dtype=bool), mask=mask))
                cols["fans"].append(fans)
                cols["fan_ids"].append(ids)
                cols["fan_counts"].append(counts)
                cols["error"].append(error_column(len(ok), ok, messages, ~sc.complete))
                del batch, sc
    return pa.table({k: pa.chunked_array(v) if v else pa.chunked_array([], pa.null())
                     for k, v in cols.items()})


__all__ = ["fan_points", "fan_lists", "wait_lists", "wait_positions", "error_column", "score_strings",
           "NOT_COMPLETE"]
