"""The MCR scorer's wait question without a search (``completed_wait_mask``) against the
wait search (``_fast_waits``) on complete hands less their winning tile."""
from __future__ import annotations

import numpy as np

from mjfast.kernels._context import X_DEC_AT, X_DEC_LEN, context_for
from mjfast.kernels._decompose import DIV_COLS, MAX_DIVISIONS
from mjfast.kernels._mcr_waits import _fast_waits, completed_wait_mask
from mjfast.kernels._suit_divisions import table_divisions
from test_mcr_gen import random_batch


def _dec():
    ctx = context_for("mcr")
    return ctx[ctx[X_DEC_AT]:ctx[X_DEC_AT] + ctx[X_DEC_LEN]]


def _searched(st, dec):
    out = np.zeros(34, dtype=np.int64)
    _fast_waits(st, int(st.sum()), out, np.zeros(34, dtype=np.int64), 34, dec,
                np.zeros(34, dtype=np.int64))
    return sum(1 << t for t in np.flatnonzero(out))


def _check(c, win, dec):
    """(compared, fell back): the mask against the search for the complete hand ``c``."""
    divbuf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    if table_divisions(c, divbuf, np.zeros((4, 8), dtype=np.int64), dec) <= 0:
        return 0, 0
    mask = completed_wait_mask(c, win, int(divbuf[0, 1]), dec)
    st = c.copy()
    st[win] -= 1
    if mask < 0:
        assert (c == 4).any()
        return 0, 1
    assert mask == _searched(st, dec), (c.tolist(), win)
    return 1, 0


def test_wait_mask_matches_the_search_on_random_hands():
    dec = _dec()
    b = random_batch(6000, seed=31)
    compared = fell_back = 0
    for i in range(len(b)):
        c = b.counts[i].astype(np.int64)
        x, y = _check(c, int(b.winning_tile[i]), dec)
        compared += x
        fell_back += y
    assert compared > 3000


SHAPES = ["11123456789999m", "11122233344455m", "123m456m789m11p123s", "111m222m333m444m55z",
          "123p456p777z11z555z", "22334455667788m", "111222333s456p55z", "1111m23m456m88s999p",
          "1111m2222m3333m44m", "123m123m123m123m55z"]


def test_wait_mask_on_chosen_shapes():
    """Every tile of dense one-suit and mixed hands as the winning tile; four of a kind
    goes to the search (a fifth copy counts)."""
    from mjfast.notation.mpsz import parse_tiles
    dec = _dec()
    compared = fell_back = 0
    for s in SHAPES:
        c = np.bincount(parse_tiles(s), minlength=34).astype(np.int64)
        assert c.sum() == 14, s
        for win in np.flatnonzero(c):
            x, y = _check(c, int(win), dec)
            compared += x
            fell_back += y
    assert compared >= 40 and fell_back > 0
