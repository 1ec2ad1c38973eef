"""Random hand generators shared by the tests (plain Python + NumPy, seeded)."""
from __future__ import annotations

import numpy as np

from mjfast.rules.registry import get_rules

KNITTED_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def knitted_tiles(perm):
    return [perm[g] * 9 + g + 3 * j for g in range(3) for j in range(3)]


def _random_set(rng, kinds, suited):
    """(kind, tile): kind 0 chow, 1 pung."""
    if suited and rng.random() < 0.5:
        t = int(rng.choice(suited))
        return 0, t
    return 1, int(rng.choice(kinds))


def _set_tiles(kind, t):
    return [t, t + 1, t + 2] if kind == 0 else [t, t, t]


def random_complete(rng, rules: str, n_called: int | None = None, special: float = 0.1):
    """One random complete hand: (concealed counts int64[34] incl. winning tile,
    called melds as list of (kind, tile)). Honors the 4-copies limit across both."""
    rs = get_rules(rules)
    kinds = list(rs.kinds)
    suited_starts = [t for t in kinds if t < 27 and t % 9 <= 6 and (t + 2) in kinds]
    if rs.name in ("tuidaohu", "two_player") or rs.name == "mcr":
        pass
    while True:
        total = np.zeros(34, dtype=np.int64)
        counts = np.zeros(34, dtype=np.int64)
        called = []
        k = int(rng.integers(0, rs.sets + 1)) if n_called is None else n_called
        if k == 0 and rng.random() < special:
            sp = _random_special(rng, rs)
            if sp is not None:
                return sp, []
        for _ in range(k):
            kind, t = _random_set(rng, kinds, suited_starts if rs.chow_allowed else [])
            called.append((kind, t))
            for x in _set_tiles(kind, t):
                total[x] += 1
        for _ in range(rs.sets - k):
            kind, t = _random_set(rng, kinds, suited_starts)
            for x in _set_tiles(kind, t):
                counts[x] += 1
                total[x] += 1
        p = int(rng.choice(kinds))
        counts[p] += 2
        total[p] += 2
        if total.max() <= 4:
            return counts, called


def _random_special(rng, rs):
    c = np.zeros(34, dtype=np.int64)
    forms = rs.forms
    choice = int(rng.choice(forms))
    kinds = list(rs.kinds)
    if choice == 1:  # seven pairs (a held four allowed)
        while True:
            c[:] = 0
            for t in rng.choice(kinds, size=7):
                c[t] += 2
            if c.max() <= 4:
                return c
    if choice == 2:
        for t in ORPHANS:
            c[t] = 1
        c[int(rng.choice(ORPHANS))] += 1
        return c
    if choice == 3:
        perm = KNITTED_PERMS[int(rng.integers(6))]
        pool = knitted_tiles(perm) + list(range(27, 34))
        n_honors = int(rng.integers(5, 8))
        suited = list(rng.choice(knitted_tiles(perm), size=14 - n_honors, replace=False))
        honors = list(rng.choice(range(27, 34), size=n_honors, replace=False))
        del pool
        for t in suited + honors:
            c[int(t)] += 1
        return c
    if choice == 4:
        perm = KNITTED_PERMS[int(rng.integers(6))]
        for t in knitted_tiles(perm):
            c[t] += 1
        suited = [t for t in range(27) if t % 9 <= 6]
        while True:
            d = c.copy()
            kind, t = _random_set(rng, list(range(34)), suited)
            for x in _set_tiles(kind, t):
                d[x] += 1
            d[int(rng.integers(34))] += 2
            if d.max() <= 4:
                return d
    if choice == 5:  # Taiwan seven pairs + triplet
        while True:
            c[:] = 0
            for t in rng.choice(kinds, size=7):
                c[t] += 2
            c[int(rng.choice(kinds))] += 3
            if c.max() <= 4:
                return c
    return None


def random_counts(rng, rules: str, size: int, n: int) -> np.ndarray:
    """n random hands of ``size`` tiles from the rule set's wall (no 5th copies)."""
    rs = get_rules(rules)
    wall = np.repeat(np.array(rs.kinds), 4)
    out = np.zeros((n, 34), dtype=np.uint8)
    for i in range(n):
        pick = rng.choice(wall, size=size, replace=False)
        np.add.at(out[i], pick, 1)
    return out
