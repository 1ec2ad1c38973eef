"""The rule-set registry: what each rule set's tiles, hand size and winning forms are.

Scoring tables (fans, tai, exclusions, settlement) live beside this file, one data
file per rule set; this module only holds the structural facts every kernel needs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RuleSetError

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
        mask = np.zeros(34, dtype=np.bool_)
        mask[list(self.kinds)] = True
        return mask

    @property
    def wall_size(self) -> int:
        return 4 * len(self.kinds) + (8 if self.flowers else 0)


_ALL = tuple(range(34))
RULESETS: dict[str, RuleSet] = {
    "mcr": RuleSet("mcr", "MCR / Chinese Official (国标麻将)", 4, 13, 4, _ALL, True,
                   (FORM_REGULAR, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS,
                    FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT), 0, True),
    "taiwan": RuleSet("taiwan", "Taiwan 16-tile (台湾麻雀)", 4, 16, 5, _ALL, True,
                      (FORM_REGULAR, FORM_SEVEN_PAIRS_TRIPLET), 16, True),
    "tuidaohu": RuleSet("tuidaohu", "Tuidaohu (推倒胡)", 4, 13, 4, _ALL, False,
                        (FORM_REGULAR, FORM_SEVEN_PAIRS), 0, True),
    "two_player": RuleSet("two_player", "Two-player 64-tile (二人麻雀)", 2, 13, 4,
                          tuple(range(0, 9)) + tuple(range(27, 34)), False,
                          (FORM_REGULAR, FORM_SEVEN_PAIRS), 0, False),
}


def get_rules(rules: str | RuleSet) -> RuleSet:
    """Look a rule set up by name (``mcr``, ``taiwan``, ``tuidaohu``, ``two_player``)."""
    if isinstance(rules, RuleSet):
        return rules
    key = str(rules).lower().replace("-", "_")
    if key not in RULESETS:
        raise RuleSetError(str(rules), None,
                           f"unknown rule set (choose from {', '.join(RULESETS)})")
    return RULESETS[key]
