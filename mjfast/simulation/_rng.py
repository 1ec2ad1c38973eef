"""Counter-based random numbers and walls (Numba).

There is no generator state: every random number is a pure function of a key and a counter,
``random64(key, counter) = splitmix64(key + counter * GOLDEN)``, and every key is a hash of
the coordinates of what it decides, so any deal can be re-simulated alone and the output is
byte-identical whatever the number of workers or the order in which deals run.

Keys (``make_key``): ``hash(seed, game, deal, stream, sub)`` with ``stream``

- ``STREAM_WALL`` (sub 0): the wall of deal ``(seed, game, deal)``; it does not depend on the
  seat permutation, so ``--duplicate`` plays one wall once per permutation;
- ``STREAM_BOT`` (sub = permutation * 8 + player): a bot's tie-breaks in that deal; the
  counter is the player's decision number in the deal.

This generator is separate from the library's random-hand generator (``mjfast._generate``).
"""
from __future__ import annotations

import numpy as np

from ..kernels import kernel
from ..rules.registry import get_rules
from ..tiles import FLOWER_BASE, N_FLOWERS

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
STREAM_WALL = 1
STREAM_BOT = 2


@kernel(inline="always")
def splitmix64(z):
    """The splitmix64 finaliser of ``z`` (uint64 -> uint64, a bijection)."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def make_key(seed, game, deal, stream, sub):
    """A 64-bit key for (seed, game, deal, stream, sub): each coordinate hashed in turn."""
    k = splitmix64(np.uint64(seed) + GOLDEN)
    k = splitmix64(k ^ (np.uint64(game) + GOLDEN))
    k = splitmix64(k ^ (np.uint64(deal) + GOLDEN))
    k = splitmix64(k ^ (np.uint64(stream) + GOLDEN))
    return splitmix64(k ^ (np.uint64(sub) + GOLDEN))


@kernel(inline="always")
def random64(key, counter):
    """The ``counter``-th random 64-bit word of ``key``."""
    return splitmix64(np.uint64(key) + np.uint64(counter) * GOLDEN)


@kernel
def below(key, counter, n):
    """A uniform integer in [0, n) from the word ``(key, counter)`` (n < 2**32: the high
    bits of a 32x32 multiply; bias below 2**-25 for n <= 144)."""
    w = random64(key, counter) >> np.uint64(32)
    return np.int64((w * np.uint64(n)) >> np.uint64(32))


@kernel
def shuffle_into(tiles, key):
    """Fisher-Yates shuffle of ``tiles`` in place, word ``i`` of ``key`` choosing step i."""
    n = tiles.shape[0]
    for i in range(n - 1, 0, -1):
        j = below(key, n - 1 - i, i + 1)
        t = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = t


def tile_set(rules: str, flowers: bool | None = None) -> np.ndarray:
    """The rule set's tiles in id order (int8): four of each kind, then the flowers once
    each (MCR and Taiwan; ``flowers=False`` leaves them out, as the Botzone wall does)."""
    rs = get_rules(rules)
    with_flowers = rs.flowers if flowers is None else (flowers and rs.flowers)
    kinds = np.repeat(np.asarray(rs.kinds, dtype=np.int8), 4)
    if with_flowers:
        kinds = np.concatenate((kinds, np.arange(FLOWER_BASE, FLOWER_BASE + N_FLOWERS,
                                                 dtype=np.int8)))
    return kinds


@kernel
def walls_into(base, seed, games, deals, out):
    """out[i] = the wall of deal (seed, games[i], deals[i]): ``base`` shuffled."""
    for i in range(out.shape[0]):
        out[i, :] = base
        shuffle_into(out[i], make_key(seed, games[i], deals[i], STREAM_WALL, 0))


def make_walls(rules: str, seed: int, games, deals, flowers: bool | None = None) -> np.ndarray:
    """The walls (N, wall size) int8 of deals ``(seed, games[i], deals[i])``: the rule set's
    tile set (:func:`tile_set`) in a shuffled order. The engine reads the order (which end
    is drawn, the Botzone per-seat segments, the dead wall)."""
    base = tile_set(rules, flowers)
    g = np.atleast_1d(np.asarray(games, dtype=np.int64))
    d = np.atleast_1d(np.asarray(deals, dtype=np.int64))
    out = np.empty((len(g), len(base)), dtype=np.int8)
    walls_into(base, np.uint64(seed), g, d, out)
    return out


def make_wall(rules: str, seed: int, game: int, deal: int, flowers: bool | None = None) -> np.ndarray:
    """One deal's wall (see :func:`make_walls`)."""
    return make_walls(rules, seed, [game], [deal], flowers)[0]
