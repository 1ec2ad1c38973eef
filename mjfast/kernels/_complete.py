"""Whether tiles form a complete hand: the one completeness test of the package (the
engine's win check before it scores, the MCR wait search, the bots through the engine).

Counts may exceed 4 (the calculators' wait test counts a fifth copy); ``tmp`` is int64
scratch of at least 9.
"""
from __future__ import annotations

from ._jit import kernel


@kernel(error_model="numpy", nrt=False)
def sets_only(c, off, tmp):
    """The suit ``c[off:off+9]`` splits into sets (chows and pungs): greedy from the
    lowest rank (the count modulo 3 must open chows there)."""
    for i in range(9):
        tmp[i] = c[off + i]
    for i in range(9):
        k = tmp[i] % 3
        if k:
            if i > 6 or tmp[i + 1] < k or tmp[i + 2] < k:
                return False
            tmp[i + 1] -= k
            tmp[i + 2] -= k
    return True


@kernel(error_model="numpy", nrt=False)
def is_regular(c, tmp):
    """``c`` (34 counts) is sets and one pair: each suit's total modulo 3 says where the
    pair is (exactly one group with remainder 2, none with 1); honors must be pungs and at
    most the pair; then each suit splits into sets (the pair's suit after removing a
    pair, tried at every rank)."""
    pair_suit = -1
    for t in range(27, 34):
        r = c[t] % 3
        if r == 1:
            return False
        if r == 2:
            if pair_suit >= 0:
                return False
            pair_suit = 3
    for s in range(3):
        tot = 0
        for i in range(9):
            tot += c[9 * s + i]
        r = tot % 3
        if r == 1:
            return False
        if r == 2:
            if pair_suit >= 0:
                return False
            pair_suit = s
    for s in range(3):
        if s != pair_suit:
            if not sets_only(c, 9 * s, tmp):
                return False
    if pair_suit == 3:
        return True
    if pair_suit < 0:
        return False
    off = 9 * pair_suit
    for i in range(9):
        if c[off + i] >= 2:
            c[off + i] -= 2
            ok = sets_only(c, off, tmp)
            c[off + i] += 2
            if ok:
                return True
    return False


@kernel(error_model="numpy", nrt=False)
def maybe_complete(c, nm, form_mask, tmp):
    """A cheap necessary test that ``c`` (concealed counts with the winning tile, ``nm``
    called melds) is a complete hand of some form in ``form_mask`` (registry ``FORM_*``
    bits): exact for the regular form, seven pairs and seven pairs + a triplet, a presence
    test for MCR's thirteen orphans, honors-and-knitted and knitted straight (the scorer
    decides those)."""
    if is_regular(c, tmp):
        return True
    if nm == 0:
        odd = 0
        odd3 = 0
        mx = 0
        for t in range(34):
            if c[t] % 2 == 1:
                odd += 1
                if c[t] == 3:
                    odd3 += 1
            if c[t] > mx:
                mx = c[t]
        if (form_mask >> 1) & 1 and odd == 0:
            return True
        if (form_mask >> 5) & 1 and odd == 1 and odd3 == 1:
            return True
        if (form_mask >> 3) & 1 and mx == 1:
            return True
        if (form_mask >> 2) & 1:
            allk = True
            for t in range(27, 34):
                if c[t] == 0:
                    allk = False
            for s in range(3):
                if c[9 * s] == 0 or c[9 * s + 8] == 0:
                    allk = False
            if allk:
                return True
    if (form_mask >> 4) & 1 and nm <= 1:
        for a in range(3):
            for b in range(3):
                if b == a:
                    continue
                d = 3 - a - b
                ok = True
                for k in range(3):
                    if c[0 + a + 3 * k] == 0 or c[9 + b + 3 * k] == 0 or c[18 + d + 3 * k] == 0:
                        ok = False
                if ok:
                    return True
    return False
