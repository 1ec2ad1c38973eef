"""Test helpers: knitted / orphan tile constants and random wall draws (the library's).

Random complete and ready hands come from the library's one generator,
:func:`mjfast.random_hands` (docs/generator.md)."""
from __future__ import annotations

import numpy as np

from mjfast import random_hands

KNITTED_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def knitted_tiles(perm):
    return [perm[g] * 9 + g + 3 * j for g in range(3) for j in range(3)]


def random_counts(rng, rules: str, size: int, n: int) -> np.ndarray:
    """n random hands of ``size`` tiles from the rule set's wall (no 5th copies): the
    library's ``random_hands(kind="wall")`` seeded from ``rng``."""
    return random_hands(n, rules, "wall", seed=int(rng.integers(0, 2**63)), tiles=size).counts
