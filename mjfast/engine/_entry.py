"""The engine's linked symbols' implementations (declared in :mod:`._symbols`): each
rebuilds the arrays from its pointer arguments and calls the engine's compiled function.
Compiled once; every caller reaches them by name (:mod:`mjfast.engine.compiled`)."""
from __future__ import annotations

from ..kernels import X_LEN, X_WS_LEN, as_array, export, kernel, params_view
from ._core import apply as _apply
from ._core import win_value as _win_value
from ._play import auto_step_p as _auto_step_p
from ._play import legal_actions as _legal_actions
from ._symbols import apply_sym, auto_step_sym, legal_actions_sym, win_value_sym
from .layout import ACT_FIELDS, MAX_ACTIONS, MAX_FANS, STATE_SIZE


@kernel(inline="always")
def _engine(S_p, C_p, ws_p):
    """(S, ctx) from the pointers: the state and the engine context ``(P, C, ws)``."""
    head = as_array(C_p, 8)
    C = as_array(C_p, head[X_LEN])
    return as_array(S_p, STATE_SIZE), (params_view(C), C, as_array(ws_p, C[X_WS_LEN]))


@export(apply_sym)
def apply_c(S_p, C_p, ws_p, kind, player, tile, aux, target, flags):
    S, ctx = _engine(S_p, C_p, ws_p)
    return _apply(S, ctx, kind, player, tile, aux, target, flags)


@export(legal_actions_sym)
def legal_actions_c(S_p, C_p, ws_p, p, out_p):
    S, ctx = _engine(S_p, C_p, ws_p)
    out = as_array(out_p, MAX_ACTIONS * ACT_FIELDS).reshape((MAX_ACTIONS, ACT_FIELDS))
    return _legal_actions(S, ctx, p, out)


@export(auto_step_sym)
def auto_step_c(S_p, C_p, out_p):
    head = as_array(C_p, 8)
    C = as_array(C_p, head[X_LEN])
    S = as_array(S_p, STATE_SIZE)
    return 1 if _auto_step_p(S, params_view(C), as_array(out_p, 6)) else 0


@export(win_value_sym)
def win_value_c(S_p, C_p, ws_p, p, tile, self_drawn, robbing, fans_p, res_p):
    S, ctx = _engine(S_p, C_p, ws_p)
    res = as_array(res_p, 2)
    total, legal, fl = _win_value(S, ctx, p, tile, self_drawn != 0, robbing != 0,
                                  as_array(fans_p, MAX_FANS))
    res[0] = 1 if legal else 0
    res[1] = fl
    return total
