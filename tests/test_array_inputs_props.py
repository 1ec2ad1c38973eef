"""Hypothesis: random arrays into the batch kernels give a result or a typed error,
never a crash or another exception."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import mjfast
from mjfast._decompose import decompose_batch
from mjfast.errors import MjfastError

RULES = st.sampled_from(["mcr", "taiwan", "tuidaohu", "two_player"])
DTYPES = st.sampled_from([np.uint8, np.int8, np.int16, np.int64, np.float64])
SHAPES = st.one_of(st.tuples(st.integers(0, 5), st.just(34)),
                   st.tuples(st.integers(0, 3), st.integers(0, 40)),
                   st.tuples(st.integers(0, 40)))


def _small_counts(draw_dtype):
    return arrays(draw_dtype, st.tuples(st.integers(1, 6), st.just(34)),
                  elements=st.integers(0, 5))


@settings(max_examples=150, deadline=None)
@given(DTYPES.flatmap(lambda dt: arrays(dt, SHAPES, elements=st.integers(
    0 if np.dtype(dt).kind == "u" else -2, 6))), RULES)
def test_random_arrays_into_decompose_batch(arr, rules):
    try:
        res = decompose_batch(arr, rules)
    except MjfastError:
        return
    assert len(res) == arr.shape[0]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([np.uint8, np.int64]).flatmap(_small_counts), RULES)
def test_random_counts_into_shanten_and_waits(arr, rules):
    for fn in (mjfast.shanten, mjfast.waits):
        try:
            out = fn(arr, rules=rules)
        except MjfastError:
            continue
        if fn is mjfast.shanten:
            assert out.shape == (arr.shape[0],) and (out >= -1).all()
        else:
            assert out.mask.shape == (arr.shape[0], 34)
            assert (out.live >= 0).all() and (out.live <= 4).all()
