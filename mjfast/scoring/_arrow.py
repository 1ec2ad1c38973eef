"""Batch results straight into Arrow columns, with no per-row Python.

- :func:`fan_lists`: a dense (N, F) fan-count matrix -> ``list<struct{id, points, count}>``
  (the datasets' ``FANS`` shape) plus the ``fan_ids`` / ``fan_counts`` list columns, all
  sharing one offsets buffer built from ``np.flatnonzero``;
- :func:`score_wait_lists`: every wait of ready hands (:mod:`._waits`) -> ``list<WAIT>``;
- :func:`error_column`: per-row messages -> a dictionary-encoded string column (a loop
  over the bad rows only);
- :func:`score_strings`: hand strings -> scored Arrow table. The input is cut into
  pieces, and each piece is parsed, scored and turned into Arrow chunks on one thread,
  a piece per thread at a time (the Cython parser and the kernels release the GIL).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import numpy as np
import pyarrow as pa

from ..datasets import FAN, WAIT
from ..kernels import kernel
from ._waits import meld_counts, take_rows  # noqa: F401  (the batch helpers, one definition)

# the table types are the datasets' (the one definition, a layer below)
_WAIT_BASE = [(f.name, f.type) for f in WAIT if not f.name.startswith("fans_")]

NOT_COMPLETE = "not a complete hand"


def _profile(rules: str, variant):
    """The rule profile of ``rules`` / ``variant`` (a bundled name, a ``.toml`` path, a
    :class:`~mjfast.rules.RuleContext`, or an in-memory profile, which passes through)."""
    from ..rules import RuleProfile, rule_context
    if isinstance(variant, RuleProfile):
        return variant
    return rule_context(rules, variant).profile


def fan_points(rules: str, variant, width: int) -> np.ndarray:
    """Points of one occurrence of each fan id (column) of ``rules`` / ``variant`` (see
    :func:`_profile`), from the one rule profile."""
    table = _profile(rules, variant).table
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


def score_wait_lists(batch, rows: np.ndarray | None = None, variant: str | None = None,
                     fans: bool = True, threads: int | None = None) -> pa.Array:
    """Every winning tile of the ready hands of ``batch`` (``rows``: a bool mask of them;
    None = all) scored on a discard and on a self-draw, as ``list<WAIT>`` (null for the
    other rows); ``fans``: each wait's fan lists too. The same values as
    ``score_waits_batch`` (no ``visible``): both are :func:`mjfast.scoring._waits.wait_pairs`,
    whose fan matrices give the totals and the fan lists in one pass."""
    from ..kernels import context_of
    from ._waits import wait_pairs
    n = len(batch)
    rows = np.ones(n, dtype=bool) if rows is None else np.asarray(rows, dtype=bool)
    idx = np.flatnonzero(rows)
    sub = batch if idx.size == n else take_rows(batch, idx)
    pairs = wait_pairs(sub, context_of(_profile(batch.rules, variant)), None, threads)
    r, t = pairs.row, pairs.tile
    ways = []
    points = None
    for fan_counts, totals, legal, _ in (pairs.discard, pairs.self_drawn):
        fl = None
        if fans:
            if points is None:
                points = fan_points(batch.rules, variant, fan_counts.shape[1])
            fl = fan_lists(fan_counts, points, np.ones(r.size, dtype=bool))[0]
        ways.append((totals, legal, fl))
    (td, ld, fd), (ts, ls, fs) = ways
    offsets = pa.array(_offsets(np.bincount(r, minlength=idx.size)))
    children = [pa.array(t.astype(np.int8)), pa.array(pairs.live[r, t].astype(np.int8)),
                pa.array(td.astype(np.int32)), pa.array(ts.astype(np.int32)),
                pa.array(np.asarray(ld, dtype=bool)), pa.array(np.asarray(ls, dtype=bool)),
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
    all cores): the input is cut into pieces of at most ``chunk_rows`` rows (at least one
    per thread), and each piece goes the whole way -- parse, score, Arrow lists -- on one
    of that many threads (the parser and the kernels release the GIL), so no step waits
    for a single-threaded one. Memory is bounded by the pieces in flight: the dense fan
    matrix of a piece is the largest temporary."""
    from .. import _threads
    from ..notation import parse_batch
    from ._api import score_batch
    n_threads = _threads.resolve(threads)
    arr = _as_string_array(strings)
    if arr is None:                       # a list or odd values: parse_batch checks them
        pieces = [strings]
    else:
        n = len(arr)
        n_pieces = max(-(-n // max(1, int(chunk_rows))), min(n_threads, -(-n // 4096)), 1)
        step = -(-n // n_pieces) if n else 1
        pieces = [arr.slice(a, min(step, n - a)) for a in range(0, n, step)] or [arr]

    profile = _profile(rules, variant)
    points = fan_points(rules, profile, profile.n_cols)     # once, for every piece

    def one_piece(piece):
        batch, ok, messages = parse_batch(piece, rules=rules, errors="mask")
        ok = np.asarray(ok, dtype=bool)
        sc = score_batch(batch, rules=rules, variant=variant, threads=1)
        good = ok & sc.complete
        fans, ids, counts = fan_lists(sc.fan_counts, points, good)
        mask = ~good if not good.all() else None
        return (pa.array(sc.totals.astype(np.int32), mask=mask),
                pa.array(np.asarray(sc.legal, dtype=bool), mask=mask),
                fans, ids, counts, error_column(len(ok), ok, messages, ~sc.complete))

    names = ("total", "legal", "fans", "fan_ids", "fan_counts", "error")
    if len(pieces) == 1 or n_threads == 1:
        done = [one_piece(p) for p in pieces]
    else:
        with ThreadPoolExecutor(n_threads) as ex:
            done = list(ex.map(one_piece, pieces))
    return pa.table({k: pa.chunked_array([d[i] for d in done]) for i, k in enumerate(names)})


__all__ = ["fan_points", "fan_lists", "score_wait_lists", "meld_counts", "take_rows",
           "error_column", "score_strings", "NOT_COMPLETE"]
