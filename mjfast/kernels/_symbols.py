"""The linked symbols: functions compiled once and called by name from other compiled code
(see :mod:`._jit`). This module is the interface callers depend on (their cache stamp
includes it, not the implementations): a symbol's name, its signature, its module.

Scorers, one per family, the same contract for every rule set::

    score_<family>(ctx, ws, rows, n, fans)     # int64 pointers and the row count n

``ctx`` the context, ``ws`` a workspace, ``rows`` ``n`` hand rows (n, ROW_SIZE; layouts in
:mod:`._context`); ``fans`` (n, ctx[X_NCOLS]) receives each hand's fan counts by fan id
(all 0 when the hand is not complete). Each row gets ``R_TOTAL`` (the total as
``score_batch`` reports it: MCR points with flowers, Taiwan tai without the dealer bonus,
Tuidaohu fan before the cap; -1 when not complete), ``R_LEGAL`` and ``R_EXTRA``. A block of
rows per call: the scorer makes its views of the context and the workspace once, and its
per-hand code (compiled into that loop) keeps them. Inputs are trusted beyond the
completeness check (counts 0..4, the hand size, the winning tile held).
"""
from __future__ import annotations

from numba import types

from ._jit import external

_I64P = types.CPointer(types.int64)
SCORE_SIG = types.int64(_I64P, _I64P, _I64P, types.int64, _I64P)

score_mcr = external("mjfast_score_mcr", SCORE_SIG, "mjfast.kernels._mcr_hand")
score_taiwan = external("mjfast_score_taiwan", SCORE_SIG, "mjfast.kernels._score_taiwan")
score_tuidaohu = external("mjfast_score_tuidaohu", SCORE_SIG, "mjfast.kernels._score_tuidaohu")

__all__ = ["SCORE_SIG", "score_mcr", "score_taiwan", "score_tuidaohu"]
