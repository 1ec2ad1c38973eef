"""Vectorised random hand sets for the benchmarks (seeded, same inputs for every peer)."""
from __future__ import annotations

import numpy as np

from mjfast.rules.registry import get_rules

SUITED_STARTS = np.array([t for t in range(27) if t % 9 <= 6])
TILE_CODES = [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + \
             [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def complete_concealed(n: int, rules: str = "mcr", seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n random complete concealed hands (regular form, no called melds): counts (n, 34)
    uint8 and a winning tile per hand (a random tile of the hand)."""
    rs = get_rules(rules)
    rng = np.random.default_rng(seed)
    kinds = np.array(rs.kinds)
    starts = SUITED_STARTS[np.isin(SUITED_STARTS, kinds) & np.isin(SUITED_STARTS + 2, kinds)]
    out = np.empty((0, 34), np.uint8)
    while len(out) < n:
        m = int((n - len(out)) * 1.6) + 16
        counts = np.zeros((m, 34), np.int16)
        rows = np.arange(m)
        for _ in range(rs.sets):
            chow = rng.random(m) < 0.55
            tile = np.where(chow, rng.choice(starts, m), rng.choice(kinds, m))
            for k in range(3):
                np.add.at(counts, (rows, np.where(chow, tile + k, tile)), 1)
        np.add.at(counts, (rows, rng.choice(kinds, m)), 2)
        out = np.vstack([out, counts[(counts <= 4).all(axis=1)].astype(np.uint8)])
    out = out[:n]
    # a random held tile as the winning tile
    cum = np.cumsum(out, axis=1)
    pick = (rng.random(n) * cum[:, -1]).astype(np.int64)
    win = (cum <= pick[:, None]).sum(axis=1).astype(np.int8)
    return out, win


def random_hands(n: int, size: int, rules: str = "mcr", seed: int = 0) -> np.ndarray:
    """n random hands of ``size`` tiles drawn from the rule set's wall (no fifth copies)."""
    rs = get_rules(rules)
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.array(rs.kinds), 4)
    out = np.zeros((n, 34), np.uint8)
    chunk = 100_000
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        order = np.argsort(rng.random((b - a, len(wall))), axis=1)[:, :size]
        tiles = wall[order]
        np.add.at(out[a:b], (np.repeat(np.arange(b - a), size), tiles.ravel()), 1)
    return out


def to_mahjonggb(counts: np.ndarray, win: int) -> tuple[tuple[str, ...], str]:
    """One hand's counts (winning tile included) as PyMahjongGB (hand, winTile) codes."""
    c = counts.astype(np.int64).copy()
    c[win] -= 1
    hand = tuple(TILE_CODES[t] for t in np.repeat(np.arange(34), c))
    return hand, TILE_CODES[win]
