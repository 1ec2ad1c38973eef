"""The rule-set registry: what each rule set's tiles, hand size and winning forms are.

The facts are data, stated once: the ``[structure]`` table of each rule set's file
beside this module (``mcr.toml``, ``taiwan.toml``, ``tuidaohu.toml``, and
``tuidaohu.two_player.toml`` over ``tuidaohu.toml``), read here at import. The scoring
tables of the same files are loaded by :mod:`mjfast.rules._profile`.
"""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import RuleSetError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Winning-form codes, shared by the decomposer, shanten and scorers.
FORM_REGULAR = 0             # n sets + a pair
FORM_SEVEN_PAIRS = 1
FORM_THIRTEEN_ORPHANS = 2
FORM_HONORS_KNITTED = 3      # MCR 全不靠 (and 七星不靠)
FORM_KNITTED_STRAIGHT = 4    # MCR 组合龙 + one set + a pair
FORM_SEVEN_PAIRS_TRIPLET = 5  # Taiwan 七対+刻子 (17 tiles)
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted",
              "knitted_straight", "seven_pairs_triplet")


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    players: int
    hand_size: int            # tiles held between turns (13 or 16)
    sets: int                 # sets in a regular win (4 or 5)
    kinds: tuple[int, ...]    # tile kinds in the set (0..33)
    flowers: bool
    forms: tuple[int, ...]    # winning forms, FORM_* codes
    dead_wall: int            # tiles never drawn at the end of the wall
    chow_allowed: bool        # claiming chows (concealed chows always count)

    @property
    def win_size(self) -> int:
        return self.hand_size + 1

    @property
    def kind_mask(self) -> np.ndarray:
        """(34,) bool, a new array each time: True for the kinds in the set."""
        return np.array(self.kind_flags, dtype=np.bool_)

    @functools.cached_property
    def kind_flags(self) -> tuple[bool, ...]:
        """The same as a tuple, made once (the per-tile tests of parsing and validation
        index it in Python)."""
        kinds = set(self.kinds)
        return tuple(t in kinds for t in range(34))

    @property
    def wall_size(self) -> int:
        return 4 * len(self.kinds) + (8 if self.flowers else 0)


_FILES = {"mcr": ("mcr.toml",), "taiwan": ("taiwan.toml",), "tuidaohu": ("tuidaohu.toml",),
          "two_player": ("tuidaohu.toml", "tuidaohu.two_player.toml")}
_FIELDS = ("title", "players", "hand_size", "sets", "kinds", "flowers", "forms", "dead_wall",
           "chow_allowed")


def _load(name: str) -> RuleSet:
    """The ``[structure]`` table of the rule set's data file(s) (a variant file's entries
    merged over its base's) as a :class:`RuleSet`."""
    here = Path(__file__).resolve().parent
    raw: dict = {}
    for f in _FILES[name]:
        with open(here / f, "rb") as fh:
            raw.update(tomllib.load(fh).get("structure", {}))
    missing = [k for k in _FIELDS if k not in raw]
    unknown = set(raw) - set(_FIELDS)
    if missing or unknown:
        raise RuleSetError(_FILES[name][-1], None,
                           f"[structure]: missing {missing}, unknown {sorted(unknown)}")
    kinds: list[int] = []
    for lo, hi in raw["kinds"]:
        kinds.extend(range(int(lo), int(hi) + 1))
    try:
        forms = tuple(FORM_NAMES.index(f) for f in raw["forms"])
    except ValueError as exc:
        raise RuleSetError(_FILES[name][-1], None, f"[structure]: unknown form ({exc})") from None
    return RuleSet(name, str(raw["title"]), int(raw["players"]), int(raw["hand_size"]),
                   int(raw["sets"]), tuple(kinds), bool(raw["flowers"]), forms,
                   int(raw["dead_wall"]), bool(raw["chow_allowed"]))


RULESETS: dict[str, RuleSet] = {name: _load(name) for name in _FILES}


def get_rules(rules: str | RuleSet) -> RuleSet:
    """Look a rule set up by name (``mcr``, ``taiwan``, ``tuidaohu``, ``two_player``)."""
    if isinstance(rules, RuleSet):
        return rules
    key = str(rules).lower().replace("-", "_")
    if key not in RULESETS:
        raise RuleSetError(str(rules), None,
                           f"unknown rule set (choose from {', '.join(RULESETS)})")
    return RULESETS[key]
