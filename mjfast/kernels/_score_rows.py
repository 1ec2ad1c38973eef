"""Scoring through the linked scorer symbols: the one per-hand entry every compiled caller
uses (:func:`score_row`: the engine, the bots, replay) and the one batch kernel that loops
over it (:func:`score_batch_rows`, every rule set). The scorers' machine code is not part of
this module: it lives once, behind the symbols of :mod:`._symbols`.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ..rules import CODE_MCR, CODE_TAIWAN
from ._context import (R_COUNTS, R_DEALER, R_DISCARDER, R_EXTRA, R_FLAGS, R_FLOWERS, R_LEGAL,
                       R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT, R_STREAK, R_TABLE_DISCARDS,
                       R_WIN, ROW_SIZE, X_CODE, X_NCOLS, X_WS_LEN)
from ._jit import kernel, ptr
from ._symbols import score_mcr, score_taiwan, score_tuidaohu


@kernel(inline="always")
def score_row(ctx, ws, row, fans):
    """Score hand row ``row`` with the context's scorer (see :mod:`._symbols`): the total
    (-1 when not complete); ``fans`` int64[n_cols] by fan id; ``row[R_TOTAL]``,
    ``row[R_LEGAL]``, ``row[R_EXTRA]`` written."""
    code = ctx[X_CODE]
    if code == CODE_MCR:
        return score_mcr(ptr(ctx), ptr(ws), ptr(row), ptr(fans))
    if code == CODE_TAIWAN:
        return score_taiwan(ptr(ctx), ptr(ws), ptr(row), ptr(fans))
    return score_tuidaohu(ptr(ctx), ptr(ws), ptr(row), ptr(fans))


@kernel(error_model="numpy")
def _score_chunk(lo, hi, ctx, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                 dealer, discarder, streak, table_discards, out_fans, out_total, out_legal,
                 out_extra):
    ncols = ctx[X_NCOLS]
    ws = np.zeros(ctx[X_WS_LEN], dtype=np.int64)
    row = np.zeros(ROW_SIZE, dtype=np.int64)
    fans = np.zeros(ncols, dtype=np.int64)
    for h in range(lo, hi):
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
        out_total[h] = score_row(ctx, ws, row, fans)
        out_legal[h] = row[R_LEGAL] != 0
        out_extra[h] = row[R_EXTRA]
        for f in range(ncols):
            out_fans[h, f] = fans[f]


@kernel(parallel=True, error_model="numpy")
def score_batch_rows(ctx, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                     dealer, discarder, streak, table_discards, out_fans, out_total,
                     out_legal, out_extra, chunk):
    """Score N hands (a :class:`~mjfast.hand.HandBatch`'s arrays in its own dtypes), chunks
    of ``chunk`` rows in parallel: ``out_fans`` (N, n_cols) int16, ``out_total`` int32 (-1
    = not complete), ``out_legal`` bool, ``out_extra`` int32."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        _score_chunk(lo, hi, ctx, counts, win, melds, n_melds, flowers, flags, seat,
                     prevalent, dealer, discarder, streak, table_discards, out_fans,
                     out_total, out_legal, out_extra)
