"""The linked symbols: functions compiled once and called by name from other compiled code
(see :mod:`._jit`). This module is the interface callers depend on (their cache stamp
includes it, not the implementations): a symbol's name, its signature, its module.

Scorers, one per family, the same contract for every rule set::

    total = score_<family>(ctx, ws, row, fans)        # all int64 pointers

``ctx`` the context, ``ws`` a workspace, ``row`` a hand row (layouts in :mod:`._context`);
``fans`` int64[ctx[X_NCOLS]] receives the fan counts by fan id (all 0 when the hand is not
complete). Returns the total as ``score_batch`` reports it (MCR points with flowers,
Taiwan tai without the dealer bonus, Tuidaohu fan before the cap), -1 when the hand is not
complete; also writes ``row[R_TOTAL]``, ``row[R_LEGAL]`` and ``row[R_EXTRA]``. Inputs are
trusted beyond the completeness check (counts 0..4, the hand size, the winning tile held).
"""
from __future__ import annotations

from numba import types

from ._jit import external

_I64P = types.CPointer(types.int64)
SCORE_SIG = types.int64(_I64P, _I64P, _I64P, _I64P)

score_mcr = external("mjfast_score_mcr_v1", SCORE_SIG, "mjfast.kernels._mcr_hand")
score_taiwan = external("mjfast_score_taiwan_v1", SCORE_SIG, "mjfast.kernels._score_taiwan")
score_tuidaohu = external("mjfast_score_tuidaohu_v1", SCORE_SIG, "mjfast.kernels._score_tuidaohu")

__all__ = ["SCORE_SIG", "score_mcr", "score_taiwan", "score_tuidaohu"]
