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
from ._context import (FLAG_SAME_HAND, R_COUNTS, R_DEALER, R_DISCARDER, R_EXTRA, R_FLAGS,
                       R_FLOWERS, R_LEGAL, R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT, R_STREAK,
                       R_TABLE_DISCARDS, R_TOTAL, R_WIN, ROW_SIZE, X_CODE, X_NCOLS, X_WS_LEN)
from ._jit import kernel, ptr, widen_into
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


@kernel
def batch_scratch(ctx):
    """``(workspace, rows, fans)``: the scratch of :func:`score_batch_scratch` and
    :func:`score_pairs_scratch` for context ``ctx`` (each chunk of the range kernels gets
    its own; the one-hand paths keep theirs). Reusable from call to call on one thread:
    no scorer reads what a previous row left, except the pair kernel's second row of a
    pair."""
    return (np.zeros(ctx[X_WS_LEN], dtype=np.int64),
            np.zeros((BLOCK, ROW_SIZE), dtype=np.int64),
            np.zeros((BLOCK, ctx[X_NCOLS]), dtype=np.int64))


@kernel(error_model="numpy")
def score_batch_range(lo, hi, ctx, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                 dealer, discarder, streak, table_discards, out_fans, out_total, out_legal,
                 out_extra):
    ncols = ctx[X_NCOLS]
    ws, rows, fans = batch_scratch(ctx)
    score_batch_scratch(lo, hi, ctx, ws, rows, fans, ncols, counts, win, melds, n_melds,
                        flowers, flags, seat, prevalent, dealer, discarder, streak,
                        table_discards, out_fans, out_total, out_legal, out_extra)


@kernel(inline="always")
def _fill_row(row, h, counts, melds, n_melds, flowers, seat, prevalent, dealer, discarder,
              streak, table_discards, win, flags):
    """Row ``row`` = hand ``h`` of the batch arrays, with winning tile ``win``, discarder
    ``discarder`` and ``flags`` (the pair kernel adds the winning tile to the counts
    itself: its hands are ready hands)."""
    widen_into(row, R_COUNTS, counts[h], 34)
    widen_into(row, R_MELDS, melds[h], 20)
    row[R_N_MELDS] = n_melds[h]
    row[R_WIN] = win
    row[R_FLAGS] = flags
    row[R_SEAT] = seat[h]
    row[R_PREVALENT] = prevalent[h]
    row[R_DEALER] = dealer[h]
    row[R_DISCARDER] = discarder
    row[R_STREAK] = streak[h]
    row[R_TABLE_DISCARDS] = table_discards[h]
    row[R_FLOWERS] = flowers[h]


@kernel(inline="always")
def _emit(row, fans_row, ncols, h, out_fans, out_total, out_legal, out_extra):
    """A scored row's outputs into row ``h`` of the output arrays."""
    out_total[h] = row[R_TOTAL]
    out_legal[h] = row[R_LEGAL] != 0
    out_extra[h] = row[R_EXTRA]
    for f in range(ncols):
        out_fans[h, f] = fans_row[f]


@kernel(error_model="numpy", nrt=False)
def score_batch_scratch(lo, hi, ctx, ws, rows, fans, ncols, counts, win, melds, n_melds,
                        flowers, flags, seat, prevalent, dealer, discarder, streak,
                        table_discards, out_fans, out_total, out_legal, out_extra):
    """The block loop of :func:`score_batch_range` on scratch the caller owns
    (:func:`batch_scratch`: the one-hand paths keep theirs between calls), compiled
    without reference counting: the per-row views cost no calls."""
    for b0 in range(lo, hi, BLOCK):
        m = min(BLOCK, hi - b0)
        for i in range(m):
            h = b0 + i
            _fill_row(rows[i], h, counts, melds, n_melds, flowers, seat, prevalent, dealer,
                      discarder[h], streak, table_discards, win[h], flags[h])
        score_rows(ctx, ws, rows, m, fans)
        for i in range(m):
            _emit(rows[i], fans[i], ncols, b0 + i, out_fans, out_total, out_legal, out_extra)


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


# ---------------------------------------------------------------------------------------
# the waits of ready hands: each (hand, winning tile) pair scored on a discard and on a
# self-draw in one pass, straight from the ready hands' arrays
# ---------------------------------------------------------------------------------------
@kernel(error_model="numpy", nrt=False)
def score_pairs_scratch(lo, hi, ctx, ws, rows, fans, ncols, pair_row, pair_tile, counts,
                        melds, n_melds, flowers, flags_discard, flags_self, seat, prevalent,
                        dealer, discarder, self_discarder, streak, table_discards, out_d,
                        tot_d, legal_d, extra_d, out_s, tot_s, legal_s, extra_s):
    """Pairs ``lo..hi``: hand ``pair_row[k]`` (a ready hand) completed by ``pair_tile[k]``,
    two rows a pair (the discard win, then the self-draw: ``self_discarder`` >= 0 keeps
    the hand's discarder on the self-draw, -1 drops it), scored a block at a time. The
    MCR scorer is told that the self-draw's row is the hand it has just scored
    (``FLAG_SAME_HAND``): it reads the divisions, traits and waits back."""
    half = BLOCK // 2
    same = FLAG_SAME_HAND if ctx[X_CODE] == CODE_MCR else 0
    for b0 in range(lo, hi, half):
        m = min(half, hi - b0)
        for i in range(m):
            k = b0 + i
            h = pair_row[k]
            t = pair_tile[k]
            d = discarder[h]
            _fill_row(rows[2 * i], h, counts, melds, n_melds, flowers, seat, prevalent,
                      dealer, d, streak, table_discards, t, flags_discard[k])
            rows[2 * i, R_COUNTS + t] += 1
            _fill_row(rows[2 * i + 1], h, counts, melds, n_melds, flowers, seat, prevalent,
                      dealer, d if self_discarder >= 0 else -1, streak, table_discards, t,
                      flags_self[k] | same)
            rows[2 * i + 1, R_COUNTS + t] += 1
        score_rows(ctx, ws, rows, 2 * m, fans)
        for i in range(m):
            _emit(rows[2 * i], fans[2 * i], ncols, b0 + i, out_d, tot_d, legal_d, extra_d)
            _emit(rows[2 * i + 1], fans[2 * i + 1], ncols, b0 + i, out_s, tot_s, legal_s,
                  extra_s)


@kernel(error_model="numpy")
def score_pairs_range(lo, hi, ctx, pair_row, pair_tile, counts, melds, n_melds, flowers,
                      flags_discard, flags_self, seat, prevalent, dealer, discarder,
                      self_discarder, streak, table_discards, out_d, tot_d, legal_d, extra_d,
                      out_s, tot_s, legal_s, extra_s):
    """Score the wait pairs ``lo..hi`` both ways (:func:`score_pairs_scratch`), with scratch."""
    ncols = ctx[X_NCOLS]
    ws, rows, fans = batch_scratch(ctx)
    score_pairs_scratch(lo, hi, ctx, ws, rows, fans, ncols, pair_row, pair_tile, counts,
                        melds, n_melds, flowers, flags_discard, flags_self, seat, prevalent,
                        dealer, discarder, self_discarder, streak, table_discards, out_d,
                        tot_d, legal_d, extra_d, out_s, tot_s, legal_s, extra_s)


@kernel(parallel=True, error_model="numpy")
def score_pairs_rows(ctx, pair_row, pair_tile, counts, melds, n_melds, flowers, flags_discard,
                     flags_self, seat, prevalent, dealer, discarder, self_discarder, streak,
                     table_discards, out_d, tot_d, legal_d, extra_d, out_s, tot_s, legal_s,
                     extra_s, chunk):
    """:func:`score_pairs_range` over every pair, chunks of ``chunk`` pairs in parallel."""
    n = pair_row.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        score_pairs_range(lo, hi, ctx, pair_row, pair_tile, counts, melds, n_melds, flowers,
                          flags_discard, flags_self, seat, prevalent, dealer, discarder,
                          self_discarder, streak, table_discards, out_d, tot_d, legal_d,
                          extra_d, out_s, tot_s, legal_s, extra_s)


@kernel(error_model="numpy", nrt=False)
def meld_tile_counts(melds, n_melds, out):
    """``out`` (N, 34) int16: the tiles of each hand's called melds (a chow's three
    tiles, a pung's three copies, a kong's four); a tile outside 0..33 counts nowhere
    (the scorer reports such a meld)."""
    for h in range(melds.shape[0]):
        for t in range(34):
            out[h, t] = 0
        for j in range(min(n_melds[h], melds.shape[1])):
            kind = melds[h, j, 0]
            tile = melds[h, j, 1]
            if kind == 0:
                for d in range(3):
                    if tile >= 0 and tile + d < 34:
                        out[h, tile + d] += 1
            elif tile >= 0 and tile < 34:
                out[h, tile] += 3 if kind == 1 else 4
