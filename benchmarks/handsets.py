"""Random tile draws for the shanten benchmarks (seeded, same inputs for every peer) and
the bridge to PyMahjongGB's tile codes. Complete and ready hands come from the library's
generator, :func:`mjfast.random_hands`."""
from __future__ import annotations

import numpy as np

import mjfast

TILE_CODES = [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + \
             [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def random_hands(n: int, size: int, rules: str = "mcr", seed: int = 0) -> np.ndarray:
    """n random hands of ``size`` tiles drawn from the rule set's wall (no fifth copies):
    the library's ``mjfast.random_hands(kind="wall")`` counts."""
    return mjfast.random_hands(n, rules, "wall", seed=seed, tiles=size).counts


def to_mahjonggb(counts: np.ndarray, win: int) -> tuple[tuple[str, ...], str]:
    """One hand's counts (winning tile included) as PyMahjongGB (hand, winTile) codes."""
    c = counts.astype(np.int64).copy()
    c[win] -= 1
    hand = tuple(TILE_CODES[t] for t in np.repeat(np.arange(34), c))
    return hand, TILE_CODES[win]
