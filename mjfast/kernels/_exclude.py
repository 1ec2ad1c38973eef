"""Numba kernel: the one exclusion mechanism of every scorer.

A hand's raw fan counts ``ft`` (indexed by fan id) become the counts that score: fans
switched off are dropped, then the fans are visited in the profile's topological order
(``topo``: an excluding fan before every fan it excludes) and each fan that still counts
rules out the fans it excludes (``excl[f] = [n, ids...]``) and makes its account-once
deduction (``red_n[f]`` off fan ``red_t[f]``, clamped at 0, unless a fan of
``red_unless[f] = [n, ids...]`` counts). A fan that is itself excluded excludes nothing.
The arrays come from :func:`mjfast.rules._profile.get_profile` (any number of fans).

The fans present are gathered 64 positions at a time as a bit mask (a branch-free scan)
and visited lowest position first: the topological order without a sort, and only the
few fans that are set.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ._config import JIT_OPTIONS


@njit(**JIT_OPTIONS)
def apply_exclusions(ft, topo, excl, red_t, red_n, red_unless, off):
    """Apply the exclusion graph to ``ft`` in place (see the module docstring)."""
    for i in range(off.shape[0]):
        ft[off[i]] = 0
    n = topo.shape[0]
    for base in range(0, n, 64):
        top = min(n, base + 64)
        m = np.int64(0)
        for p in range(base, top):
            m |= np.int64(ft[topo[p]] > 0) << (p - base)
        while m != 0:
            p = base + trailing_zeros(m)
            m &= m - 1
            f = topo[p]
            if ft[f] <= 0:
                continue
            for j in range(1, excl[f, 0] + 1):
                ft[excl[f, j]] = 0
            tgt = red_t[f]
            if tgt > 0:
                skip = False
                for j in range(1, red_unless[f, 0] + 1):
                    if ft[red_unless[f, j]] > 0:
                        skip = True
                if not skip:
                    ft[tgt] -= red_n[f]
                    if ft[tgt] < 0:
                        ft[tgt] = 0


@njit(**JIT_OPTIONS)
def total_of(ft, points):
    """Sum of count x value over every column (negative counts count as 0)."""
    s = 0
    for f in range(points.shape[0]):
        s += max(ft[f], 0) * points[f]
    return s
