"""MCR wait search: which tiles complete a ready hand (the wait fans need to know whether
the hand waited on one tile only), as the calculators' wait test (counts uncapped)."""
from __future__ import annotations

import numpy as np

from ._complete import is_regular
from ._jit import kernel
from ._suit_divisions import POW5, suit_code, suit_splits

# integer division / modulo by constants only: no divide-by-zero checks needed


# ---------------------------------------------------------------------------------------
# regular-form waits (counts uncapped, as the calculators' wait test; the completeness
# test is the package's one, mjfast.kernels._complete)
# ---------------------------------------------------------------------------------------


@kernel(inline="always")
def _suit_bits(dec, code, n):
    """bit 0: a suit of ``n`` tiles with base-5 code ``code`` splits into sets only;
    bit 1: into sets and one pair (the per-suit divisions table: a code's tile count
    modulo 3 says which)."""
    m = n % 3
    if m == 1 or suit_splits(dec, code) == 0:
        return 0
    return 1 if m == 0 else 2


@kernel(error_model="numpy", nrt=False)
def _honor_bits(st, extra):
    """bit 0: honors (with ``extra`` added, -1 none) are pungs only; bit 1: pungs + one pair."""
    pairs = 0
    for t in range(27, 34):
        k = st[t] + (1 if t == extra else 0)
        if k == 2:
            pairs += 1
        elif k != 0 and k != 3:
            return 0
    if pairs == 0:
        return 1
    if pairs == 1:
        return 2
    return 0


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _fast_waits(s, n, out, tmp, stop, dec, kb):
    """The tiles that complete the regular form of ``s`` (n tiles, n % 3 == 1) into
    ``out[34]`` (at most ``stop`` of them); returns how many. Uses the per-suit divisions
    table ``dec`` (:mod:`._suit_divisions`).

    Adding tile t changes one group (a suit or the honors); the hand is complete when
    that group becomes "sets + pair" and the others are "sets", or it becomes "sets" and
    exactly one other group is "sets + pair" (a group cannot be both). So each group is
    tried only when the other three allow it, and then only its tiles next to held ones."""
    k = 0
    for t in range(34):
        out[t] = False
    if n % 3 != 1:
        return 0
    keys = kb[0:3]
    bits = kb[4:8]
    sizes = kb[8:11]
    near = kb[11:14]
    for g in range(3):
        key, size, _, held = suit_code(s, 9 * g)
        keys[g] = key
        sizes[g] = size
        # the ranks held or within two of one held (the only tiles that can join a set)
        near[g] = (held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)) & 0x1FF
        bits[g] = _suit_bits(dec, key, size)
    bits[3] = _honor_bits(s, -1)
    for g in range(4):
        others_sets = True
        others_pair = 0
        for i in range(4):
            if i != g and not (bits[i] & 1):
                others_sets = False
                others_pair += 1 if bits[i] & 2 else 2
        if others_sets:
            need = 2
        elif others_pair == 1:
            need = 1
        else:
            continue
        if g < 3:
            base = g * 9
            for r in range(9):
                if not (near[g] >> r) & 1:
                    continue
                t = base + r
                if s[t] >= 4:
                    # a fifth copy: outside the table, the slow test (the calculators count it)
                    s[t] += 1
                    ok = is_regular(s, tmp)
                    s[t] -= 1
                else:
                    ok = (_suit_bits(dec, keys[g] + POW5[r], sizes[g] + 1) & need) != 0
                if ok:
                    out[t] = True
                    k += 1
                    if k >= stop:
                        return k
        else:
            for t in range(27, 34):
                if s[t] == 0:
                    continue
                if s[t] >= 4:
                    s[t] += 1
                    ok = is_regular(s, tmp)
                    s[t] -= 1
                else:
                    ok = (_honor_bits(s, t) & need) != 0
                if ok:
                    out[t] = True
                    k += 1
                    if k >= stop:
                        return k
    return k


# ---------------------------------------------------------------------------------------
# the waits of a complete hand less its winning tile (the hand scorer's question)
# ---------------------------------------------------------------------------------------
@kernel(inline="always")
def _completing_ranks(dec, code):
    """Bit r: the suit of base-5 code ``code`` with one more tile of rank r splits into
    sets (and a pair when its tile count is then 2 modulo 3). No rank of ``code`` may be
    held four times (the digit would carry). Nine table reads, no branch."""
    m = 0
    for r in range(9):
        m |= suit_splits(dec, code + POW5[r]) << r
    return m


@kernel(error_model="numpy", nrt=False, forceinline=True)
def completed_wait_mask(c, win, pair, dec):
    """The waits of the complete regular hand ``c`` (int64[34], concealed counts with
    the winning tile ``win``; ``pair`` the pair's tile in any of its divisions) less
    ``win``, as a tile mask (bit t): what :func:`_fast_waits` finds, without a search.
    Returns -1 when a group it looks at holds a rank four times (a fifth copy counts for
    the calculators: the caller searches).

    A tile changes one group (a suit or the honors). The group holding the pair (``P``)
    is the one whose tile count is 2 modulo 3. When ``win``'s group ``G`` is ``P``, only
    tiles of ``G`` can complete the hand: those that make ``G`` less ``win`` sets and a
    pair again. Otherwise tiles of ``G`` that make it sets again, and, when ``G`` less
    ``win`` itself splits into sets and a pair, tiles of ``P`` that make ``P`` sets."""
    g = win // 9 if win < 27 else 3
    p = pair // 9 if pair < 27 else 3
    if g < 3:
        code, _, fours, _ = suit_code(c, 9 * g)
        rw = win - 9 * g
        if fours & ~(np.int64(1) << rw):
            return -1
        code -= POW5[rw]
        mask = _completing_ranks(dec, code) << (9 * g)
        g_splits = suit_splits(dec, code)
    else:
        # honors: pungs and at most one pair; a tile completes only what is two of a kind
        mask = np.int64(1) << win
        if c[win] == 3 and p == 3:
            mask |= np.int64(1) << pair
        g_splits = 1
    if p != g and g_splits != 0:
        if p < 3:
            code, _, fours, _ = suit_code(c, 9 * p)
            if fours != 0:
                return -1
            mask |= _completing_ranks(dec, code) << (9 * p)
        else:
            mask |= np.int64(1) << pair
    return mask
