"""Compiled hand evaluation for the built-in bots: the project's shanten / waits kernel
(``mjfast/kernels/_shanten.py``) called on a handful of rows with preallocated scratch.

A bot context ``bc`` is a tuple built once per worker by :func:`make_bot_context`:
``(params int64[8], tables (SSH, SMK, HSH, HMK), rows uint8[R, 34], vis int16[1, 34],
shan int8[R], mask bool[R, 34], live int8[R, 34], cand int64[R, 4], scratch...)``.
Candidate rows: ``cand[i] = (tile, shanten, live effective copies, extra)``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels import _shanten as K
from ..kernels._config import JIT_OPTIONS
from ..kernels._shanten_tables import get_tables
from ..rules.registry import get_rules

R = 64                     # candidate rows per evaluation (a block of the kernel)
P_FORM_MASK, P_SETS, P_HAND, P_TWO = 0, 1, 2, 3
C_TILE, C_SHANTEN, C_LIVE, C_EXTRA = 0, 1, 2, 3


def make_bot_context(rules: str):
    """Tables, parameters and scratch for :func:`eval_rows` (one per thread)."""
    rs = get_rules(rules)
    t = get_tables()
    params = np.zeros(8, dtype=np.int64)
    params[P_FORM_MASK] = sum(1 << f for f in rs.forms)
    params[P_SETS] = rs.sets
    params[P_HAND] = rs.hand_size
    params[P_TWO] = int(len(rs.kinds) == 16)
    tables = (t["suit_sh"], t["suit_mk"], t["honor_sh"], t["honor_mk"])
    blk = K.BLK
    scratch = (np.zeros((K.N_ROWS, 12, blk), np.uint8), np.zeros((4, blk), np.uint64),
               np.zeros((4, blk), np.uint64), np.zeros((4, blk), np.int64),
               np.zeros(blk, np.int64), np.zeros(blk, np.int64),
               np.zeros((K.N_FORMS, blk), np.int64), np.zeros(blk, np.int64),
               np.zeros((4, 2, blk), np.uint64), np.zeros((4, blk), np.uint16),
               np.zeros(5, np.uint64), np.zeros(5, np.bool_), np.zeros((4, 4), np.int64),
               np.zeros(4, np.int64), np.zeros(5, np.int64),
               np.zeros((9, 4, blk), np.uint8), np.zeros((3, blk), np.uint8))
    return (params, tables, np.zeros((R, 34), np.uint8), np.zeros((1, 34), np.int16),
            np.zeros(R, np.int8), np.zeros((R, 34), np.bool_), np.zeros((R, 34), np.int8),
            np.zeros((R, 4), np.int64), scratch)


@njit(**JIT_OPTIONS)
def eval_rows(bc, n):
    """Shanten, effective tiles and their live copies of ``rows[:n]`` (waiting sizes:
    3k+1 tiles) against ``vis``; fills ``shan``, ``mask``, ``live``. Returns the kernel's
    reason code of the first bad row (0 when all are fine)."""
    params, tables, rows, vis, shan, mask, live, cand, s = bc
    SSH, SMK, HSH, HMK = tables
    bad, reason = K._waits_block(rows, vis, 0, n, params[P_FORM_MASK], params[P_SETS],
                                 params[P_HAND], params[P_TWO] != 0, SSH, SMK, HSH, HMK,
                                 shan, mask, live, K.NK, s[0], s[1], s[2], s[3], s[4], s[5],
                                 s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                                 0, s[15], s[16])
    if bad >= 0:
        return reason
    return 0


@njit(**JIT_OPTIONS)
def set_visible(bc, visible):
    """Copy the 34 visible counts (discards, exposed melds) the live counts subtract."""
    vis = bc[3]
    for t in range(34):
        vis[0, t] = visible[t]


@njit(**JIT_OPTIONS)
def shanten_of(bc, c):
    """Shanten of one waiting-size hand ``c`` (34 counts), evaluated in the last row
    (the candidate rows of :func:`discard_options` are left as they are)."""
    params, tables, rows, vis, shan, mask, live, cand, s = bc
    SSH, SMK, HSH, HMK = tables
    h = R - 1
    for t in range(34):
        rows[h, t] = c[t]
    K._waits_block(rows, vis, h, 1, params[P_FORM_MASK], params[P_SETS], params[P_HAND],
                   params[P_TWO] != 0, SSH, SMK, HSH, HMK, shan, mask, live, K.NK, s[0], s[1],
                   s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13],
                   s[14], 0, s[15], s[16])
    return np.int64(shan[h])


@njit(**JIT_OPTIONS)
def discard_options(bc, c):
    """Every distinct discard of the complete-size hand ``c`` (34 counts, 3k+2 tiles):
    ``cand[i] = (tile, shanten after, live effective copies after, 0)`` and the wait
    rows ``mask[i]`` / ``live[i]``. Returns the number of candidates."""
    params, tables, rows, vis, shan, mask, live, cand, s = bc
    k = 0
    for t in range(34):
        if c[t] > 0:
            for u in range(34):
                rows[k, u] = c[u]
            rows[k, t] -= 1
            cand[k, C_TILE] = t
            k += 1
    eval_rows(bc, k)
    for i in range(k):
        cand[i, C_SHANTEN] = shan[i]
        tot = 0
        for u in range(34):
            tot += live[i, u]
        cand[i, C_LIVE] = tot
        cand[i, C_EXTRA] = 0
    return k


@njit(**JIT_OPTIONS)
def best_shanten(bc, k):
    """The lowest shanten among candidates ``cand[:k]``."""
    cand = bc[7]
    best = 99
    for i in range(k):
        if cand[i, C_SHANTEN] < best:
            best = cand[i, C_SHANTEN]
    return best
