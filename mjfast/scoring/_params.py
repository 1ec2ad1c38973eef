"""The settlement parameters of the scorer contract, checked in one place.

:func:`mjfast.score` and every per-rule-set ``score_hand`` (``mjfast.scoring.mcr`` /
``taiwan`` / ``tuidaohu``) take the same keywords and answer them the same way
(:func:`settlement_params`): an unknown name is a :class:`~mjfast.errors.SituationError`,
a parameter the rule set does not use a :class:`~mjfast.errors.RuleSetError` naming it,
a value of the wrong type or range an :class:`~mjfast.errors.ArgumentError`.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ArgumentError, RuleSetError, SituationError
from ..rules.registry import get_rules
from ..tiles import WIND_LETTERS

SETTLEMENT_PARAMS: dict[str, tuple[str, ...]] = {
    "mcr": ("base",),
    "taiwan": ("base", "unit", "eighth_flower"),
    "tuidaohu": ("base", "fee", "chips"),
    "two_player": ("base", "fee", "chips"),
}
"""The settlement parameters each rule set uses:

- ``base``: an int >= 0 (MCR: what every loser pays besides the points, default 8;
  Taiwan: the base stake; Tuidaohu / two-player: the unit payments scale with);
- ``unit``: an int >= 0, the value of one tai (Taiwan);
- ``fee``: the fraction of the receiver's winnings taken as a fee, 0 <= fee < 1
  (two-player default 0.05; a fee of 1 or more would leave the winner at a loss, so it is
  an error);
- ``chips``: an int >= 0 (every payer) or ``{seat: int}`` (seat letter or number), the
  most a payer can lose;
- ``eighth_flower``: the seat (letter or 0..3) holding the 8th flower, for Taiwan's
  七花搶第八花.
"""
_ALL_PARAMS = ("base", "unit", "fee", "chips", "eighth_flower")


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _whole(name: str, v, what: str) -> int:
    if not _is_int(v):
        raise ArgumentError(f"{name}={v!r}"[:80], None, f"{name} must be a whole number >= 0 ({what})")
    if v < 0:
        raise ArgumentError(f"{name}={v!r}", None, f"{name} must be >= 0 ({what}), got {v}")
    return int(v)


def _seat(name: str, v, players: int) -> int:
    if isinstance(v, str) and len(v) == 1 and v.upper() in WIND_LETTERS[:players]:
        return WIND_LETTERS.index(v.upper())
    if _is_int(v) and 0 <= v < players:
        return int(v)
    raise ArgumentError(f"{name}={v!r}"[:80], None,
                        f"{name} must be a seat: {' '.join(WIND_LETTERS[:players])} or 0..{players - 1}")


def _check_param(name: str, v, rules: str):
    if name == "base":
        return _whole(name, v, "the base stake")
    if name == "unit":
        return _whole(name, v, "the value of one tai")
    if name == "fee":
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(v)):
            raise ArgumentError(f"fee={v!r}"[:80], None, "fee must be a fraction 0 <= fee < 1 (0.05 = 5 %)")
        if not 0 <= float(v) < 1:
            raise ArgumentError(f"fee={v!r}", None,
                                "fee must be a fraction 0 <= fee < 1 (0.05 = 5 %): a fee of 1 or "
                                "more would leave the winner at a loss")
        return float(v)
    if name == "chips":
        players = get_rules(rules).players
        if isinstance(v, Mapping):
            return {_seat("chips seat", k, players): _whole("chips", c, "the most a payer loses")
                    for k, c in v.items()}
        return _whole(name, v, "the most a payer loses")
    return _seat(name, v, 4)   # eighth_flower


def settlement_params(rules: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` (settlement keywords; None = the table's default) checked for rule set
    ``rules``: the given ones, each value normalised (seats as 0..3, ``fee`` a float)."""
    name = get_rules(rules).name
    used = SETTLEMENT_PARAMS[name]
    out = {}
    for k, v in params.items():
        if k not in _ALL_PARAMS:
            raise SituationError(k, None, f"unknown option {k!r} (settlement parameters: "
                                          f"{', '.join(_ALL_PARAMS)})")
        if v is None:
            continue
        if k not in used:
            raise RuleSetError(f"{k}={v!r}"[:80], None,
                               f"{name} does not use {k!r} (its settlement parameters: "
                               f"{', '.join(used)})")
        out[k] = _check_param(k, v, name)
    return out


__all__ = ["SETTLEMENT_PARAMS", "settlement_params"]
