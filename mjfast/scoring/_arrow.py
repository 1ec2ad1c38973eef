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

from ..datasets import FAN, WAIT
from ..kernels import kernel

# the table types are the datasets' (the one definition, a layer below)
_WAIT_BASE = [(f.name, f.type) for f in WAIT if not f.name.startswith("fans_")]

NOT_COMPLETE = "not a complete hand"


def fan_points(rules: str, variant: str | None, width: int) -> np.ndarray:
    """Points of one occurrence of each fan id (column) of ``rules`` / ``variant`` (a
    bundled name or a ``.toml`` path), from the one rule profile."""
    from ..rules import rule_context
    table = rule_context(rules, variant).profile.table
    return np.asarray(table.points_array(width, dtype=np.int32), dtype=np.int32)


def _offsets(per_row: np.ndarray) -> np.ndarray:
    off = np.zeros(per_row.shape[0] + 1, dtype=np.int32)
    np.cumsum(per_row, out=off[1:])
    return off


@kernel
def _fans_csr(fan_counts, good, points):
    """Dense (N, F) fan counts -> CSR (offsets int32, ids int16, points int32, counts
    int16) in two passes over the matrix; rows not ``good`` are empty (and zeroed)."""
    n, f = fan_counts.shape
    offsets = np.empty(n + 1, dtype=np.int32)
    offsets[0] = 0
    total = 0
    for i in range(n):
        if good[i]:
            for j in range(f):
                if fan_counts[i, j] != 0:
                    total += 1
        else:
            for j in range(f):
                fan_counts[i, j] = 0
        offsets[i + 1] = total
    ids = np.empty(total, dtype=np.int16)
    pts = np.empty(total, dtype=np.int32)
    cnt = np.empty(total, dtype=np.int16)
    k = 0
    for i in range(n):
        if good[i]:
            for j in range(f):
                c = fan_counts[i, j]
                if c != 0:
                    ids[k] = j
                    pts[k] = points[j]
                    cnt[k] = c
                    k += 1
    return offsets, ids, pts, cnt


def fan_lists(fan_counts: np.ndarray, points: np.ndarray, good: np.ndarray
              ) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(N, F) counts -> (``fans`` list<FAN>, ``fan_ids`` list<int16>, ``fan_counts``
    list<int16>), null where ``good`` is False. ``fan_counts`` rows of bad rows are
    zeroed in place. One compiled pass builds the Arrow buffers (no per-row Python)."""
    good = np.ascontiguousarray(good, dtype=np.bool_)
    if not fan_counts.flags.c_contiguous:
        fan_counts = np.ascontiguousarray(fan_counts)
    points = np.ascontiguousarray(points, dtype=np.int32)
    if points.shape[0] < fan_counts.shape[1] or good.shape[0] != fan_counts.shape[0]:
        raise ValueError(f"fan_lists: {points.shape[0]} points and {good.shape[0]} flags "
                         f"for a {fan_counts.shape} fan matrix")
    off, ids, pts, cnt = _fans_csr(fan_counts, good, points)
    offsets = pa.array(off)
    mask = None if good.all() else pa.array(~good)
    id_arr, cnt_arr = pa.array(ids), pa.array(cnt)
    values = pa.StructArray.from_arrays([id_arr, pa.array(pts), cnt_arr], fields=list(FAN))
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


def take_rows(batch, idx: np.ndarray):
    """Rows ``idx`` of a :class:`~mjfast.hand.HandBatch` (a new batch, arrays copied)."""
    import dataclasses
    return type(batch)(**{f.name: (getattr(batch, f.name)[idx] if f.name != "rules"
                                   else batch.rules) for f in dataclasses.fields(batch)})


def meld_counts(batch) -> np.ndarray:
    """(N, 34) int16: the tiles of each hand's called melds (a kong counts four)."""
    n = len(batch)
    out = np.zeros((n, 34), dtype=np.int16)
    nm = np.asarray(batch.n_melds)
    for j in range(batch.melds.shape[1]):
        r = np.flatnonzero(nm > j)          # a row appears once per slot: no add.at needed
        if not r.size:
            break
        kind = batch.melds[r, j, 0]
        tile = batch.melds[r, j, 1].astype(np.intp)
        chow = kind == 0
        for d in range(3):
            out[r[chow], tile[chow] + d] += 1
        out[r[~chow], tile[~chow]] += np.where(kind[~chow] == 1, 3, 4).astype(np.int16)
    return out


# Situation bits of a ready hand's flags that a wait's win sets itself (as the MCR wait
# kernel does without ``visible``): a discard win keeps robbing-a-kong, a self-draw keeps
# the kong replacement; 和绝张 (FOURTH_TILE) needs the visible tiles, so it is cleared.
def _wait_flags(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from ..hand import FOURTH_TILE, KONG_REPLACEMENT, ROBBING_KONG, SELF_DRAWN
    f = np.asarray(flags, dtype=np.uint16)
    base = f & np.uint16(~(SELF_DRAWN | FOURTH_TILE | KONG_REPLACEMENT | ROBBING_KONG) & 0xFFFF)
    return (base | (f & np.uint16(ROBBING_KONG)),
            base | np.uint16(SELF_DRAWN) | (f & np.uint16(KONG_REPLACEMENT)))


def _wait_fans_generic(batch, ws, rows, variant, threads):
    """Each wait's fan lists from the batch scorer (rule sets without the fast path)."""
    from ..hand import SELF_DRAWN
    from ._api import score_batch
    r, t = wait_positions(ws, rows)
    wb = take_rows(batch, r)
    wb.counts[np.arange(r.size), t] += 1
    wb.winning_tile[:] = t
    out = []
    for self_drawn in (False, True):
        wb.flags[:] = ((batch.flags[r] | SELF_DRAWN) if self_drawn
                       else (batch.flags[r] & ~np.uint16(SELF_DRAWN)))
        sc = score_batch(wb, variant=variant, threads=threads)
        fans, _, _ = fan_lists(sc.fan_counts, fan_points(batch.rules, variant, sc.fan_counts.shape[1]),
                               np.asarray(sc.complete, dtype=bool))
        out.append(fans)
    return out


def score_wait_lists(batch, rows: np.ndarray | None = None, variant: str | None = None,
                     fans: bool = True, threads: int | None = None) -> pa.Array:
    """Every winning tile of the ready hands of ``batch`` (``rows``: a bool mask of them;
    None = all) scored on a discard and on a self-draw, as ``list<WAIT>`` (null for the
    other rows); ``fans``: each wait's fan lists too. The same values as
    ``score_waits_batch`` (no ``visible``).

    MCR: the winning tiles come from the shanten tables (:func:`mjfast.waits`), then only
    the (hand, tile) pairs that win go through the batch scorer, once per way; its fan
    matrix gives the totals and the fan lists in one pass. (The wait kernel scores all 34
    tiles of every hand, and a second pass was needed for the fan lists.) Other rule sets:
    the wait kernel, then the batch scorer for the fan lists."""
    from .._shanten import waits as find_waits
    from . import scorer_module
    from ._api import score_batch
    n = len(batch)
    rows = np.ones(n, dtype=bool) if rows is None else np.asarray(rows, dtype=bool)
    idx = np.flatnonzero(rows)
    sub = batch if idx.size == n else take_rows(batch, idx)
    if batch.rules != "mcr":
        ws = scorer_module(batch.rules).score_waits_batch(sub, None, variant=variant)
        fd, fs = (_wait_fans_generic(sub, ws, None, variant, threads) if fans and idx.size
                  else (None, None))
        sub_lists = wait_lists(ws, None, fd, fs)
    else:
        mc = meld_counts(sub)
        w = find_waits(sub.counts, batch.rules, visible=mc, threads=threads)
        held = np.asarray(sub.counts, dtype=np.int16) + mc
        r, t = np.nonzero(np.asarray(w.mask, dtype=bool) & (held < 4))
        wb = take_rows(sub, r)
        wb.counts[np.arange(r.size), t] += 1
        wb.winning_tile[:] = t
        ways = []
        points = None
        for flags in _wait_flags(sub.flags[r]):
            wb.flags[:] = flags
            sc = score_batch(wb, variant=variant, threads=threads)
            if not np.all(sc.complete):
                raise RuntimeError("a winning tile from the shanten tables does not "
                                   "complete the hand for the scorer (a bug)")
            fl = None
            if fans:
                if points is None:
                    points = fan_points(batch.rules, variant, sc.fan_counts.shape[1])
                fl = fan_lists(sc.fan_counts, points, np.ones(r.size, dtype=bool))[0]
            ways.append((sc, fl))
        (d, fd), (s, fs) = ways
        offsets = pa.array(_offsets(np.bincount(r, minlength=idx.size)))
        children = [pa.array(t.astype(np.int8)),
                    pa.array(np.asarray(w.live)[r, t].astype(np.int8)),
                    pa.array(d.totals.astype(np.int32)), pa.array(s.totals.astype(np.int32)),
                    pa.array(np.asarray(d.legal, dtype=bool)),
                    pa.array(np.asarray(s.legal, dtype=bool)),
                    fd if fd is not None else pa.nulls(r.size, pa.list_(FAN)),
                    fs if fs is not None else pa.nulls(r.size, pa.list_(FAN))]
        fields = [pa.field(k, ty) for k, ty in _WAIT_BASE] + [
            pa.field("fans_discard", pa.list_(FAN)), pa.field("fans_self_drawn", pa.list_(FAN))]
        sub_lists = pa.ListArray.from_arrays(offsets, pa.StructArray.from_arrays(children, fields=fields))
    if idx.size == n:
        return sub_lists
    # spread the ready hands' lists over all rows (null elsewhere)
    per = np.zeros(n, dtype=np.int64)
    per[idx] = np.diff(np.asarray(sub_lists.offsets))
    return pa.ListArray.from_arrays(pa.array(_offsets(per)), sub_lists.values,
                                    mask=pa.array(~rows))


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


__all__ = ["fan_points", "fan_lists", "wait_lists", "wait_positions", "score_wait_lists",
           "meld_counts", "take_rows", "error_column", "score_strings", "NOT_COMPLETE"]
