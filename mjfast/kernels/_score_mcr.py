"""Numba kernel: MCR (Chinese Official) fan scoring of complete hands, and of every wait.

One hand is scored as the calculators do it (see docs/rules-mcr.md):

1. the winning flags are normalised (a held copy of the winning tile rules out 和绝张, three
   copies in the hand's own melds imply it; kong flags that cannot hold are dropped);
2. with 0 or 1 melds the knitted-straight form (组合龙 + a set + a pair) is tried first;
   concealed hands then try seven pairs / thirteen orphans / honors-and-knitted;
3. otherwise (or when the special form is seven pairs) every regular division from
   :func:`mjfast.kernels._decompose.divisions` plus the called melds is evaluated: each fan
   predicate, the winning-tile placement (a discard win completes a concealed pung only
   when no concealed chow can take the tile; the wait fans count when the hand waited on
   one tile only), then the exclusion graph of the rule table, then the wind pungs;
4. the highest total wins; between equal totals the division that the reference
   calculator meets first (sets ordered by m < s < p < honors, pung before chow) wins.

Fan ids are the table's ids (1..82); the per-hand result is a row of counts.
Tile arithmetic follows the calculators' codes: ``suit * 16 + rank`` with suits
1 characters, 2 bamboo, 3 dots, 4 honors (so consecutive codes never cross suits).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from ._config import JIT_OPTIONS
from ..rules._keys import MCR_KEYS
from ..rules._profile import I_HEAVEN, I_KONG_COMBO, I_MINIMUM
from ._decompose import DIV_COLS, MAX_DIVISIONS, divisions_into
from ._exclude import apply_exclusions


# integer division / modulo by constants only: no divide-by-zero checks needed
_JIT = dict(JIT_OPTIONS, error_model="numpy")

N_FANS = 83  # column = fan id (0 unused), 82 = 明暗杠

# fan ids (the rule table's ids; the table file checks they exist)
BIG_FOUR_WINDS = 1
BIG_THREE_DRAGONS = 2
ALL_GREEN = 3
NINE_GATES = 4
FOUR_KONGS = 5
SEVEN_SHIFTED_PAIRS = 6
THIRTEEN_ORPHANS = 7
ALL_TERMINALS = 8
LITTLE_FOUR_WINDS = 9
LITTLE_THREE_DRAGONS = 10
ALL_HONORS = 11
FOUR_CONCEALED_PUNGS = 12
PURE_TERMINAL_CHOWS = 13
QUADRUPLE_CHOW = 14
FOUR_PURE_SHIFTED_PUNGS = 15
FOUR_PURE_SHIFTED_CHOWS = 16
THREE_KONGS = 17
ALL_TERMINALS_AND_HONORS = 18
SEVEN_PAIRS = 19
GREATER_HONORS_KNITTED = 20
ALL_EVEN_PUNGS = 21
FULL_FLUSH = 22
PURE_TRIPLE_CHOW = 23
PURE_SHIFTED_PUNGS = 24
UPPER_TILES = 25
MIDDLE_TILES = 26
LOWER_TILES = 27
PURE_STRAIGHT = 28
THREE_SUITED_TERMINAL_CHOWS = 29
PURE_SHIFTED_CHOWS = 30
ALL_FIVE = 31
TRIPLE_PUNG = 32
THREE_CONCEALED_PUNGS = 33
LESSER_HONORS_KNITTED = 34
KNITTED_STRAIGHT = 35
UPPER_FOUR = 36
LOWER_FOUR = 37
BIG_THREE_WINDS = 38
MIXED_STRAIGHT = 39
REVERSIBLE_TILES = 40
MIXED_TRIPLE_CHOW = 41
MIXED_SHIFTED_PUNGS = 42
CHICKEN_HAND = 43
LAST_TILE_DRAW = 44
LAST_TILE_CLAIM = 45
OUT_WITH_REPLACEMENT_TILE = 46
ROBBING_THE_KONG = 47
ALL_PUNGS = 48
HALF_FLUSH = 49
MIXED_SHIFTED_CHOWS = 50
ALL_TYPES = 51
MELDED_HAND = 52
TWO_CONCEALED_KONGS = 53
TWO_DRAGONS_PUNGS = 54
OUTSIDE_HAND = 55
FULLY_CONCEALED_HAND = 56
TWO_MELDED_KONGS = 57
LAST_TILE = 58
DRAGON_PUNG = 59
PREVALENT_WIND = 60
SEAT_WIND = 61
CONCEALED_HAND = 62
ALL_CHOWS = 63
TILE_HOG = 64
DOUBLE_PUNG = 65
TWO_CONCEALED_PUNGS = 66
CONCEALED_KONG = 67
ALL_SIMPLES = 68
PURE_DOUBLE_CHOW = 69
MIXED_DOUBLE_CHOW = 70
SHORT_STRAIGHT = 71
TWO_TERMINAL_CHOWS = 72
PUNG_OF_TERMINALS_OR_HONORS = 73
MELDED_KONG = 74
ONE_VOIDED_SUIT = 75
NO_HONORS = 76
EDGE_WAIT = 77
CLOSED_WAIT = 78
SINGLE_WAIT = 79
SELF_DRAWN_FAN = 80
FLOWER_TILES = 81
CONCEALED_KONG_AND_MELDED_KONG = 82

PREDICATE_KEYS = MCR_KEYS
"""Predicate keys, index = fan id - 1 (the rule table's ``key`` column must match)."""

# HandBatch flag bits: defined once, in mjfast/hand.py
from ..hand import FIRST_TURN as F_FIRST_TURN  # noqa: E402
from ..hand import FOURTH_TILE as F_FOURTH_TILE  # noqa: E402
from ..hand import KONG_REPLACEMENT as F_KONG_REPLACEMENT  # noqa: E402
from ..hand import LAST_TILE as F_LAST_TILE  # noqa: E402
from ..hand import ROBBING_KONG as F_ROBBING_KONG  # noqa: E402
from ..hand import SELF_DRAWN as F_SELF_DRAWN  # noqa: E402

# internal win flags
W_SELF = 1
W_4TH = 2
W_KONG = 4
W_LAST = 8
W_HEAVEN = 16

# calculator tile codes
REF_CODE = np.zeros(34, dtype=np.int64)
for _t in range(34):
    if _t < 9:
        REF_CODE[_t] = 0x10 + _t + 1
    elif _t < 18:
        REF_CODE[_t] = 0x30 + _t - 9 + 1
    elif _t < 27:
        REF_CODE[_t] = 0x20 + _t - 18 + 1
    else:
        REF_CODE[_t] = 0x40 + _t - 27 + 1
# ids in the calculators' tile order (m, s, p, honors)
REF_ORDER = np.array(list(range(0, 9)) + list(range(18, 27)) + list(range(9, 18)) + list(range(27, 34)),
                     dtype=np.int64)
REF_RANK = np.zeros(34, dtype=np.int64)   # position of tile id in REF_ORDER
for _k in range(34):
    REF_RANK[REF_ORDER[_k]] = _k

from ._decompose import KNITTED_PERMS as KNITTED  # noqa: E402  (one definition)

# pack kinds inside the kernel
P_CHOW = 0
P_PUNG = 1
P_KONG = 2
P_PAIR = 3


@njit(**_JIT)
def _suit(code):
    return code >> 4


@njit(**_JIT)
def _rank(code):
    return code & 15


@njit(**_JIT)
def _numbered(code):
    s = code >> 4
    return s >= 1 and s <= 3


@njit(**_JIT)
def _is_dragon(code):
    return code >= 0x45 and code <= 0x47


@njit(**_JIT)
def _is_wind(code):
    return code >= 0x41 and code <= 0x44


@njit(**_JIT)
def _is_terminal(code):
    if not _numbered(code):
        return False
    r = code & 15
    return r == 1 or r == 9


@njit(**_JIT)
def _is_term_or_honor(code):
    return (code >> 4) == 4 or _is_terminal(code)


@njit(**_JIT)
def _is_green(code):
    if code == 0x46:
        return True
    if (code >> 4) != 2:
        return False
    r = code & 15
    return r == 2 or r == 3 or r == 4 or r == 6 or r == 8


@njit(**_JIT)
def _is_reversible(code):
    if code == 0x47:
        return True
    s = code >> 4
    r = code & 15
    if s == 3:
        return r == 1 or r == 2 or r == 3 or r == 4 or r == 5 or r == 8 or r == 9
    if s == 2:
        return r == 2 or r == 4 or r == 5 or r == 6 or r == 8 or r == 9
    return False


# ---------------------------------------------------------------------------------------
# regular-form completeness and waits (counts uncapped, as the calculators' wait test)
# ---------------------------------------------------------------------------------------
@njit(**_JIT)
def _sets_only(c, tmp):
    """Whether counts c split into pungs and chows (greedy from the lowest tile: a pung
    is always safe to take there). Counts may exceed 4. tmp is scratch (34,)."""
    for t in range(34):
        tmp[t] = c[t]
    for t in range(34):
        k = tmp[t]
        if k == 0:
            continue
        if k >= 3:
            k -= 3
            if k >= 3:
                k -= 3
        if k == 0:
            continue
        if t >= 27 or t % 9 > 6 or tmp[t + 1] < k or tmp[t + 2] < k:
            return False
        tmp[t + 1] -= k
        tmp[t + 2] -= k
    return True


@njit(**_JIT)
def _complete(c, tmp):
    """Whether counts c form a regular hand (sets + one pair); counts may exceed 4."""
    total = 0
    for t in range(34):
        total += c[t]
    if total % 3 != 2:
        return False
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c, tmp)
            c[p] += 2
            if ok:
                return True
    return False


@njit(**_JIT)
def _regular_waits(s, n, out, tmp, stop):
    """Tiles that complete the regular form of ``s`` (n tiles, n % 3 == 1) into out[34];
    returns how many."""
    k = 0
    for t in range(34):
        out[t] = False
    if n % 3 != 1:
        return 0
    for t in range(34):
        # a wait must be next to a held tile (or be one)
        near = s[t] > 0
        if not near and t < 27:
            r = t % 9
            if r >= 1 and s[t - 1] > 0:
                near = True
            elif r >= 2 and s[t - 2] > 0:
                near = True
            elif r <= 7 and s[t + 1] > 0:
                near = True
            elif r <= 6 and s[t + 2] > 0:
                near = True
        if not near:
            continue
        s[t] += 1
        ok = _complete(s, tmp)
        s[t] -= 1
        if ok:
            out[t] = True
            k += 1
            if k >= stop:
                return k
    return k


POW5 = np.array([5 ** k for k in range(10)], dtype=np.int64)


@njit(**_JIT)
def build_suit_table():
    """uint8[5**9]: for the base-5 code of a suit's counts (0..4 each), bit 0 = the suit
    splits into sets only, bit 1 = into sets and one pair."""
    n = 5 ** 9
    out = np.zeros(n, dtype=np.uint8)
    c = np.zeros(9, dtype=np.int64)
    tmp = np.zeros(9, dtype=np.int64)
    for code in range(n):
        x = code
        total = 0
        for r in range(9):
            c[r] = x % 5
            x //= 5
            total += c[r]
        if total % 3 == 0:
            if _suit_sets_only(c, tmp):
                out[code] |= 1
        elif total % 3 == 2:
            for p in range(9):
                if c[p] >= 2:
                    c[p] -= 2
                    ok = _suit_sets_only(c, tmp)
                    c[p] += 2
                    if ok:
                        out[code] |= 2
                        break
    return out


@njit(**_JIT)
def _suit_sets_only(c, tmp):
    for r in range(9):
        tmp[r] = c[r]
    for r in range(9):
        k = tmp[r]
        if k == 0:
            continue
        if k >= 3:
            k -= 3
        if k == 0:
            continue
        if r > 6 or tmp[r + 1] < k or tmp[r + 2] < k:
            return False
        tmp[r + 1] -= k
        tmp[r + 2] -= k
    return True


@njit(**_JIT)
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


@njit(**_JIT)
def _fast_waits(s, n, out, tmp, stop, suit_tab, kb):
    """:func:`_regular_waits` with the per-suit table (same result).

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
    for g in range(3):
        key = 0
        for r in range(9):
            key += s[g * 9 + r] * POW5[r]
        keys[g] = key
        bits[g] = suit_tab[key]
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
                t = base + r
                near = s[t] > 0
                if not near:
                    if r >= 1 and s[t - 1] > 0:
                        near = True
                    elif r >= 2 and s[t - 2] > 0:
                        near = True
                    elif r <= 7 and s[t + 1] > 0:
                        near = True
                    elif r <= 6 and s[t + 2] > 0:
                        near = True
                if not near:
                    continue
                if s[t] >= 4:
                    # a fifth copy: outside the table, the slow test (the calculators count it)
                    s[t] += 1
                    ok = _complete(s, tmp)
                    s[t] -= 1
                else:
                    ok = (suit_tab[keys[g] + POW5[r]] & need) != 0
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
                    ok = _complete(s, tmp)
                    s[t] -= 1
                else:
                    ok = (_honor_bits(s, t) & need) != 0
                if ok:
                    out[t] = True
                    k += 1
                    if k >= stop:
                        return k
    return k


@njit(**_JIT)
def _groups_complete(bits):
    for j in range(4):
        if bits[j] & 2:
            good = True
            for i in range(4):
                if i != j and not (bits[i] & 1):
                    good = False
                    break
            if good:
                return True
    return False


@njit(**_JIT)
def _wait_shape(ft, wait_cnt, pk_kind, pk_code, pk_melded, first, npk, win_code):
    """Edge / closed / single wait when the hand waited on exactly one tile. Looks at the
    concealed packs (indices first..npk-1; chows and the pair)."""
    if ft[MELDED_HAND] > 0 or ft[FOUR_KONGS] > 0:
        return
    if wait_cnt != 1:
        return
    pos = 0
    for i in range(first, npk):
        if pk_kind[i] == P_CHOW:
            m = pk_code[i]
            if m == win_code:
                pos |= 2
            elif m + 1 == win_code or m - 1 == win_code:
                pos |= 1
        elif pk_kind[i] == P_PAIR:
            if pk_code[i] == win_code:
                pos |= 4
    if pos & 1:
        ft[EDGE_WAIT] = 1
    elif pos & 2:
        ft[CLOSED_WAIT] = 1
    elif pos & 4:
        ft[SINGLE_WAIT] = 1


# ---------------------------------------------------------------------------------------
# chow and pung families
# ---------------------------------------------------------------------------------------
@njit(**_JIT)
def _shift1_unordered(a, b, c):
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    return hi - lo == 2 and a != b and b != c and a != c


@njit(**_JIT)
def _four_chows_fan(t0, t1, t2, t3):
    if (t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3) or (t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3):
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 and t0 == t2 and t0 == t3:
        return QUADRUPLE_CHOW
    return 0


@njit(**_JIT)
def _three_chows_fan(t0, t1, t2):
    s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
    r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
    if s0 != s1 and s0 != s2 and s1 != s2:
        if _shift1_unordered(r0, r1, r2):
            return MIXED_SHIFTED_CHOWS
        if r0 == r1 and r1 == r2:
            return MIXED_TRIPLE_CHOW
        lo = min(r0, min(r1, r2))
        hi = max(r0, max(r1, r2))
        if lo == 2 and hi == 8 and r0 + r1 + r2 == 15:
            return MIXED_STRAIGHT
    else:
        if t0 + 3 == t1 and t1 + 3 == t2:
            return PURE_STRAIGHT
        if (t0 + 2 == t1 and t1 + 2 == t2) or (t0 + 1 == t1 and t1 + 1 == t2):
            return PURE_SHIFTED_CHOWS
        if t0 == t1 and t0 == t2:
            return PURE_TRIPLE_CHOW
    return 0


@njit(**_JIT)
def _two_chows_fan(t0, t1):
    if (t0 >> 4) != (t1 >> 4):
        if (t0 & 15) == (t1 & 15):
            return MIXED_DOUBLE_CHOW
    else:
        if t0 + 3 == t1 or t1 + 3 == t0:
            return SHORT_STRAIGHT
        r0, r1 = t0 & 15, t1 & 15
        if (r0 == 2 and r1 == 8) or (r0 == 8 and r1 == 2):
            return TWO_TERMINAL_CHOWS
        if t0 == t1:
            return PURE_DOUBLE_CHOW
    return 0


@njit(**_JIT)
def _extra_chow_fan(a, b, c, x):
    f0 = _two_chows_fan(a, x)
    f1 = _two_chows_fan(b, x)
    f2 = _two_chows_fan(c, x)
    for want in (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS):
        if f0 == want or f1 == want or f2 == want:
            return want
    return 0


@njit(**_JIT)
def _account_once(fans, nf, max_cnt, ft, table):
    """Pairwise chow fans under the account-once principle: at most ``max_cnt`` of them,
    duplicates cut first, cheapest kinds (老少副, 连六, 喜相逢, 一般高) cut first."""
    for k in range(4):
        table[k] = 0
    cnt = 0
    for i in range(nf):
        if fans[i] != 0:
            cnt += 1
            table[fans[i] - PURE_DOUBLE_CHOW] += 1
    limit = 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while table[idx] > limit and cnt > max_cnt:
                table[idx] -= 1
                cnt -= 1
        limit -= 1
    for k in range(4):
        ft[PURE_DOUBLE_CHOW + k] = table[k]


# The ways to take three of four melds, as (a, b, c, the one left out), tried in the
# reference's order (leave out the last first).
THREE_OF_FOUR = np.array([[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]], dtype=np.int64)


@njit(**_JIT)
def _four_chows(m, ft, tmp):
    f = _four_chows_fan(m[0], m[1], m[2], m[3])
    if f != 0:
        ft[f] = 1
        return
    # three of the four (012, 013, 023, 123) then the fourth with them
    for row in range(4):
        a = THREE_OF_FOUR[row, 0]
        b = THREE_OF_FOUR[row, 1]
        c = THREE_OF_FOUR[row, 2]
        skip = THREE_OF_FOUR[row, 3]
        f = _three_chows_fan(m[a], m[b], m[c])
        if f != 0:
            ft[f] = 1
            g = _extra_chow_fan(m[a], m[b], m[c], m[skip])
            if g != 0:
                ft[g] = 1
            return
    fans = tmp[0:6]
    fans[0] = _two_chows_fan(m[0], m[1])
    fans[1] = _two_chows_fan(m[0], m[2])
    fans[2] = _two_chows_fan(m[0], m[3])
    fans[3] = _two_chows_fan(m[1], m[2])
    fans[4] = _two_chows_fan(m[1], m[3])
    fans[5] = _two_chows_fan(m[2], m[3])
    max_cnt = 3
    if fans[0] == 0 and fans[1] == 0 and fans[2] == 0:
        max_cnt -= 1
    if fans[0] == 0 and fans[3] == 0 and fans[4] == 0:
        max_cnt -= 1
    if fans[1] == 0 and fans[3] == 0 and fans[5] == 0:
        max_cnt -= 1
    if fans[2] == 0 and fans[4] == 0 and fans[5] == 0:
        max_cnt -= 1
    if max_cnt > 0:
        _account_once(fans, 6, max_cnt, ft, tmp[6:10])


@njit(**_JIT)
def _three_chows(m, ft, tmp):
    f = _three_chows_fan(m[0], m[1], m[2])
    if f != 0:
        ft[f] = 1
        return
    fans = tmp[0:3]
    fans[0] = _two_chows_fan(m[0], m[1])
    fans[1] = _two_chows_fan(m[0], m[2])
    fans[2] = _two_chows_fan(m[1], m[2])
    _account_once(fans, 3, 2, ft, tmp[6:10])


@njit(**_JIT)
def _four_pungs_fan(t0, t1, t2, t3):
    if _numbered(t0) and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_PUNGS
    if t0 == 0x41 and t1 == 0x42 and t2 == 0x43 and t3 == 0x44:
        return BIG_FOUR_WINDS
    return 0


@njit(**_JIT)
def _three_pungs_fan(t0, t1, t2):
    if _numbered(t0) and _numbered(t1) and _numbered(t2):
        s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
        r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
        if s0 != s1 and s0 != s2 and s1 != s2:
            if _shift1_unordered(r0, r1, r2):
                return MIXED_SHIFTED_PUNGS
            if r0 == r1 and r1 == r2:
                return TRIPLE_PUNG
        else:
            if t0 + 1 == t1 and t1 + 1 == t2:
                return PURE_SHIFTED_PUNGS
    else:
        if _is_wind(t0) and _is_wind(t1) and _is_wind(t2) and t0 != t1 and t1 != t2:
            return BIG_THREE_WINDS
        if t0 == 0x45 and t1 == 0x46 and t2 == 0x47:
            return BIG_THREE_DRAGONS
    return 0


@njit(**_JIT)
def _two_pungs_fan(t0, t1):
    if _numbered(t0) and _numbered(t1):
        if (t0 & 15) == (t1 & 15):
            return DOUBLE_PUNG
    else:
        if _is_dragon(t0) and _is_dragon(t1):
            return TWO_DRAGONS_PUNGS
    return 0


@njit(**_JIT)
def _four_pungs(m, ft):
    f = _four_pungs_fan(m[0], m[1], m[2], m[3])
    if f != 0:
        ft[f] = 1
        return
    free = -1
    for row in range(4):
        a = THREE_OF_FOUR[row, 0]
        b = THREE_OF_FOUR[row, 1]
        c = THREE_OF_FOUR[row, 2]
        skip = THREE_OF_FOUR[row, 3]
        f = _three_pungs_fan(m[a], m[b], m[c])
        if f != 0:
            ft[f] = 1
            free = skip
            break
    if free >= 0:
        for i in range(4):
            if i == free:
                continue
            g = _two_pungs_fan(m[i], m[free])
            if g != 0:
                ft[g] += 1
                break
        return
    for i in range(4):
        for j in range(i + 1, 4):
            g = _two_pungs_fan(m[i], m[j])
            if g != 0:
                ft[g] += 1


@njit(**_JIT)
def _three_pungs(m, ft):
    f = _three_pungs_fan(m[0], m[1], m[2])
    if f != 0:
        ft[f] = 1
        return
    for i in range(3):
        for j in range(i + 1, 3):
            g = _two_pungs_fan(m[i], m[j])
            if g != 0:
                ft[g] += 1


@njit(**_JIT)
def _kongs(codes, kinds, melded, n, ft, kong_combo):
    """Kong / concealed-pung counts and the per-pung fans (箭刻, 幺九刻)."""
    mk = 0
    ck = 0
    cp = 0
    for i in range(n):
        if melded[i]:
            if kinds[i] == P_KONG:
                mk += 1
        else:
            if kinds[i] == P_KONG:
                ck += 1
            else:
                cp += 1
    k = mk + ck
    if k == 0:
        if cp == 2:
            ft[TWO_CONCEALED_PUNGS] = 1
        elif cp == 3:
            ft[THREE_CONCEALED_PUNGS] = 1
        elif cp == 4:
            ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 1:
        if mk == 1:
            ft[MELDED_KONG] = 1
            if cp == 2:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 3:
                ft[THREE_CONCEALED_PUNGS] = 1
        else:
            ft[CONCEALED_KONG] = 1
            if cp == 1:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[THREE_CONCEALED_PUNGS] = 1
            elif cp == 3:
                ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 2:
        if ck == 0:
            ft[TWO_MELDED_KONGS] = 1
            if cp == 2:
                ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 1:
            if kong_combo:
                ft[CONCEALED_KONG_AND_MELDED_KONG] = 1
            else:
                ft[MELDED_KONG] = 1
                ft[CONCEALED_KONG] = 1
            if cp == 1:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[THREE_CONCEALED_PUNGS] = 1
        else:
            ft[TWO_CONCEALED_KONGS] = 1
            if cp == 1:
                ft[THREE_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 3:
        ft[THREE_KONGS] = 1
        if ck == 1:
            if cp > 0:
                ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 2:
            if cp == 0:
                ft[TWO_CONCEALED_PUNGS] = 1
            else:
                ft[THREE_CONCEALED_PUNGS] = 1
        elif ck == 3:
            if cp == 0:
                ft[THREE_CONCEALED_PUNGS] = 1
            else:
                ft[FOUR_CONCEALED_PUNGS] = 1
    else:
        ft[FOUR_KONGS] = 1
        if ck == 2:
            ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 3:
            ft[THREE_CONCEALED_PUNGS] = 1
        elif ck == 4:
            ft[FOUR_CONCEALED_PUNGS] = 1
    if n == 4 and ft[FOUR_KONGS] == 0 and ft[FOUR_CONCEALED_PUNGS] == 0:
        ft[ALL_PUNGS] = 1
    for i in range(n):
        if _is_dragon(codes[i]):
            ft[DRAGON_PUNG] += 1
        elif _is_terminal(codes[i]) or _is_wind(codes[i]):
            ft[PUNG_OF_TERMINALS_OR_HONORS] += 1


# ---------------------------------------------------------------------------------------
# whole-hand traits
# ---------------------------------------------------------------------------------------
# per-tile trait bits for the one-pass whole-hand traits
TB_TOH, TB_REV, TB_GREEN, TB_HONOR, TB_TERM, TB_WIND, TB_DRAGON, TB_M, TB_S, TB_P = (1 << k for k in range(10))
TILE_BITS = np.zeros(34, dtype=np.int64)
for _t in range(34):
    _c = int(REF_CODE[_t])
    _b = 0
    _s, _r = _c >> 4, _c & 15
    if _s == 4 or _r in (1, 9):
        _b |= TB_TOH
    if _c == 0x47 or (_s == 3 and _r in (1, 2, 3, 4, 5, 8, 9)) or (_s == 2 and _r in (2, 4, 5, 6, 8, 9)):
        _b |= TB_REV
    if _c == 0x46 or (_s == 2 and _r in (2, 3, 4, 6, 8)):
        _b |= TB_GREEN
    if _s == 4:
        _b |= TB_HONOR
        _b |= TB_WIND if _r <= 4 else TB_DRAGON
    elif _r in (1, 9):
        _b |= TB_TERM
    if _s == 1:
        _b |= TB_M
    elif _s == 2:
        _b |= TB_S
    elif _s == 3:
        _b |= TB_P
    TILE_BITS[_t] = _b


# rank bit of a suited tile (1 << rank), 0 for honors
RANK_BIT = np.zeros(34, dtype=np.int64)
for _t in range(27):
    RANK_BIT[_t] = 1 << (_t % 9 + 1)

# the fans _hand_traits can set
TRAIT_FANS = np.array([NO_HONORS, ONE_VOIDED_SUIT, HALF_FLUSH, FULL_FLUSH, ALL_TYPES, ALL_SIMPLES,
                       REVERSIBLE_TILES, ALL_GREEN, ALL_HONORS, ALL_TERMINALS,
                       ALL_TERMINALS_AND_HONORS, LOWER_FOUR, LOWER_TILES, UPPER_FOUR,
                       UPPER_TILES, MIDDLE_TILES, TILE_HOG], dtype=np.int64)


@njit(**_JIT)
def _hand_traits(tc, n_kongs, ft):
    """One pass over the hand's tiles (kongs as 4): the suit fans (无字, 缺一门, 混一色,
    清一色, 五门齐), the tile-kind fans (断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九), the
    rank bands (大于五, 小于五, 全大, 全中, 全小) and 四归一 -- the same rules as
    :func:`_by_suits`, :func:`_by_traits`, :func:`_by_rank_range`, :func:`_tile_hog`."""
    # branch-free (held tiles masked in): which tiles a random hand holds is unpredictable
    any_b = 0
    all_b = -1
    rank_flag = 0
    fours = 0
    for t in range(34):
        k = tc[t]
        held = -np.int64(k > 0)     # all ones when held
        b = TILE_BITS[t]
        any_b |= b & held
        all_b &= b | ~held
        rank_flag |= RANK_BIT[t] & held
        fours += np.int64(k == 4)
    # suits
    h4 = (any_b & TB_HONOR) != 0
    if not h4:
        ft[NO_HONORS] = 1
    voids = (0 if any_b & TB_M else 1) + (0 if any_b & TB_S else 1) + (0 if any_b & TB_P else 1)
    ft[ONE_VOIDED_SUIT] += voids
    if ft[ONE_VOIDED_SUIT] == 2:
        ft[ONE_VOIDED_SUIT] = 0
        if h4:
            ft[HALF_FLUSH] = 1
        else:
            ft[FULL_FLUSH] = 1
    if (any_b & TB_M) and (any_b & TB_S) and (any_b & TB_P) and (any_b & TB_WIND) and (any_b & TB_DRAGON):
        ft[ALL_TYPES] = 1
    # tile kinds
    simples = (any_b & TB_TOH) == 0
    if simples:
        ft[ALL_SIMPLES] = 1
    if all_b & TB_REV:
        ft[REVERSIBLE_TILES] = 1
    if all_b & TB_GREEN:
        ft[ALL_GREEN] = 1
    if not simples:
        if all_b & TB_HONOR:
            ft[ALL_HONORS] = 1
        elif all_b & TB_TERM:
            ft[ALL_TERMINALS] = 1
        elif all_b & TB_TOH:
            ft[ALL_TERMINALS_AND_HONORS] = 1
    # rank bands (suited tiles only)
    if not h4:
        if (rank_flag & 0xFFE1) == 0:
            if rank_flag & 0x0010:
                ft[LOWER_FOUR] = 1
            else:
                ft[LOWER_TILES] = 1
        elif (rank_flag & 0xFC3F) == 0:
            if rank_flag & 0x0040:
                ft[UPPER_FOUR] = 1
            else:
                ft[UPPER_TILES] = 1
        elif (rank_flag & 0xFF8F) == 0:
            ft[MIDDLE_TILES] = 1
    ft[TILE_HOG] = fours - n_kongs


@njit(**_JIT)
def _by_suits(tc, ft):
    """tc: (34,) counts of every tile of the hand (kongs as 4)."""
    h1 = False
    h2 = False
    h3 = False
    wind = False
    dragon = False
    for t in range(34):
        if tc[t] > 0:
            if t < 9:
                h1 = True
            elif t < 18:
                h3 = True
            elif t < 27:
                h2 = True
            elif t < 31:
                wind = True
            else:
                dragon = True
    h4 = wind or dragon
    if not h4:
        ft[NO_HONORS] = 1
    voids = (0 if h1 else 1) + (0 if h2 else 1) + (0 if h3 else 1)
    ft[ONE_VOIDED_SUIT] += voids
    if ft[ONE_VOIDED_SUIT] == 2:
        ft[ONE_VOIDED_SUIT] = 0
        if h4:
            ft[HALF_FLUSH] = 1
        else:
            ft[FULL_FLUSH] = 1
    if h1 and h2 and h3 and wind and dragon:
        ft[ALL_TYPES] = 1


@njit(**_JIT)
def _by_traits(tc, ft):
    simples = True
    rev = True
    green = True
    honors = True
    terms = True
    toh = True
    for t in range(34):
        if tc[t] == 0:
            continue
        code = REF_CODE[t]
        if _is_term_or_honor(code):
            simples = False
        else:
            toh = False
        if not _is_reversible(code):
            rev = False
        if not _is_green(code):
            green = False
        if (code >> 4) != 4:
            honors = False
        if not _is_terminal(code):
            terms = False
    if simples:
        ft[ALL_SIMPLES] = 1
    if rev:
        ft[REVERSIBLE_TILES] = 1
    if green:
        ft[ALL_GREEN] = 1
    if ft[ALL_SIMPLES] != 0:
        return
    if honors:
        ft[ALL_HONORS] = 1
        return
    if terms:
        ft[ALL_TERMINALS] = 1
        return
    if toh:
        ft[ALL_TERMINALS_AND_HONORS] = 1


@njit(**_JIT)
def _by_rank_range(tc, ft):
    flag = 0
    for t in range(34):
        if tc[t] == 0:
            continue
        if t >= 27:
            return
        flag |= 1 << (t % 9 + 1)
    if (flag & 0xFFE1) == 0:
        if flag & 0x0010:
            ft[LOWER_FOUR] = 1
        else:
            ft[LOWER_TILES] = 1
        return
    if (flag & 0xFC3F) == 0:
        if flag & 0x0040:
            ft[UPPER_FOUR] = 1
        else:
            ft[UPPER_TILES] = 1
        return
    if (flag & 0xFF8F) == 0:
        ft[MIDDLE_TILES] = 1


@njit(**_JIT)
def _tile_hog(tc, n_kongs, ft):
    k = 0
    for t in range(34):
        if tc[t] == 4:
            k += 1
    ft[TILE_HOG] = k - n_kongs


@njit(**_JIT)
def _by_packs_traits(pk_kind, pk_code, npk, ft):
    term = 0
    honor = 0
    five = 0
    even = 0
    for i in range(npk):
        code = pk_code[i]
        if _numbered(code):
            r = code & 15
            if pk_kind[i] == P_CHOW:
                if r == 2 or r == 8:
                    term += 1
                elif r == 4 or r == 5 or r == 6:
                    five += 1
            else:
                if r == 1 or r == 9:
                    term += 1
                elif r == 5:
                    five += 1
                elif r == 2 or r == 4 or r == 6 or r == 8:
                    even += 1
        else:
            honor += 1
    if term + honor == 5:
        ft[OUTSIDE_HAND] = 1
        return
    if five == 5:
        ft[ALL_FIVE] = 1
        return
    if even == 5:
        ft[ALL_EVEN_PUNGS] = 1


@njit(**_JIT)
def _by_win_flag(wf, ft):
    if wf & W_4TH:
        ft[LAST_TILE] = 1
    if wf & W_LAST:
        if wf & W_SELF:
            ft[LAST_TILE_DRAW] = 1
        else:
            ft[LAST_TILE_CLAIM] = 1
    if wf & W_KONG:
        if wf & W_SELF:
            ft[OUT_WITH_REPLACEMENT_TILE] = 1
        else:
            ft[ROBBING_THE_KONG] = 1
    if wf & W_SELF:
        ft[SELF_DRAWN_FAN] = 1


@njit(**_JIT)
def _wind_pung(code, prevalent, seat, ft, excl, red_t, red_n, red_unless):
    """A wind pung: 圈风刻 / 门风刻, each taking its pung out of 幺九刻 (account once)
    unless a fan that already accounted for the wind pungs counts."""
    delta = code - 0x41
    if delta == prevalent:
        ft[PREVALENT_WIND] = 1
        _wind_reduce(PREVALENT_WIND, ft, red_t, red_n, red_unless)
    if delta == seat:
        ft[SEAT_WIND] = 1
        if seat != prevalent:
            _wind_reduce(SEAT_WIND, ft, red_t, red_n, red_unless)


@njit(**_JIT)
def _wind_reduce(f, ft, red_t, red_n, red_unless):
    tgt = red_t[f]
    if tgt <= 0:
        return
    for j in range(1, red_unless[f, 0] + 1):
        if ft[red_unless[f, j]] > 0:
            return
    ft[tgt] -= red_n[f]
    if ft[tgt] < 0:
        ft[tgt] = 0


@njit(**_JIT)
def _winds_allowed(ft, excl):
    """No counting fan excludes the wind-pung fans (大四喜 does)."""
    for f in range(1, N_FANS):
        if ft[f] > 0:
            for j in range(1, excl[f, 0] + 1):
                g = excl[f, j]
                if g == PREVALENT_WIND or g == SEAT_WIND:
                    return False
    return True


@njit(**_JIT)
def _total(ft, points):
    # branch-free (max, not a test): the loop vectorises
    s = 0
    for f in range(N_FANS):
        s += max(ft[f], 0) * points[f]
    return s


# ---------------------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------------------
@njit(**_JIT)
def _sort_into(src, n, dst):
    for i in range(n):
        v = src[i]
        j = i - 1
        while j >= 0 and dst[j] > v:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = v


@njit(**_JIT)
def _nine_gates(st):
    for base in (0, 9, 18):
        if st[base] == 3 and st[base + 8] == 3:
            ok = True
            for k in range(1, 8):
                if st[base + k] != 1:
                    ok = False
                    break
            if ok:
                return True
    return False


@njit(**_JIT)
def score_one(c, win, melds, nm, fl, seat, prevalent, points, excl, off, topo, red_t, red_n,
              red_unless, kong_combo, heaven_no_waits, ft_best, divbuf, work, ft, work_fans, dscr, sc, suit_tab):
    """Score one complete hand. ``c`` int64[34] concealed counts with the winning tile.
    Writes fan counts into ft_best (int32[N_FANS], flowers not included) and returns the
    total without flowers, or -1 when the hand is not complete (ft_best is then
    undefined; every path that returns a total has written all of it)."""
    # ---- standing tiles (without the winning tile), tiles of the fixed melds ------------
    st = work[0]
    tc = work[1]      # every tile of the hand, kongs as 4
    meld_cnt = work[2]  # copies in fixed melds (kongs as 4)
    n_st = -1
    for t in range(34):
        v = c[t]
        st[t] = v
        tc[t] = v
        meld_cnt[t] = 0
        n_st += v
    st[win] -= 1
    fixed_melded = 0
    n_fixed_kongs = 0
    any_kong = False
    for j in range(nm):
        kind = melds[j, 0]
        tile = melds[j, 1]
        if kind == 0:
            for d in range(3):
                tc[tile + d] += 1
                meld_cnt[tile + d] += 1
            fixed_melded += 1
        elif kind == 1:
            tc[tile] += 3
            meld_cnt[tile] += 3
            fixed_melded += 1
        else:
            tc[tile] += 4
            meld_cnt[tile] += 4
            n_fixed_kongs += 1
            any_kong = True
            if not (melds[j, 2] & 1):
                fixed_melded += 1
    # ---- winning flags ----------------------------------------------------------------
    wf = 0
    if fl & F_SELF_DRAWN:
        wf |= W_SELF
    if fl & F_FOURTH_TILE:
        wf |= W_4TH
    if fl & F_LAST_TILE:
        wf |= W_LAST
    if fl & (F_KONG_REPLACEMENT | F_ROBBING_KONG):
        wf |= W_KONG
    if heaven_no_waits and (fl & F_FIRST_TURN) and (fl & F_SELF_DRAWN):
        wf |= W_HEAVEN
    if st[win] > 0:
        wf &= ~W_4TH
    if meld_cnt[win] == 3:
        wf |= W_4TH
    if wf & W_KONG:
        if wf & W_SELF:
            if not any_kong:
                wf &= ~W_KONG
        else:
            if meld_cnt[win] > 0 or st[win] > 0:
                wf &= ~W_KONG
    win_code = REF_CODE[win]
    best = -1
    special_seven_pairs = False
    # ---- knitted straight + set + pair (0 or 1 melds) -------------------------------------
    if nm <= 1:
        perm = -1
        for p in range(6):
            ok = True
            for g in range(3):
                base = KNITTED[p, g] * 9 + g
                if c[base] == 0 or c[base + 3] == 0 or c[base + 6] == 0:
                    ok = False
                    break
            if ok:
                perm = p
                break
        if perm >= 0:
            rest = work[4]
            for t in range(34):
                rest[t] = c[t]
            for g in range(3):
                s = KNITTED[perm, g]
                for j in range(3):
                    rest[s * 9 + g + 3 * j] -= 1
            nd = divisions_into(rest, 1, divbuf, dscr)
            if nd == 1:
                for f in range(N_FANS):
                    ft[f] = 0
                ft[KNITTED_STRAIGHT] = 1
                # the fourth set: the fixed meld or the division's set
                if nm == 1:
                    k4 = melds[0, 0]
                    t4 = melds[0, 1]
                    mel4 = not (k4 == 2 and (melds[0, 2] & 1))
                else:
                    k4 = divbuf[0, 3]
                    t4 = divbuf[0, 4]
                    mel4 = False
                pair = divbuf[0, 1]
                pk_kind = sc[0]
                pk_code = sc[1]
                if k4 == 0:
                    pk_kind[0] = P_CHOW
                    pk_code[0] = REF_CODE[t4 + 1]
                    if REF_CODE[pair] < 0x40:
                        ft[ALL_CHOWS] = 1
                else:
                    pk_kind[0] = P_KONG if k4 == 2 else P_PUNG
                    pk_code[0] = REF_CODE[t4]
                    kc = sc[3]
                    kk = sc[4]
                    km = sc[5]
                    kc[0] = pk_code[0]
                    kk[0] = pk_kind[0]
                    km[0] = mel4
                    _kongs(kc, kk, km, 1, ft, kong_combo)
                pk_kind[1] = P_PAIR
                pk_code[1] = REF_CODE[pair]
                _by_win_flag(wf, ft)
                if nm == 0 or (k4 == 2 and not mel4):
                    if wf & W_SELF:
                        ft[FULLY_CONCEALED_HAND] = 1
                    else:
                        ft[CONCEALED_HAND] = 1
                # tiles: knitted 9 + the set + the pair
                kt = work[5]
                for t in range(34):
                    kt[t] = 0
                for g in range(3):
                    s = KNITTED[perm, g]
                    for j in range(3):
                        kt[s * 9 + g + 3 * j] += 1
                if k4 == 0:
                    for d in range(3):
                        kt[t4 + d] += 1
                else:
                    kt[t4] += 4 if k4 == 2 else 3
                kt[pair] += 2
                _by_suits(kt, ft)
                _tile_hog(kt, 1 if k4 == 2 else 0, ft)
                if nm == 0:
                    if not (wf & W_HEAVEN):
                        # the calculators rebuild the waiting tiles from the non-knitted part
                        # minus the winning tile (a 16-bit count that wraps when the winning
                        # tile sits in the knitted part), keeping at most 4 tiles
                        tmp = work[6]
                        for t in range(34):
                            tmp[t] = 0
                        got = 0
                        for k in range(34):
                            t = REF_ORDER[k]
                            n = rest[t] - (1 if t == win else 0)
                            if n < 0:
                                n = 4
                            while n > 0 and got < 4:
                                tmp[t] += 1
                                got += 1
                                n -= 1
                            if got == 4:
                                break
                        wt = work[7]
                        wc = _fast_waits(tmp, got, wt, work[8], 2, suit_tab, work[9])
                        if wc > 0:
                            # no seven-pairs waits here (two packs only)
                            pk_mel = sc[2]
                            pk_mel[0] = 0
                            pk_mel[1] = 0
                            _wait_shape(ft, wc, pk_kind, pk_code, pk_mel, 0, 2, win_code)
                elif c[win] > 1:
                    ft[SINGLE_WAIT] = 1
                apply_exclusions(ft, topo, excl, red_t, red_n, red_unless, off)
                if k4 != 0 and _is_wind(pk_code[0]) and _winds_allowed(ft, excl):
                    _wind_pung(pk_code[0], prevalent, seat, ft, excl, red_t, red_n, red_unless)
                tot = _total(ft, points)
                best = tot
                for f in range(N_FANS):
                    ft_best[f] = ft[f]
                return best
    # ---- seven pairs / thirteen orphans / honors and knitted (no melds) -------------------
    if nm == 0:
        for f in range(N_FANS):
            ft[f] = 0
        found = False
        pairs_ok = True
        for t in range(34):
            if c[t] % 2 == 1:
                pairs_ok = False
                break
        if pairs_ok:
            # seven shifted pairs: seven consecutive kinds of one suit, two of each
            shifted = False
            for base in (0, 9, 18):
                for lo in range(3):
                    ok = True
                    for k in range(7):
                        if c[base + lo + k] != 2:
                            ok = False
                            break
                    if ok:
                        shifted = True
            if shifted:
                ft[SEVEN_SHIFTED_PAIRS] = 1
                _by_traits(c, ft)
            else:
                ft[SEVEN_PAIRS] = 1
                special_seven_pairs = True
                _by_suits(c, ft)
                _by_traits(c, ft)
                _by_rank_range(c, ft)
                _tile_hog(c, 0, ft)
            found = True
        else:
            # thirteen orphans
            ok = True
            for t in range(34):
                if c[t] > 0 and not _is_term_or_honor(REF_CODE[t]):
                    ok = False
                    break
            if ok:
                for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
                    if c[t] == 0:
                        ok = False
                        break
            if ok:
                ft[THIRTEEN_ORPHANS] = 1
                found = True
            else:
                # honors and knitted tiles
                nnum = 0
                distinct = True
                for t in range(34):
                    if c[t] > 1:
                        distinct = False
                    if t < 27:
                        nnum += c[t]
                if distinct and nnum >= 7 and nnum <= 9:
                    fits = False
                    for p in range(6):
                        good = True
                        for t in range(27):
                            if c[t] > 0:
                                g = t % 9 % 3
                                if KNITTED[p, g] != t // 9:
                                    good = False
                                    break
                        if good:
                            fits = True
                            break
                    if fits:
                        if nnum == 7:
                            ft[GREATER_HONORS_KNITTED] = 1
                        else:
                            ft[LESSER_HONORS_KNITTED] = 1
                            if nnum == 9:
                                ft[KNITTED_STRAIGHT] = 1
                        found = True
        if found:
            _by_win_flag(wf, ft)
            apply_exclusions(ft, topo, excl, red_t, red_n, red_unless, off)
            best = _total(ft, points)
            for f in range(N_FANS):
                ft_best[f] = ft[f]
            if not special_seven_pairs:
                return best
    # ---- regular divisions -----------------------------------------------------------------
    nd = divisions_into(c, 1, divbuf, dscr)
    if nd == 0:
        return best
    wait_cnt = -1
    waits = work[7]
    pk_kind = sc[0]
    pk_code = sc[1]
    pk_mel = sc[2]
    pg_code = sc[3]
    pg_kind = sc[4]
    pg_mel = sc[5]
    ch = sc[6]
    keys = sc[7]
    dtot = sc[8]
    dkeys = sc[9]
    dpref = sc[10]
    srt = sc[12]
    tmp = sc[13]
    hf = sc[15]
    hf_ids = sc[14, 16:120]
    hand_done = False
    nhf = 0
    ftbuf = work_fans[:nd]
    heaven = (wf & W_HEAVEN) != 0
    for d in range(nd):
        for f in range(N_FANS):
            ft[f] = 0
        # packs: fixed melds, the division's sets, the pair
        npk = 0
        for j in range(nm):
            kind = melds[j, 0]
            tile = melds[j, 1]
            if kind == 0:
                pk_kind[npk] = P_CHOW
                pk_code[npk] = REF_CODE[tile + 1]
                pk_mel[npk] = True
            elif kind == 1:
                pk_kind[npk] = P_PUNG
                pk_code[npk] = REF_CODE[tile]
                pk_mel[npk] = True
            else:
                pk_kind[npk] = P_KONG
                pk_code[npk] = REF_CODE[tile]
                pk_mel[npk] = not (melds[j, 2] & 1)
            npk += 1
        ns = divbuf[d, 2]
        for i in range(ns):
            kind = divbuf[d, 3 + 2 * i]
            tile = divbuf[d, 4 + 2 * i]
            if kind == 0:
                pk_kind[npk] = P_CHOW
                pk_code[npk] = REF_CODE[tile + 1]
                keys[i] = REF_RANK[tile] * 2 + 1
            else:
                pk_kind[npk] = P_PUNG
                pk_code[npk] = REF_CODE[tile]
                keys[i] = REF_RANK[tile] * 2
            pk_mel[npk] = False
            npk += 1
        pair = divbuf[d, 1]
        pk_kind[npk] = P_PAIR
        pk_code[npk] = REF_CODE[pair]
        pk_mel[npk] = False
        npk += 1
        # the reference's order of divisions: sorted set keys, lexicographic (only needed
        # to choose between several divisions)
        dkey = 0
        if nd > 1:
            for i in range(1, ns):
                v = keys[i]
                j = i - 1
                while j >= 0 and keys[j] > v:
                    keys[j + 1] = keys[j]
                    j -= 1
                keys[j + 1] = v
            for i in range(ns):
                dkey = dkey * 128 + keys[i]
        # chows and pungs
        nch = 0
        npg = 0
        for i in range(npk - 1):
            if pk_kind[i] == P_CHOW:
                ch[nch] = pk_code[i]
                nch += 1
            else:
                pg_code[npg] = pk_code[i]
                pg_kind[npg] = pk_kind[i]
                pg_mel[npg] = pk_mel[i]
                npg += 1
        _by_win_flag(wf, ft)
        if not (wf & W_SELF):
            can_chow = False
            for i in range(npk - 1):
                if pk_kind[i] == P_CHOW and not pk_mel[i]:
                    m = pk_code[i]
                    if m - 1 == win_code or m == win_code or m + 1 == win_code:
                        can_chow = True
            if not can_chow:
                for i in range(npg):
                    if pg_code[i] == win_code and not pg_mel[i]:
                        pg_mel[i] = True
        if npg > 0:
            _kongs(pg_code, pg_kind, pg_mel, npg, ft, kong_combo)
        pair_code = REF_CODE[pair]
        if nch == 4:
            # three-suited / pure terminal chows
            done = False
            if (pair_code & 15) == 5:
                ps = pair_code >> 4
                lo = sc[14, 0:5]
                hi = sc[14, 5:10]
                for k in range(10):
                    sc[14, k] = 0
                ok3 = True
                okp = True
                n123 = 0
                n789 = 0
                for i in range(4):
                    s = ch[i] >> 4
                    r = ch[i] & 15
                    if s == ps:
                        ok3 = False
                    else:
                        okp = False
                    if r == 2:
                        lo[s] += 1
                        n123 += 1
                    elif r == 8:
                        hi[s] += 1
                        n789 += 1
                    else:
                        ok3 = False
                        okp = False
                if ok3 and ps >= 1 and ps <= 3:
                    good = True
                    for s in range(1, 4):
                        if s != ps and (lo[s] == 0 or hi[s] == 0):
                            good = False
                    if good:
                        ft[THREE_SUITED_TERMINAL_CHOWS] = 1
                        done = True
                if not done and okp and n123 == 2 and n789 == 2:
                    ft[PURE_TERMINAL_CHOWS] = 1
                    done = True
            if not done:
                _sort_into(ch, 4, srt)
                _four_chows(srt, ft, tmp)
        elif nch == 3:
            _sort_into(ch, 3, srt)
            _three_chows(srt, ft, tmp)
        elif nch == 2:
            g = _two_chows_fan(ch[0], ch[1])
            if g != 0:
                ft[g] += 1
            g = _two_pungs_fan(pg_code[0], pg_code[1])
            if g != 0:
                ft[g] += 1
        elif nch == 1:
            _sort_into(pg_code, 3, srt)
            _three_pungs(srt, ft)
        else:
            _sort_into(pg_code, 4, srt)
            _four_pungs(srt, ft)
        if not heaven and n_st == 13 and _nine_gates(st):
            ft[NINE_GATES] = 1
        # concealment
        if fixed_melded == 0:
            if wf & W_SELF:
                ft[FULLY_CONCEALED_HAND] = 1
            else:
                ft[CONCEALED_HAND] = 1
        elif fixed_melded == 4:
            if wf & W_SELF:
                ft[SELF_DRAWN_FAN] = 1
            else:
                ft[MELDED_HAND] = 1
        # the pair
        if nch == 4:
            if pair_code < 0x40:
                ft[ALL_CHOWS] = 1
        elif ft[TWO_DRAGONS_PUNGS] > 0:
            if _is_dragon(pair_code):
                ft[LITTLE_THREE_DRAGONS] = 1
                ft[TWO_DRAGONS_PUNGS] = 0
        elif ft[BIG_THREE_WINDS] > 0:
            if _is_wind(pair_code):
                ft[LITTLE_FOUR_WINDS] = 1
                ft[BIG_THREE_WINDS] = 0
        _by_packs_traits(pk_kind, pk_code, npk, ft)
        # whole-hand traits (suits, tile kinds, rank bands, tile hog): the same for every
        # division, computed once
        if not hand_done:
            for k in range(TRAIT_FANS.shape[0]):
                hf[TRAIT_FANS[k]] = 0
            _hand_traits(tc, n_fixed_kongs, hf)
            nhf = 0
            for k in range(TRAIT_FANS.shape[0]):
                f = TRAIT_FANS[k]
                if hf[f] != 0:
                    hf_ids[nhf] = f
                    nhf += 1
            hand_done = True
        for k in range(nhf):
            ft[hf_ids[k]] += hf[hf_ids[k]]
        cand = False
        if not heaven and ft[MELDED_HAND] == 0 and ft[FOUR_KONGS] == 0:
            cand = pair == win
            for i in range(nm, npk - 1):
                if pk_kind[i] == P_CHOW and pk_code[i] - win_code <= 1 and win_code - pk_code[i] <= 1:
                    cand = True
        if cand:
            # the waits are only needed when this division places the winning tile in an
            # edge / closed / single position; whether there is exactly one is all that
            # matters (the search stops at two)
            if wait_cnt < 0:
                wait_cnt = _fast_waits(st, n_st, waits, work[8], 2, suit_tab, work[9])
                if wait_cnt == 1 and nm == 0:
                    # seven-pairs waits join the regular ones
                    npairs = 0
                    single = -1
                    for t in range(34):
                        npairs += st[t] // 2
                        if st[t] % 2 == 1:
                            single = t
                    if npairs == 6 and n_st == 13 and single >= 0 and not waits[single]:
                        waits[single] = True
                        wait_cnt += 1
            if wait_cnt > 0:
                _wait_shape(ft, wait_cnt, pk_kind, pk_code, pk_mel, nm, npk, win_code)
        apply_exclusions(ft, topo, excl, red_t, red_n, red_unless, off)
        has_wind = False
        for i in range(npg):
            if _is_wind(pg_code[i]):
                has_wind = True
        if has_wind and _winds_allowed(ft, excl):
            for i in range(npg):
                if _is_wind(pg_code[i]):
                    _wind_pung(pg_code[i], prevalent, seat, ft, excl, red_t, red_n, red_unless)
        # branch-free: zeros add nothing, and the OR is 0 only when every count is
        tot = 0
        nz = 0
        for f in range(N_FANS):
            v = ft[f]
            tot += v * points[f]
            nz |= v
        if nz == 0:
            ft[CHICKEN_HAND] = 1
            tot = points[CHICKEN_HAND]
        if nd == 1:
            # one division: no ordering to emulate
            if tot > best or (tot == best and special_seven_pairs):
                for f in range(N_FANS):
                    ft_best[f] = ft[f]
                return tot
            return best
        dtot[d] = tot
        dkeys[d] = dkey
        dpref[d] = ft[PURE_TRIPLE_CHOW] > 0 or ft[TRIPLE_PUNG] > 0
        for f in range(N_FANS):
            ftbuf[d, f] = ft[f]
    # the calculators meet the divisions in the order of their sorted sets and keep the
    # first highest total, except that a later equal reading with 一色三同顺 or 三同刻
    # (or any regular reading equal to seven pairs) replaces it
    done = sc[11]
    for d in range(nd):
        done[d] = 0
    sel = -1
    for _ in range(nd):
        k = -1
        for d in range(nd):
            if not done[d] and (k < 0 or dkeys[d] < dkeys[k]):
                k = d
        done[k] = True
        if dtot[k] > best or (dtot[k] == best and (dpref[k] or special_seven_pairs)):
            best = dtot[k]
            sel = k
    if sel >= 0:
        for f in range(N_FANS):
            ft_best[f] = ftbuf[sel, f]
    return best


# score_one inlined (Numba IR inlining) into the batch loop: one call site, and the call
# itself -- some 25 arguments, most of them arrays passed field by field -- cost about as
# much as a tenth of a hand. The waits kernel keeps the plain call (two call sites).
_score_one_inline = njit(inline="always", **_JIT)(score_one.py_func)


@njit(**_JIT)
def _new_work():
    return np.zeros((10, 34), dtype=np.int64)


@njit(**_JIT)
def _valid_row(counts, h, win, n_melds):
    """A row the kernel can score: winning tile held, counts 0..4, 14 tiles (melds as 3)."""
    if win < 0 or win >= 34 or counts[h, win] == 0:
        return False
    total = 0
    for t in range(34):
        if counts[h, t] > 4:
            return False
        total += counts[h, t]
    return total == 14 - 3 * n_melds


@njit(**_JIT)
def _score_range(lo, hi, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                 prof, suit_tab, out_fans, out_total):
    ints, points, topo, excl, red_t, red_n, red_unless, _col, _live, off = prof
    kong_combo = ints[I_KONG_COMBO] != 0
    heaven_no_waits = ints[I_HEAVEN] != 0
    divbuf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    work = _new_work()
    c = np.zeros(34, dtype=np.int64)
    ft = np.zeros(N_FANS, dtype=np.int64)
    ftw = np.zeros(N_FANS, dtype=np.int64)
    wfans = np.zeros((MAX_DIVISIONS, N_FANS), dtype=np.int64)
    dscr = np.zeros((4, 8), dtype=np.int64)  # decomposer scratch (new_scratch())
    sc = np.zeros((16, MAX_DIVISIONS), dtype=np.int64)
    for h in range(lo, hi):
        # the per-hand scalars as int64 whatever the batch's types (the wrapper passes the
        # batch's own small types: no int64 copies; small unsigned types left as they are
        # would make the scorer's index arithmetic mixed-sign, measurably slower)
        w = np.int64(win[h])
        nm = np.int64(n_melds[h])
        tot = -1
        ok = w >= 0 and w < 34
        total = 0
        for t in range(34):
            v = np.int64(counts[h, t])
            c[t] = v
            total += v
            if v > 4:
                ok = False
        if ok and c[w] > 0 and total == 14 - 3 * nm:
            # the best table is written straight into the output row
            tot = _score_one_inline(c, w, melds[h], nm, np.int64(flags[h]), np.int64(seat[h]),
                                    np.int64(prevalent[h]), points,
                            excl, off, topo, red_t, red_n, red_unless, kong_combo, heaven_no_waits,
                            out_fans[h], divbuf, work, ftw, wfans, dscr, sc, suit_tab)
        if tot < 0:
            out_total[h] = -1
            for f in range(N_FANS):
                out_fans[h, f] = 0
            continue
        nfl = np.int64(flowers[h])
        out_fans[h, FLOWER_TILES] = nfl
        out_total[h] = tot + nfl * points[FLOWER_TILES]


@njit(parallel=True, **_JIT)
def score_batch_kernel(counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                       prof, suit_tab, out_fans, out_total, chunk):
    """Score N complete hands, chunks in parallel. ``out_fans`` (N, 83) int16 (column
    81 = flowers), ``out_total`` (N,) int32 (flowers included; -1 = not complete or not
    a valid row)."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        _score_range(lo, hi, counts, win, melds, n_melds, flowers, flags, seat, prevalent,
                     prof, suit_tab, out_fans, out_total)


@njit(**_JIT)
def _waits_range(lo, hi, counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                 has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s, live):
    """Every winning tile of N ready hands (13 concealed-equivalent tiles, no winning tile).

    For each tile that completes the hand (and of which the player does not already hold
    all four): the total on a discard win and on a self-draw (flowers included), whether
    each is legal (>= minimum without flowers), and the live count (4 - own copies -
    visible copies). With ``visible``, 和绝张 holds when the three other copies are visible
    (the visible tiles and the player's own melds).
    """
    ints, points, topo, excl, red_t, red_n, red_unless, _col, _live, off = prof
    kong_combo = ints[I_KONG_COMBO] != 0
    heaven_no_waits = ints[I_HEAVEN] != 0
    minimum = ints[I_MINIMUM]
    divbuf = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    work = _new_work()
    c = np.zeros(34, dtype=np.int64)
    own = np.zeros(34, dtype=np.int64)
    mc = np.zeros(34, dtype=np.int64)
    ft = np.zeros(N_FANS, dtype=np.int64)
    ftw = np.zeros(N_FANS, dtype=np.int64)
    wfans = np.zeros((MAX_DIVISIONS, N_FANS), dtype=np.int64)
    dscr = np.zeros((4, 8), dtype=np.int64)  # decomposer scratch (new_scratch())
    sc = np.zeros((16, MAX_DIVISIONS), dtype=np.int64)
    flower_pts = points[FLOWER_TILES]
    for h in range(lo, hi):
        for t in range(34):
            c[t] = counts[h, t]
            own[t] = counts[h, t]
            mc[t] = 0
        for j in range(n_melds[h]):
            kind = melds[h, j, 0]
            tile = melds[h, j, 1]
            if kind == 0:
                for d in range(3):
                    own[tile + d] += 1
                    mc[tile + d] += 1
            elif kind == 1:
                own[tile] += 3
                mc[tile] += 3
            else:
                own[tile] += 4
                mc[tile] += 4
        base = flags[h] & ~(F_SELF_DRAWN | F_FOURTH_TILE | F_KONG_REPLACEMENT | F_ROBBING_KONG)
        for t in range(34):
            wins[h, t] = False
            tot_d[h, t] = -1
            tot_s[h, t] = -1
            legal_d[h, t] = False
            legal_s[h, t] = False
            lv = 4 - own[t]
            if has_visible:
                lv -= visible[h, t]
            if lv < 0:
                lv = 0
            live[h, t] = lv
            if own[t] >= 4:
                continue
            fourth = 0
            if has_visible and visible[h, t] + mc[t] >= 3 and counts[h, t] == 0:
                fourth = F_FOURTH_TILE
            c[t] += 1
            fl_d = base | fourth | (flags[h] & F_ROBBING_KONG)
            td = score_one(c, t, melds[h], n_melds[h], fl_d, seat[h], prevalent[h], points,
                           excl, off, topo, red_t, red_n, red_unless, kong_combo, heaven_no_waits,
                           ft, divbuf, work, ftw, wfans, dscr, sc, suit_tab)
            if td >= 0:
                wins[h, t] = True
                tot_d[h, t] = td + flowers[h] * flower_pts
                legal_d[h, t] = td >= minimum
                fl_s = base | fourth | F_SELF_DRAWN | (flags[h] & F_KONG_REPLACEMENT)
                ts = score_one(c, t, melds[h], n_melds[h], fl_s, seat[h], prevalent[h], points,
                               excl, off, topo, red_t, red_n, red_unless, kong_combo,
                               heaven_no_waits, ft, divbuf, work, ftw, wfans, dscr, sc, suit_tab)
                tot_s[h, t] = ts + flowers[h] * flower_pts
                legal_s[h, t] = ts >= minimum
            c[t] -= 1


@njit(parallel=True, **_JIT)
def score_waits_kernel(counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                       has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s,
                       live, chunk):
    """Every winning tile of N ready hands (13 tiles, melds as 3), chunks in parallel.

    For each tile that completes the hand (and of which the player does not already hold
    all four): the total on a discard win and on a self-draw (flowers included), whether
    each is legal (>= minimum without flowers), and the live count (4 - own copies -
    visible copies). With ``visible``, 和绝张 holds when the three other copies are visible
    (the visible tiles and the player's own melds)."""
    n = counts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        lo = ci * chunk
        hi = min(n, lo + chunk)
        _waits_range(lo, hi, counts, melds, n_melds, flowers, flags, seat, prevalent, visible,
                     has_visible, prof, suit_tab, wins, tot_d, tot_s, legal_d, legal_s, live)
