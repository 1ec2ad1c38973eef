"""The engine's linked symbols: the rules of play compiled once and called by name from
the play loop, the bots, the replay folds and the Python ``Game`` (see
``mjfast.kernels`` ``external``/``export``). This module is the interface those callers'
cache stamps depend on; the implementations are in :mod:`._core` and :mod:`._play`.

Arguments are pointers to the state ``S`` (int32[STATE_SIZE]), the rule set's context
array ``C``, the scorer workspace ``ws`` (all from :func:`mjfast.engine.make_context`),
output arrays (int64) and int64 scalars; :mod:`mjfast.engine.compiled` wraps them as the
array-level functions callers use.

- ``apply(S, C, ws, kind, player, tile, aux, target, flags) -> error``
- ``legal_actions(S, C, ws, p, out[MAX_ACTIONS, 4]) -> rows`` (wins already scored)
- ``auto_step(S, C, out[6]) -> 1 / 0``
- ``win_value(S, C, ws, p, tile, self_drawn, robbing, fans[MAX_FANS], res[2]) -> total``
  (``res`` = legal, situation flags)
"""
from __future__ import annotations

from numba import types

from ..kernels import external

_I32P = types.CPointer(types.int32)
_I64P = types.CPointer(types.int64)
_I64 = types.int64
_M = "mjfast.engine._entry"

apply_sym = external("mjfast_engine_apply",
                     _I64(_I32P, _I64P, _I64P, _I64, _I64, _I64, _I64, _I64, _I64), _M)
legal_actions_sym = external("mjfast_engine_legal_actions",
                             _I64(_I32P, _I64P, _I64P, _I64, _I64P), _M)
auto_step_sym = external("mjfast_engine_auto_step", _I64(_I32P, _I64P, _I64P), _M)
win_value_sym = external("mjfast_engine_win_value",
                         _I64(_I32P, _I64P, _I64P, _I64, _I64, _I64, _I64, _I64P, _I64P), _M)

__all__ = ["apply_sym", "legal_actions_sym", "auto_step_sym", "win_value_sym"]
