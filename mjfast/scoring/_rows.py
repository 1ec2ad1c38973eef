"""The one batch path of the four scorers: a :class:`~mjfast.hand.HandBatch` through the
compiled row loop (``mjfast.kernels.score_batch_rows``, parallel over chunks, every row
scored by the rule set's linked scorer symbol)."""
from __future__ import annotations

import threading

import numpy as np

from ..kernels import (X_NCOLS, X_WS_LEN, batch_scratch, score_batch_rows, score_batch_scratch,
                       score_pairs_rows, score_pairs_scratch)

# the batch arrays in the dtypes HandBatch documents: one compiled version of the loop
_DTYPES = (("counts", np.uint8), ("winning_tile", np.int8), ("melds", np.int8),
           ("n_melds", np.uint8), ("flowers", np.uint8), ("flags", np.uint16),
           ("seat", np.int8), ("prevalent", np.int8), ("dealer", np.int8),
           ("discarder", np.int8), ("streak", np.int16), ("table_discards", np.int16))
_DTYPE_OF = dict(_DTYPES)


SERIAL_BELOW = 4096     # rows: fewer are scored on the calling thread (starting the
                        # kernel's threads costs milliseconds, about 4,000 hands' work)


def _chunk(n: int) -> int:
    """Rows per parallel task: enough tasks for every thread, each big enough to amortise
    its scratch."""
    import numba
    return max(256, -(-n // (4 * numba.get_num_threads())))


def batch_field(batch, name: str) -> np.ndarray:
    """The batch's array ``name`` in its dtype of ``_DTYPES`` (contiguous; no copy when it
    already is): what every compiled kernel over a batch takes, so that each compiles
    one version."""
    return np.ascontiguousarray(getattr(batch, name), dtype=_DTYPE_OF[name])


def _arrays(batch) -> list[np.ndarray]:
    """The batch's arrays in the dtypes of ``_DTYPES`` (melds as (N, 5, 4))."""
    arrays = [batch_field(batch, name) for name, _ in _DTYPES]
    arrays[2] = arrays[2].reshape(len(batch), 5, 4)
    return arrays


def _outputs(n: int, ctx: np.ndarray) -> list[np.ndarray]:
    """(fan_counts (n, n_cols) int16, totals int32, legal bool, extra int32), unfilled:
    the kernels write every row's outputs (no zeroing pass first)."""
    return [np.empty((n, int(ctx[X_NCOLS])), dtype=np.int16), np.empty(n, dtype=np.int32),
            np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.int32)]


_LOCAL = threading.local()


def _scratch(ctx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """This thread's scratch for a serial pass under ``ctx`` (``batch_scratch``, kept
    between calls: a one-hand call would otherwise zero a workspace of some 300 KB each
    time), and the context's column count."""
    key = (int(ctx[X_WS_LEN]), int(ctx[X_NCOLS]))
    kept = getattr(_LOCAL, "scratch", None)
    if kept is None:
        kept = _LOCAL.scratch = {}
    s = kept.get(key)
    if s is None:
        s = kept[key] = (*batch_scratch(ctx), key[1])
    return s


def _threaded(rows: int) -> bool:
    """Whether ``rows`` rows go to the parallel kernel (else the calling thread)."""
    import numba
    return rows >= SERIAL_BELOW and numba.get_num_threads() > 1


def run_batch(batch, ctx: np.ndarray):
    """Score every row of ``batch`` with context ``ctx``: ``(fan_counts (N, n_cols) int16,
    totals int32 (-1 = not complete), legal bool, extra int32)``."""
    n = len(batch)
    arrays = _arrays(batch)
    out = _outputs(n, ctx)
    if _threaded(n):
        score_batch_rows(ctx, *arrays, *out, _chunk(n))
    elif n:
        score_batch_scratch(0, n, ctx, *_scratch(ctx), *arrays, *out)
    return tuple(out)


def run_pairs(batch, pair_row: np.ndarray, pair_tile: np.ndarray, flags_discard: np.ndarray,
              flags_self: np.ndarray, keep_discarder: bool, ctx: np.ndarray):
    """Score the ready hands of ``batch`` completed by their waits: pair ``k`` is hand
    ``pair_row[k]`` with winning tile ``pair_tile[k]``, scored once as a discard win
    (``flags_discard[k]``) and once as a self-draw (``flags_self[k]``; the hand's discarder
    kept only when ``keep_discarder``), in one compiled pass over the batch's own arrays.
    Returns ``(discard, self_drawn)``, each as :func:`run_batch` returns."""
    k = len(pair_row)
    counts, _win, melds, n_melds, flowers, _flags, seat, prevalent, dealer, discarder, streak, \
        table_discards = _arrays(batch)
    discard, self_drawn = _outputs(k, ctx), _outputs(k, ctx)
    args = (np.ascontiguousarray(pair_row, dtype=np.int64),
            np.ascontiguousarray(pair_tile, dtype=np.int64), counts, melds, n_melds, flowers,
            np.ascontiguousarray(flags_discard, dtype=np.uint16),
            np.ascontiguousarray(flags_self, dtype=np.uint16), seat, prevalent, dealer,
            discarder, 1 if keep_discarder else -1, streak, table_discards, *discard,
            *self_drawn)
    if _threaded(2 * k):                      # two rows a pair
        score_pairs_rows(ctx, *args, _chunk(k))
    elif k:
        score_pairs_scratch(0, k, ctx, *_scratch(ctx), *args)
    return tuple(discard), tuple(self_drawn)
