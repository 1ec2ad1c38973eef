"""Scoring through the linked scorer symbols: the entries every compiled caller uses
(:func:`score_row` for one hand: the engine, the bots, replay; :func:`score_rows` for a
block) and the one batch kernel that loops over blocks (:func:`score_batch_rows`, every
rule set). The scorers' machine code is not part of
this module: it lives once, behind the symbols of :mod:`._symbols`.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ..rules import CODE_MCR, CODE_TAIWAN
from ._context import (R_COUNTS, R_DEALER, R_DISCARDER, R_EXTRA, R_FLAGS, R_FLOWERS, R_LEGAL,
                       R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT, R_STREAK, R_TABLE_DISCARDS,
                       R_TOTAL, R_WIN, ROW_SIZE, X_CODE, X_NCOLS, X_WS_LEN)
from ._jit import kernel, ptr
from ._symbols import score_mcr, score_taiwan, score_tuidaohu


@kernel(inline="always")
def score_rows(ctx, ws, rows, n, fans):
    """Score the first ``n`` hand rows of ``rows`` (n, ROW_SIZE) with the context's scorer
    (see :mod:`._symbols`) into ``fans`` (n, n_cols); each row's ``R_TOTAL``,
    ``R_LEGAL``, ``R_EXTRA`` written."""
    code = ctx[X_CODE]
    if code == CODE_MCR:
        return score_mcr(ptr(ctx), ptr(ws), ptr(rows), n, ptr(fans))
    if code == CODE_TAIWAN:
        return score_taiwan(ptr(ctx), ptr(ws), ptr(rows), n, ptr(fans))
    return score_tuidaohu(ptr(ctx), ptr(ws), ptr(rows), n, ptr(fans))


@kernel(inline="always")
def score_row(ctx, ws, row, fans):
    """Score one hand row (ROW_SIZE) into ``fans`` (n_cols): the total (-1 when not
    complete); ``row[R_TOTAL]``, ``row[R_LEGAL]``, ``row[R_EXTRA]`` written."""
    score_rows(ctx, ws, row, 1, fans)
    return row[R_TOTAL]


BLOCK = 64      # rows scored per symbol call in the batch loop


@kernel(error_model="numpy")
def score_batch_range(lo, hi, ctx, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                 dealer, discarder, streak, table_discards, out_fans, out_total, out_legal,
                 out_extra):
    ncols = ctx[X_NCOLS]
    ws = np.zeros(ctx[X_WS_LEN], dtype=np.int64)
    rows = np.zeros((BLOCK, ROW_SIZE), dtype=np.int64)
    fans = np.zeros((BLOCK, ncols), dtype=np.int64)
    _range_blocks(lo, hi, ctx, ws, rows, fans, ncols, counts, win, melds, n_melds, flowers,
                  flags, seat, prevalent, dealer, discarder, streak, table_discards, out_fans,
                  out_total, out_legal, out_extra)


@kernel(error_model="numpy", nrt=False)
def _range_blocks(lo, hi, ctx, ws, rows, fans, ncols, counts, win, melds, n_melds, flowers,
                  flags, seat, prevalent, dealer, discarder, streak, table_discards, out_fans,
                  out_total, out_legal, out_extra):
    """The block loop of :func:`score_batch_range` (its scratch allocated by the caller),
    compiled without reference counting: the per-row views cost no calls."""
    for b0 in range(lo, hi, BLOCK):
        m = min(BLOCK, hi - b0)
        for i in range(m):
            h = b0 + i
            row = rows[i]
            for t in range(34):
                row[R_COUNTS + t] = counts[h, t]
            for j in range(5):
                for k in range(4):
                    row[R_MELDS + 4 * j + k] = melds[h, j, k]
            row[R_N_MELDS] = n_melds[h]
            row[R_WIN] = win[h]
            row[R_FLAGS] = flags[h]
            row[R_SEAT] = seat[h]
            row[R_PREVALENT] = prevalent[h]
            row[R_DEALER] = dealer[h]
            row[R_DISCARDER] = discarder[h]
            row[R_STREAK] = streak[h]
            row[R_TABLE_DISCARDS] = table_discards[h]
            row[R_FLOWERS] = flowers[h]
        score_rows(ctx, ws, rows, m, fans)
        for i in range(m):
            h = b0 + i
            out_total[h] = rows[i, R_TOTAL]
            out_legal[h] = rows[i, R_LEGAL] != 0
            out_extra[h] = rows[i, R_EXTRA]
            for f in range(ncols):
                out_fans[h, f] = fans[i, f]


@kernel(parallel=True, error_model="numpy")
def score_batch_rows(ctx, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                     dealer, discarder, streak, table_discards, out_fans, out_total,
                     out_legal, out_extra, chunk):
    """Score N hands (a :class:`~mjfast.hand.HandBatch`'s arrays in its own dtypes), chunks
    of ``chunk`` rows in parallel (:func:`score_batch_range` each): ``out_fans`` (N,
    n_cols) int16, ``out_total`` int32 (-1 = not complete), ``out_legal`` bool,
    ``out_extra`` int32. Starting the threads costs milliseconds: small batches call
    :func:`score_batch_range` directly."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        score_batch_range(lo, hi, ctx, counts, win, melds, n_melds, flowers, flags, seat,
                     prevalent, dealer, discarder, streak, table_discards, out_fans,
                     out_total, out_legal, out_extra)
