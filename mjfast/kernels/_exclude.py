"""Numba kernel: the one exclusion mechanism of every scorer.

A hand's raw fan counts ``ft`` (indexed by fan id) become the counts that score:

1. fans switched off (``off``) are dropped;
2. the fans are visited in the profile's topological order (``topo``: an excluding fan
   before every fan it excludes); each fan that still counts rules out the fans it
   excludes (``excl[f] = [n, ids...]``): a fan that is itself excluded excludes nothing;
3. then the account-once deductions, in the same order (``reducers``: the fans that have
   one): a fan that still counts takes ``red_n[f]`` off fan ``red_t[f]`` (clamped at 0)
   unless a fan of ``red_unless[f] = [n, ids...]`` counts; ``skip`` (a fan id, 0 none)
   makes no deduction this time (MCR: the seat-wind pung that is also the prevalent
   wind's, under the ``seat_prevalent_wind_pung = "account_once"`` policy).

The arrays come from :func:`mjfast.rules._profile.get_profile` (any number of fans).
Only the fans that exclude something (``excluders``, in ``topo`` order) need a visit:
one pass over them, in order, is the topological walk. The pass gathers which ones the
hand holds into one word per 64 excluders (MCR has 45, Taiwan 11, Tuidaohu 3: one word),
branch-free, and visits only those, lowest bit first, word after word (a test per
excluder mispredicted often: which fans a hand holds is not predictable). A presence
mask over every column, or a walk over every column, measured 1.3-3 times slower, and a
contiguous presence test of every column mapped to the excluders' ranks no faster: most
fans exclude nothing.
"""
from __future__ import annotations

import numpy as np

from ._context import profile_views
from ._jit import kernel, lowest_bit, python_function


@kernel(nrt=False)
def apply_exclusions(ft, excluders, excl, reducers, red_t, red_n, red_unless, off, skip):
    """Apply the exclusion graph and the deductions to ``ft`` in place (module docstring)."""
    for i in range(off.shape[0]):
        ft[off[i]] = 0
    nex = excluders.shape[0]
    for base in range(0, nex, 64):
        # which of the next (up to) 64 excluders the hand holds, one bit each (branch-free:
        # which fans a hand holds is unpredictable), then a visit of those only, in topo
        # order (bit order); a fan an earlier one excluded is 0 by then and excludes
        # nothing (and a fan 0 when its word is gathered stays 0: exclusions only clear)
        held = np.uint64(0)
        for i in range(min(64, nex - base)):
            held |= np.uint64(ft[np.uint64(excluders[base + i])] > 0) << np.uint64(i)
        while held != 0:
            i = lowest_bit(held)
            held &= held - np.uint64(1)
            f = np.uint64(excluders[base + i])
            if ft[f] > 0:
                for j in range(1, excl[f, 0] + 1):
                    ft[excl[f, j]] = 0
    for i in range(reducers.shape[0]):
        f = reducers[i]
        if ft[f] <= 0 or f == skip:
            continue
        counted = False
        for j in range(1, red_unless[f, 0] + 1):
            if ft[red_unless[f, j]] > 0:
                counted = True
        if not counted:
            tgt = red_t[f]
            ft[tgt] -= red_n[f]
            if ft[tgt] < 0:
                ft[tgt] = 0


@kernel(nrt=False)
def total_of(ft, points):
    """Sum of count x value over every column (negative counts count as 0). The products
    are taken in 32-bit lanes (counts are small, values within ``MAX_POINTS``): one
    vector multiply where a 64-bit product is several on AVX2."""
    s = 0
    for f in range(points.shape[0]):
        s += np.int64(np.int32(max(ft[f], 0))) * np.int64(np.int32(points[f]))
    return s


# The same two functions inlined (Numba IR inlining) into a caller's hot loop: the small
# scorers (Taiwan, Tuidaohu) call them once per reading, where the call itself -- some
# forty arguments, the arrays passed field by field -- costs as much as the work.
apply_exclusions_inline = kernel(inline="always")(python_function(apply_exclusions))
total_of_inline = kernel(inline="always")(python_function(total_of))


@kernel(nrt=False, error_model="numpy")
def apply_profile_exclusions(ft, ctx, skip):
    """:func:`apply_exclusions` with the rule profile's arrays read from the context
    ``ctx``: three arguments where the arrays one by one were some seventy words pushed
    per call (the MCR scorer calls it once per division)."""
    (_ints, _points, _topo, excl, reducers, red_t, red_n, red_unless, _col, _live, off,
     excluders) = profile_views(ctx)
    apply_exclusions_inline(ft, excluders, excl, reducers, red_t, red_n, red_unless, off, skip)
