"""MCR fan predicates, one place per fan, found by its TOML key.

Every fan of ``mjfast/rules/mcr.toml`` has a constant here named by its key in capitals
(``pure_shifted_chows`` -> ``PURE_SHIFTED_CHOWS`` = its id) and is decided by the
function that :data:`DECIDED_BY` names for the key (several fans of one family share a
function: the chow patterns, the pung patterns, the kongs, the whole-hand traits). The
hand scorer (:mod:`._mcr_hand`) calls these per division; the exclusions and values are
the rule profile's (:mod:`mjfast.rules._profile`), applied by :mod:`._exclude`.
Tile arithmetic follows the calculators' codes: ``suit * 16 + rank`` with suits
1 characters, 2 bamboo, 3 dots, 4 honors (so consecutive codes never cross suits).
"""
from __future__ import annotations

import numpy as np

from ._exclude import add_fan
from ._jit import kernel

from ..rules import MCR_KEYS

# integer division / modulo by constants only: no divide-by-zero checks needed

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


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _rank(code):
    return code & 15


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _numbered(code):
    s = code >> 4
    return s >= 1 and s <= 3


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _is_dragon(code):
    return code >= 0x45 and code <= 0x47


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _is_wind(code):
    return code >= 0x41 and code <= 0x44


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _wait_shape(ft, wait_cnt, pk_kind, pk_code, first, npk, win_code):
    """Edge / closed / single wait when the hand waited on exactly one tile. Looks at the
    concealed packs (indices first..npk-1; chows and the pair). Returns the fan written
    as an id set (``(lo, hi)``, :func:`._exclude.add_fan`)."""
    none = np.uint64(0)
    if ft[MELDED_HAND] > 0 or ft[FOUR_KONGS] > 0:
        return none, none
    if wait_cnt != 1:
        return none, none
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
        return add_fan(none, none, EDGE_WAIT, 1)
    elif pos & 2:
        ft[CLOSED_WAIT] = 1
        return add_fan(none, none, CLOSED_WAIT, 1)
    elif pos & 4:
        ft[SINGLE_WAIT] = 1
        return add_fan(none, none, SINGLE_WAIT, 1)
    return none, none


# ---------------------------------------------------------------------------------------
# chow and pung families
# ---------------------------------------------------------------------------------------
@kernel(error_model="numpy", nrt=False, forceinline=True)
def _shift1_unordered(a, b, c):
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    return hi - lo == 2 and a != b and b != c and a != c


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _four_chows_fan(t0, t1, t2, t3):
    if (t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3) or (t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3):
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 and t0 == t2 and t0 == t3:
        return QUADRUPLE_CHOW
    return 0


@kernel(error_model="numpy", nrt=False, forceinline=True)
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


@kernel(error_model="numpy", nrt=False, forceinline=True)
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


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _extra_chow_fan(a, b, c, x):
    f0 = _two_chows_fan(a, x)
    f1 = _two_chows_fan(b, x)
    f2 = _two_chows_fan(c, x)
    for want in (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS):
        if f0 == want or f1 == want or f2 == want:
            return want
    return 0


@kernel(error_model="numpy", nrt=False)
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


@kernel(error_model="numpy", nrt=False)
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


@kernel(error_model="numpy", nrt=False)
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


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _four_pungs_fan(t0, t1, t2, t3):
    if _numbered(t0) and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_PUNGS
    if t0 == 0x41 and t1 == 0x42 and t2 == 0x43 and t3 == 0x44:
        return BIG_FOUR_WINDS
    return 0


@kernel(error_model="numpy", nrt=False, forceinline=True)
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


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _two_pungs_fan(t0, t1):
    if _numbered(t0) and _numbered(t1):
        if (t0 & 15) == (t1 & 15):
            return DOUBLE_PUNG
    else:
        if _is_dragon(t0) and _is_dragon(t1):
            return TWO_DRAGONS_PUNGS
    return 0


@kernel(error_model="numpy", nrt=False)
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


@kernel(error_model="numpy", nrt=False)
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


@kernel(error_model="numpy", nrt=False)
def chow_family(m, k, ft, tmp):
    """The chow-family fans of the ``k`` chows whose middle codes ``m[0..k-1]`` are sorted
    (the three-suited / pure terminal chows, which need the pair, are not here)."""
    if k == 4:
        _four_chows(m, ft, tmp)
    elif k == 3:
        _three_chows(m, ft, tmp)
    elif k == 2:
        g = _two_chows_fan(m[0], m[1])
        if g != 0:
            ft[g] += 1


@kernel(error_model="numpy", nrt=False)
def pung_family(m, k, ft):
    """The pung-family fans of the ``k`` pungs (kongs included) whose codes ``m[0..k-1]``
    are sorted."""
    if k == 4:
        _four_pungs(m, ft)
    elif k == 3:
        _three_pungs(m, ft)
    elif k == 2:
        g = _two_pungs_fan(m[0], m[1])
        if g != 0:
            ft[g] += 1


def _kong_tree(mk, ck, cp, kong_combo, ft):
    """The kong / concealed-pung fans of ``mk`` melded kongs, ``ck`` concealed kongs and
    ``cp`` concealed pungs (the rules as the calculators apply them); run once per count
    triple to build :data:`KONG_FANS`."""
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


def _kong_fans_table():
    """``KONG_FANS[((mk * 5 + ck) * 5 + cp) * 2 + kong_combo]`` = [n, fan ids...]: the
    fans :func:`_kong_tree` sets for those counts."""
    table = np.zeros((5 * 5 * 5 * 2, 4), dtype=np.int64)
    for mk in range(5):
        for ck in range(5 - mk):
            for cp in range(5 - mk - ck):
                for combo in (0, 1):
                    ft = np.zeros(N_FANS, dtype=np.int64)
                    _kong_tree(mk, ck, cp, combo, ft)
                    ids = np.flatnonzero(ft)
                    assert len(ids) <= 3 and (ft[ids] == 1).all()
                    row = table[((mk * 5 + ck) * 5 + cp) * 2 + combo]
                    row[0] = len(ids)
                    row[1:1 + len(ids)] = ids
    return table


KONG_FANS = _kong_fans_table()
# KONG_BITS[i] = the fans of KONG_FANS[i] as an id set (two words, :func:`._exclude.add_fan`)
KONG_BITS = np.zeros((KONG_FANS.shape[0], 2), dtype=np.uint64)
for _i, _row in enumerate(KONG_FANS):
    for _f in _row[1:1 + _row[0]]:
        KONG_BITS[_i, _f >> 6] |= np.uint64(1 << (int(_f) & 63))


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _kongs(codes, kinds, melded, n, ft, kong_combo, prevalent, seat):
    """Kong / concealed-pung counts and the per-pung fans (箭刻, 幺九刻, 圈风刻, 门风刻): the
    counts' fans looked up in :data:`KONG_FANS`, every write unconditional (0 or 1 where a
    fan may not hold; no branch on which pungs a hand has)."""
    mk = 0
    ck = 0
    cp = 0
    dragons = 0
    terminals = 0
    prevalent_pung = 0
    seat_pung = 0
    for i in range(n):
        kong = np.int64(kinds[i] == P_KONG)
        mel = np.int64(melded[i] != 0)
        mk += kong & mel
        ck += kong & (1 - mel)
        cp += (1 - kong) & (1 - mel)
        code = codes[i]
        dragons += DRAGON_CODE[code]
        terminals += TERMINAL_OR_WIND_CODE[code]
        # a wind pung: its wind is code - 0x41 (any other code is outside 0..3)
        prevalent_pung |= np.int64(code - 0x41 == prevalent)
        seat_pung |= np.int64(code - 0x41 == seat)
    k = ((mk * 5 + ck) * 5 + cp) * 2 + (1 if kong_combo else 0)
    row = KONG_FANS[k]
    for j in range(3):
        # the row's unused slots name fan 0 (no fan): or-ing 0 into it changes nothing
        ft[row[1 + j]] |= np.int64(j < row[0])
    lo = KONG_BITS[k, 0]
    hi = KONG_BITS[k, 1]
    all_pungs = (np.int64(n == 4) & np.int64(ft[FOUR_KONGS] == 0)
                 & np.int64(ft[FOUR_CONCEALED_PUNGS] == 0))
    ft[ALL_PUNGS] |= all_pungs
    ft[DRAGON_PUNG] += dragons
    ft[PUNG_OF_TERMINALS_OR_HONORS] += terminals
    ft[PREVALENT_WIND] |= prevalent_pung
    ft[SEAT_WIND] |= seat_pung
    lo, hi = add_fan(lo, hi, ALL_PUNGS, all_pungs)
    lo, hi = add_fan(lo, hi, DRAGON_PUNG, dragons)
    lo, hi = add_fan(lo, hi, PUNG_OF_TERMINALS_OR_HONORS, terminals)
    lo, hi = add_fan(lo, hi, PREVALENT_WIND, prevalent_pung)
    return add_fan(lo, hi, SEAT_WIND, seat_pung)


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


# per pung code (the calculators' codes, < 0x50), from the tiles' trait bits above: 1 for a
# dragon (箭刻, _kongs), 1 for a terminal or a wind (幺九刻)
DRAGON_CODE = np.zeros(0x50, dtype=np.int64)
TERMINAL_OR_WIND_CODE = np.zeros(0x50, dtype=np.int64)
DRAGON_CODE[REF_CODE] = (TILE_BITS & TB_DRAGON) != 0
TERMINAL_OR_WIND_CODE[REF_CODE] = (TILE_BITS & (TB_TERM | TB_WIND)) != 0

# rank bit of a suited tile (1 << rank), 0 for honors
RANK_BIT = np.zeros(34, dtype=np.int64)
for _t in range(27):
    RANK_BIT[_t] = 1 << (_t % 9 + 1)

# the fans _hand_traits can set
TRAIT_FANS = np.array([NO_HONORS, ONE_VOIDED_SUIT, HALF_FLUSH, FULL_FLUSH, ALL_TYPES, ALL_SIMPLES,
                       REVERSIBLE_TILES, ALL_GREEN, ALL_HONORS, ALL_TERMINALS,
                       ALL_TERMINALS_AND_HONORS, LOWER_FOUR, LOWER_TILES, UPPER_FOUR,
                       UPPER_TILES, MIDDLE_TILES, TILE_HOG], dtype=np.int64)


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _hand_traits(tc, n_kongs, ft):
    """One pass over the hand's tiles (kongs as 4): the suit fans (无字, 缺一门, 混一色,
    清一色, 五门齐), the tile-kind fans (断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九), the
    rank bands (大于五, 小于五, 全大, 全中, 全小) and 四归一: the one place these fans are
    decided, for the regular forms (once per hand), the seven pairs, the seven shifted
    pairs and the knitted straight (the exclusion graph then drops what a form excludes)."""
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
    # every fan written, 0 or 1 (no branch: whether a hand holds honors, a voided suit or
    # only small ranks is unpredictable); the callers' counts for these fans are 0
    h4 = np.int64((any_b & TB_HONOR) != 0)
    nh = 1 - h4
    # suits
    ft[NO_HONORS] = nh
    voids = (np.int64((any_b & TB_M) == 0) + np.int64((any_b & TB_S) == 0)
             + np.int64((any_b & TB_P) == 0))
    flush = np.int64(voids == 2)
    ft[ONE_VOIDED_SUIT] = voids * (1 - flush)        # (3 with honors only, as counted)
    ft[HALF_FLUSH] = flush & h4
    ft[FULL_FLUSH] = flush & nh
    five = TB_M | TB_S | TB_P | TB_WIND | TB_DRAGON
    ft[ALL_TYPES] = np.int64((any_b & five) == five)
    # tile kinds
    simples = np.int64((any_b & TB_TOH) == 0)
    ft[ALL_SIMPLES] = simples
    ft[REVERSIBLE_TILES] = np.int64((all_b & TB_REV) != 0)
    ft[ALL_GREEN] = np.int64((all_b & TB_GREEN) != 0)
    hon = np.int64((all_b & TB_HONOR) != 0)
    term = np.int64((all_b & TB_TERM) != 0)
    ns = 1 - simples
    ft[ALL_HONORS] = ns & hon
    ft[ALL_TERMINALS] = ns & (1 - hon) & term
    ft[ALL_TERMINALS_AND_HONORS] = ns & (1 - hon) & (1 - term) & np.int64((all_b & TB_TOH) != 0)
    # rank bands (suited tiles only)
    lower = np.int64((rank_flag & 0xFFE1) == 0)
    upper = np.int64((rank_flag & 0xFC3F) == 0) & (1 - lower)
    middle = np.int64((rank_flag & 0xFF8F) == 0) & (1 - lower) & (1 - upper)
    four = (rank_flag >> 4) & 1
    six = (rank_flag >> 6) & 1
    ft[LOWER_FOUR] = nh & lower & four
    ft[LOWER_TILES] = nh & lower & (1 - four)
    ft[UPPER_FOUR] = nh & upper & six
    ft[UPPER_TILES] = nh & upper & (1 - six)
    ft[MIDDLE_TILES] = nh & middle
    ft[TILE_HOG] = fours - n_kongs


def _pack_traits_table():
    """``PACK_TRAITS[chow, code]``: what a pack adds to the outside / all-five / all-even
    counts, one byte each (terminal 1, five ``1 << 8``, even ``1 << 16``, honor
    ``1 << 24``): a chow (code = its middle tile) holds a terminal at 2 or 8 and a five at
    4-6; a pung, kong or pair of rank 1 / 9 a terminal, of 5 a five, of 2, 4, 6, 8 an even
    rank; any honor pack an honor."""
    t = np.zeros((2, 0x50), dtype=np.int64)
    for chow in (0, 1):
        for code in range(0x50):
            s, r = code >> 4, code & 15
            if 1 <= s <= 3:
                if chow:
                    v = 1 if r in (2, 8) else (1 << 8) if r in (4, 5, 6) else 0
                else:
                    v = (1 if r in (1, 9) else (1 << 8) if r == 5
                         else (1 << 16) if r in (2, 4, 6, 8) else 0)
            else:
                v = 1 << 24
            t[chow, code] = v
    return t


PACK_TRAITS = _pack_traits_table()


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _by_packs_traits(acc, ft):
    """全带幺 / 全带五 / 全双刻 from ``acc``, the sum of ``PACK_TRAITS[chow, code]`` over
    the packs (summed where the packs are built: no branch per pack, and no second loop
    reading back the packs just written). Returns the fan written as an id set (``(lo,
    hi)``, :func:`._exclude.add_fan`)."""
    none = np.uint64(0)
    if (acc & 255) + (acc >> 24) == 5:
        ft[OUTSIDE_HAND] = 1
        return add_fan(none, none, OUTSIDE_HAND, 1)
    if (acc >> 8) & 255 == 5:
        ft[ALL_FIVE] = 1
        return add_fan(none, none, ALL_FIVE, 1)
    if (acc >> 16) & 255 == 5:
        ft[ALL_EVEN_PUNGS] = 1
        return add_fan(none, none, ALL_EVEN_PUNGS, 1)
    return none, none


@kernel(error_model="numpy", nrt=False, forceinline=True)
def _by_win_flag(wf, ft):
    """The fans of the winning flags ``wf`` (W_*). Returns them as an id set (``(lo,
    hi)``, :func:`._exclude.add_fan`)."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    if wf & W_4TH:
        ft[LAST_TILE] = 1
        lo, hi = add_fan(lo, hi, LAST_TILE, 1)
    if wf & W_LAST:
        if wf & W_SELF:
            ft[LAST_TILE_DRAW] = 1
            lo, hi = add_fan(lo, hi, LAST_TILE_DRAW, 1)
        else:
            ft[LAST_TILE_CLAIM] = 1
            lo, hi = add_fan(lo, hi, LAST_TILE_CLAIM, 1)
    if wf & W_KONG:
        if wf & W_SELF:
            ft[OUT_WITH_REPLACEMENT_TILE] = 1
            lo, hi = add_fan(lo, hi, OUT_WITH_REPLACEMENT_TILE, 1)
        else:
            ft[ROBBING_THE_KONG] = 1
            lo, hi = add_fan(lo, hi, ROBBING_THE_KONG, 1)
    if wf & W_SELF:
        ft[SELF_DRAWN_FAN] = 1
        lo, hi = add_fan(lo, hi, SELF_DRAWN_FAN, 1)
    return lo, hi


@kernel(error_model="numpy", nrt=False)
def _total(ft, points):
    # branch-free (max, not a test): the loop vectorises; 32-bit products (total_of)
    s = 0
    for f in range(N_FANS):
        s += np.int64(np.int32(max(ft[f], 0))) * np.int64(np.int32(points[f]))
    return s


@kernel(error_model="numpy", nrt=False, forceinline=True)
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


# the fans whose constant above is not exactly their key in capitals:
# greater_honors_and_knitted_tiles = GREATER_HONORS_KNITTED, lesser_... = LESSER_HONORS_KNITTED,
# self_drawn = SELF_DRAWN_FAN (SELF_DRAWN is the situation flag bit of mjfast.hand)

DECIDED_BY = {
    # key: the function that decides the fan (in this module, or score_one in
    # _mcr_hand for the winning forms, the pair and the concealment)
    "big_four_winds": "_four_pungs_fan",
    "big_three_dragons": "_three_pungs_fan",
    "all_green": "_hand_traits",
    "nine_gates": "_nine_gates",
    "four_kongs": "_kongs",
    "seven_shifted_pairs": "score_one (seven pairs forms)",
    "thirteen_orphans": "score_one (special forms)",
    "all_terminals": "_hand_traits",
    "little_four_winds": "score_one (the pair: _three_pungs + a wind pair)",
    "little_three_dragons": "score_one (the pair: _two_pungs_fan + a dragon pair)",
    "all_honors": "_hand_traits",
    "four_concealed_pungs": "_kongs",
    "pure_terminal_chows": "score_one (four chows + a 5 pair)",
    "quadruple_chow": "_four_chows_fan",
    "four_pure_shifted_pungs": "_four_pungs_fan",
    "four_pure_shifted_chows": "_four_chows_fan",
    "three_kongs": "_kongs",
    "all_terminals_and_honors": "_hand_traits",
    "seven_pairs": "score_one (seven pairs forms)",
    "greater_honors_and_knitted_tiles": "score_one (honors-and-knitted form)",
    "all_even_pungs": "_by_packs_traits",
    "full_flush": "_hand_traits",
    "pure_triple_chow": "_three_chows_fan",
    "pure_shifted_pungs": "_three_pungs_fan",
    "upper_tiles": "_hand_traits",
    "middle_tiles": "_hand_traits",
    "lower_tiles": "_hand_traits",
    "pure_straight": "_three_chows_fan",
    "three_suited_terminal_chows": "score_one (four chows + a 5 pair)",
    "pure_shifted_chows": "_three_chows_fan",
    "all_five": "_by_packs_traits",
    "triple_pung": "_three_pungs_fan",
    "three_concealed_pungs": "_kongs",
    "lesser_honors_and_knitted_tiles": "score_one (honors-and-knitted form)",
    "knitted_straight": "score_one (knitted-straight form)",
    "upper_four": "_hand_traits",
    "lower_four": "_hand_traits",
    "big_three_winds": "_three_pungs_fan",
    "mixed_straight": "_three_chows_fan",
    "reversible_tiles": "_hand_traits",
    "mixed_triple_chow": "_three_chows_fan",
    "mixed_shifted_pungs": "_three_pungs_fan",
    "chicken_hand": "score_one (no other fan counts)",
    "last_tile_draw": "_by_win_flag",
    "last_tile_claim": "_by_win_flag",
    "out_with_replacement_tile": "_by_win_flag",
    "robbing_the_kong": "_by_win_flag",
    "all_pungs": "_kongs",
    "half_flush": "_hand_traits",
    "mixed_shifted_chows": "_three_chows_fan",
    "all_types": "_hand_traits",
    "melded_hand": "score_one (concealment)",
    "two_concealed_kongs": "_kongs",
    "two_dragons_pungs": "_two_pungs_fan",
    "outside_hand": "_by_packs_traits",
    "fully_concealed_hand": "score_one (concealment)",
    "two_melded_kongs": "_kongs",
    "last_tile": "_by_win_flag",
    "dragon_pung": "_kongs",
    "prevalent_wind": "_kongs",
    "seat_wind": "_kongs",
    "concealed_hand": "score_one (concealment)",
    "all_chows": "score_one (four chows, no honor pair)",
    "tile_hog": "_hand_traits",
    "double_pung": "_two_pungs_fan",
    "two_concealed_pungs": "_kongs",
    "concealed_kong": "_kongs",
    "all_simples": "_hand_traits",
    "pure_double_chow": "_two_chows_fan / _account_once",
    "mixed_double_chow": "_two_chows_fan / _account_once",
    "short_straight": "_two_chows_fan / _account_once",
    "two_terminal_chows": "_two_chows_fan / _account_once",
    "pung_of_terminals_or_honors": "_kongs",
    "melded_kong": "_kongs",
    "one_voided_suit": "_hand_traits",
    "no_honors": "_hand_traits",
    "edge_wait": "_wait_shape",
    "closed_wait": "_wait_shape",
    "single_wait": "_wait_shape",
    "self_drawn": "_by_win_flag",
    "flower_tiles": "the drivers (the flower count)",
    "concealed_kong_and_melded_kong": "_kongs",
}
"""Where each fan of mcr.toml is decided, by its key (a reader's index, tested)."""
