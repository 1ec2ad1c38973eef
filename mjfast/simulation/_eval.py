"""The built-in bots' hand evaluation: their context, and the kernels' row functions
(``mjfast.kernels``: :func:`~mjfast.kernels.discard_options`,
:func:`~mjfast.kernels.hand_shanten`, the same rows ``mjfast.shanten`` / ``mjfast.waits``
loop over) called with it.

A bot context ``bc`` (:func:`make_bot_context`, one per worker) is a tuple of arrays:
``(params int64[8 + planner rows], tab, vec, ct, opt, FD int64[8], R int64[64], cand int64[R, 4],
emask int64[R])``: the rule set's parameters (``P_*`` slots), the shanten
tables, the row functions' scratch, and the discard candidates. Candidate rows
(:func:`discard_options`): ``cand[i] = (tile, shanten after, live effective copies after,
0)``, ``emask[i]`` the bits of its effective tiles (live and bits for the candidates of
the lowest shanten only; -1 and 0 for the others). The compiled loop unpacks the tuple
and passes the arrays one by one (a tuple of arrays is costly to pass to a function called
per decision).
"""
from __future__ import annotations

import numpy as np

from ..kernels import D_LIVE, D_SHANTEN, D_TILE, hand_shanten, kernel, row_scratch, shanten_tables
from ..kernels import discard_options as _discard_options
from ..rules.registry import get_rules

R = 64                     # candidate rows
P_FORM_MASK, P_SETS, P_HAND, P_TWO = 0, 1, 2, 3
C_TILE, C_SHANTEN, C_LIVE = D_TILE, D_SHANTEN, D_LIVE


def make_bot_context(rules: str):
    """Tables, parameters and scratch for the bots' evaluation (one per thread)."""
    from ._planner import plan_rows
    rs = get_rules(rules)
    params = plan_rows(rs.name)          # slots 8.. : the planner's targets
    params[P_FORM_MASK] = sum(1 << f for f in rs.forms)
    params[P_SETS] = rs.sets
    params[P_HAND] = rs.hand_size
    params[P_TWO] = int(len(rs.kinds) == 16)
    return (params, *shanten_tables(), *row_scratch(),
            np.zeros((R, 4), np.int64), np.zeros(R, np.int64))


@kernel(inline="always")
def discard_options(c, vis, params, tab, vec, ct, opt, FD, Rs, cand, emask):
    """Every distinct discard of the complete-size hand ``c`` into ``cand`` / ``emask``
    (:func:`mjfast.kernels.discard_options`); returns their count."""
    return _discard_options(c, vis, params[P_FORM_MASK], params[P_SETS], params[P_TWO],
                            tab, vec, ct, opt, FD, Rs, cand, emask)


@kernel(inline="always")
def shanten_of(c, params, tab, vec, ct, FD):
    """Shanten of one waiting-size hand ``c`` (34 counts)."""
    return hand_shanten(c, params[P_FORM_MASK], params[P_SETS], params[P_TWO], tab, vec, ct,
                        FD)
