"""Single hands settled by the compiled settlement (``mjfast.kernels``: ``settle_win_gross``,
``settle_kong_gross``, ``settle_flower_win``, ``fee``), the same functions the engine
settles every deal with: the scorers validate their arguments and shape the result, the
payment rules are written once.

A settlement call takes a copy of the rule set's parameter block with the caller's values
(``base``, ``unit``, the fee...) put in, so no context is built for them.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..kernels import (C_BASE, C_FALSE_WIN, C_FEE_DEN, C_FEE_NUM, C_SEAT_PAY, C_UNIT,
                       context_of, fee, params_view, settle_flower_win, settle_kong_gross,
                       settle_win_gross)

SLOTS = {"base": C_BASE, "unit": C_UNIT, "seat_payment": C_SEAT_PAY,
         "false_win": C_FALSE_WIN}
KONG_KIND = {"open": 0, "added": 1, "concealed": 2}


_MADE: dict[tuple, tuple[object, np.ndarray]] = {}


def params(profile, fee_rate=None, **values) -> np.ndarray:
    """The parameter block of ``profile`` with ``values`` (``base``, ``unit``,
    ``seat_payment``, ``false_win``; None keeps the table's) and ``fee_rate`` put in,
    made once per profile and values and shared (a one-hand call settles with it): the
    settlement kernels only read it. (Not flagged read-only: Numba would compile its
    kernels again for read-only arrays.)"""
    key = (id(profile), str(fee_rate), tuple(sorted(values.items())))
    got = _MADE.get(key)
    if got is not None and got[0] is profile:
        return got[1]
    P = _make_params(profile, fee_rate, values)
    if len(_MADE) > 1024:
        _MADE.clear()
    _MADE[key] = (profile, P)
    return P


def _make_params(profile, fee_rate, values) -> np.ndarray:
    P = np.array(params_view(context_of(profile)))
    for name, v in values.items():
        if v is not None:
            P[SLOTS[name]] = int(v)
    if fee_rate is not None:
        f = Fraction(str(fee_rate)).limit_denominator(10 ** 6)
        P[C_FEE_NUM], P[C_FEE_DEN] = f.numerator, f.denominator
    return P


def win(P, winner: int, self_drawn: bool, discarder: int | None, total: int,
        legal: bool = True, dealer: int = 0, streak: int = 0) -> np.ndarray:
    """One win's payments before any fee, by player (int64[4]: + gain / - pay)."""
    out = np.zeros(4, dtype=np.int64)
    settle_win_gross(P, int(winner), bool(self_drawn), -1 if discarder is None else int(discarder),
                     int(total), bool(legal), int(dealer), int(streak), out)
    return out


def kong(P, owner: int, kind: str, discarder: int | None) -> np.ndarray:
    """One kong's payment (``kind`` open / added / concealed), by player."""
    out = np.zeros(4, dtype=np.int64)
    settle_kong_gross(P, int(owner), KONG_KIND[kind], -1 if discarder is None else int(discarder),
                      out)
    return out


def flower_win(P, winner: int, payer: int | None) -> np.ndarray:
    """Taiwan's instant flower wins: ``payer`` the 8th flower's holder (七花搶第八花) or None
    (八花独占: every other player pays)."""
    out = np.zeros(4, dtype=np.int64)
    settle_flower_win(P, int(winner), -1 if payer is None else int(payer), out)
    return out


def fee_on(P, gross: int) -> int:
    """The fee on what a player receives (rounded half up)."""
    return int(fee(P, int(gross)))
