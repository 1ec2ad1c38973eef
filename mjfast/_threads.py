"""The one ``threads`` argument of the public API.

``threads`` is the number of threads a call's kernel may use: a positive int, or None
for all of them (Numba's thread pool size, ``NUMBA_NUM_THREADS``, by default the number
of cores). Values above the pool size are capped to it. :func:`resolve` validates it once;
:func:`numba_threads` sets it (``numba.set_num_threads``) around a call of the parallel
scoring kernels; the shanten kernels split their rows over that many Python threads
(they release the GIL). Results never depend on it.
"""
from __future__ import annotations

import contextlib
from typing import Iterator

import numpy as np

from .errors import ArgumentError


def pool_size() -> int:
    """Threads in Numba's pool (the most any call uses)."""
    from numba import config
    return int(config.NUMBA_NUM_THREADS)


def resolve(threads) -> int:
    """``threads`` as a count 1..pool size; a typed error for anything else."""
    if threads is None:
        return pool_size()
    if isinstance(threads, (bool, np.bool_)) or not isinstance(threads, (int, np.integer)):
        raise ArgumentError(repr(threads)[:60], None,
                            "threads must be a positive int or None (all cores)")
    if threads < 1:
        raise ArgumentError(repr(threads), None, "threads must be at least 1 (None = all cores)")
    return min(int(threads), pool_size())


@contextlib.contextmanager
def numba_threads(threads) -> Iterator[int]:
    """Run the body with Numba's parallel kernels limited to ``threads`` (restored after)."""
    import numba
    n = resolve(threads)
    before = numba.get_num_threads()
    if before == n:             # (setting it costs microseconds: one-hand calls feel it)
        yield n
        return
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(before)
