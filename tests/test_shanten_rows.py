"""The shanten row functions (mjfast.kernels): the class tables against a direct min-plus
combination, the pruning modes against the exact one, one row at a time against the batch
kernels, and the batch kernels' error reporting (the first bad row, in row order)."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import kernels as K
from mjfast.errors import InvalidCountsError
from mjfast.rules.registry import FORM_NAMES, get_rules

RULES = ["mcr", "taiwan", "tuidaohu", "two_player"]


def _fields(w: int) -> list[int]:
    return [(int(w) >> (5 * k)) & 31 for k in range(12)]


def _combine(x: list[int], y: list[int]) -> list[int]:
    """Min-plus combination of two distance vectors (fields 2j + p), capped at 31."""
    z = []
    for j in range(6):
        for p in range(2):
            best = min(x[2 * a + q] + y[2 * (j - a) + p - q]
                       for a in range(j + 1) for q in range(2) if q <= p)
            z.append(min(best, 31))
    return z


def test_class_tables_are_the_min_plus_combination():
    tab, vec, ct, opt = K.shanten_tables()
    n = len(vec)
    assert ct.shape == (n, n) and opt.shape == (n, n)
    assert (ct == ct.T).all()
    assert (ct[0] == np.arange(n)).all()                      # the disabled part: identity
    rng = np.random.default_rng(0)
    pairs = [(0, y) for y in range(n)] + [tuple(p) for p in rng.integers(0, n, size=(3000, 2))]
    for x, y in pairs:
        vx, vy = _fields(vec[x]), _fields(vec[y])
        assert _fields(vec[ct[x, y]]) == _combine(vx, vy)
        for m in range(6):
            sums = [vx[2 * j + p] + vy[2 * (m - j) + 1 - p] for j in range(m + 1) for p in range(2)]
            bits = sum(1 << k for k, v in enumerate(sums) if v == min(sums))
            assert (int(opt[x, y]) >> (m * (m + 1))) & ((1 << 2 * (m + 1)) - 1) == bits
    cls = tab[:, 0] & 0xFFFF                                    # (then the knitted summary)
    assert cls.min() >= 0 and cls.max() < n
    suit = [0, 0, 1, 1, 1, 0, 2, 0, 0]                          # 34577m
    code = sum(c * 5 ** i for i, c in enumerate(suit))
    # held: a set and a pair (fields 0-3 zero); two sets need one more 7m
    assert _fields(vec[cls[code]])[:5] == [0, 0, 0, 0, 1]


def _rows(rules, n, rng):
    """Waiting-size rows of every meld count, many near the special forms."""
    from test_bots import _random_rows
    return _random_rows(rules, n, rng)


@pytest.mark.parametrize("rules", RULES)
def test_modes_and_single_rows_equal_the_batch(rules):
    rs = get_rules(rules)
    fm = sum(1 << f for f in rs.forms)
    two = int(len(rs.kinds) == 16)
    tab, vec, ct, opt = K.shanten_tables()
    FD, R = K.row_scratch()
    rng = np.random.default_rng(3)
    rows = _rows(rules, 800, rng)
    forms = mjfast.shanten(rows, rules=rules, forms=True)
    w = mjfast.waits(rows, rules=rules)
    for h, c in enumerate(rows):
        codes, total = K.hand_codes(c)
        m = (total - 1) // 3
        s = K.shanten_row(codes, m, fm, rs.sets, two, tab, vec, ct, FD, K.MODE_EXACT)
        exact = FD.copy()
        assert s == forms["shanten"][h]
        for f in rs.forms:
            assert (exact[f] - 1 if exact[f] < 60 else K.NO_FORM) == forms[FORM_NAMES[f]][h]
        assert K.shanten_row(codes, m, fm, rs.sets, two, tab, vec, ct, FD, K.MODE_MIN) == s
        assert K.shanten_row(codes, m, fm, rs.sets, two, tab, vec, ct, FD, K.MODE_TIES) == s
        assert [f for f in range(6) if FD[f] == s + 1] == [f for f in range(6) if exact[f] == s + 1]
        assert K.hand_shanten(c, fm, rs.sets, two, tab, vec, ct, FD) == s
        sh, eff = K.waits_row(codes, m, fm, rs.sets, two, tab, vec, ct, opt, FD, R)
        assert sh == w.shanten[h]
        assert eff == int(sum(1 << int(t) for t in np.flatnonzero(w.mask[h])))
        # one part replaced: the same as the hand with that part
        parts = K.load_parts(codes, two, tab)
        for t in np.flatnonzero(c):
            s_ = t // 9 if t < 27 else 3
            code = codes[s_] - 5 ** (t - 9 * s_)
            after = K.replace_part(parts, s_, code, tab)
            assert after == K.load_parts(K.replace_code(codes, s_, code), two, tab)


def test_first_bad_row_in_row_order():
    rng = np.random.default_rng(8)
    hands = np.array([np.bincount(rng.choice(np.repeat(np.arange(34), 4), 13, replace=False),
                                  minlength=34) for _ in range(300)], dtype=np.uint8)
    bad = hands.copy()
    bad[70, 5] += 1                 # 14 tiles: not a waiting hand
    bad[75, 0] = 5                  # a count above 4, later
    with pytest.raises(InvalidCountsError) as e:
        mjfast.waits(bad)
    assert e.value.position == 70
    with pytest.raises(InvalidCountsError) as e:
        mjfast.shanten(bad)
    assert e.value.position == 75
    assert mjfast.shanten(hands[:1]).shape == (1,)
    assert mjfast.shanten(hands[:0]).shape == (0,)
    assert mjfast.waits(hands[:0]).mask.shape == (0, 34)


def test_cache_stamps_follow_the_names_imported_from_the_kernels_face():
    """The kernels face re-exports the shanten row: a module that imports only ``kernel``
    from it does not depend on the row (an edit there does not recompile it); one that
    imports a row function does."""
    from mjfast.kernels import _cache
    row = "mjfast.kernels._shanten"
    assert row not in _cache.module_closure("mjfast.simulation._rng")      # kernel only
    assert row not in _cache.module_closure("mjfast.engine._core")
    assert row in _cache.module_closure("mjfast.simulation._eval")         # the row's names
    assert row in _cache.module_closure("mjfast.simulation._bots")
