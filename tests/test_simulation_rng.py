"""Counter-based walls: a permutation of the rule set's tiles, a pure function of
(seed, game, deal), independent of what else is generated."""
import numpy as np
import pytest

from mjfast.simulation._rng import STREAM_BOT, STREAM_WALL, below, make_key, make_wall, make_walls, tile_set


@pytest.mark.parametrize("rules, size, flowers", [("mcr", 144, 8), ("taiwan", 144, 8),
                                                   ("tuidaohu", 136, 0), ("two_player", 64, 0)])
def test_wall_is_the_tile_set(rules, size, flowers):
    w = make_wall(rules, 5, 1, 2)
    assert w.dtype == np.int8 and len(w) == size
    c = np.bincount(w, minlength=42)
    assert (c[34:] == 1).sum() == flowers and c[:34].max() == 4
    assert np.array_equal(np.sort(w), np.sort(tile_set(rules)))


def test_botzone_wall_has_no_flowers():
    w = make_wall("mcr", 5, 1, 2, flowers=False)
    assert len(w) == 136 and w.max() < 34


def test_pure_function_of_coordinates():
    a = make_walls("mcr", 9, [0, 3, 7], [5, 1, 15])
    b = np.stack([make_wall("mcr", 9, g, d) for g, d in [(0, 5), (3, 1), (7, 15)]])
    assert np.array_equal(a, b)
    assert not np.array_equal(make_wall("mcr", 9, 0, 0), make_wall("mcr", 9, 0, 1))
    assert not np.array_equal(make_wall("mcr", 9, 0, 0), make_wall("mcr", 10, 0, 0))
    seed = np.uint64(1)                 # seeds are uint64 where the simulator calls it
    assert make_key(seed, 2, 3, STREAM_WALL, 0) != make_key(seed, 2, 3, STREAM_BOT, 0)


def test_roughly_uniform():
    W = make_walls("two_player", 1, np.zeros(4000, np.int64), np.arange(4000))
    first = np.bincount(W[:, 0], minlength=34)[[*range(9), *range(27, 34)]]
    assert first.min() > 4000 / 16 * 0.7 and first.max() < 4000 / 16 * 1.3
    k = make_key(np.uint64(3), 0, 0, STREAM_BOT, 1)
    draws = np.array([below(np.uint64(k), i, 6) for i in range(3000)])   # uint64 as the loop
    assert set(draws) == set(range(6)) and abs(draws.mean() - 2.5) < 0.15
