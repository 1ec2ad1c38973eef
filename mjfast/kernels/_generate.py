"""Numba kernel: random complete / ready hands, counter-based (one stream per hand).

Hand ``i`` of seed ``s`` draws from its own splitmix64 stream started at
``mix(mix(s) + (i + 1) * STREAM_STEP)``; no generator state is shared between hands,
so a batch is the same whatever the chunking or the thread count, and any row can be
rebuilt alone. The mix of forms, pools, patterns, melds and situations is data: the
``p`` (float64) and ``q`` (int64) parameter vectors built by :mod:`mjfast._generate`
(indices ``P_*`` / ``Q_*`` below), documented in ``docs/generator.md``.

Outputs are the :class:`~mjfast.hand.HandBatch` arrays (rows ``start..stop-1`` filled).
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel

# ---- float parameters (p) --------------------------------------------------------------
P_SEVEN_PAIRS = 0           # probability of each special form (0 where the rules lack it)
P_ORPHANS = 1
P_HONORS_KNITTED = 2
P_KNITTED_STRAIGHT = 3
P_NINE_GATES = 4            # a regular hand in the nine-gates shape
P_SEVEN_PAIRS_TRIPLET = 5
P_PATTERN = 6               # a regular hand starts from a fan pattern of 2-4 sets
P_KONG = 7                  # a pung of a regular hand is a kong
P_SELF_DRAWN = 8
P_FOURTH_TILE = 9
P_LAST_TILE = 10
P_KONG_WIN = 11             # kong replacement (self-drawn, needs a kong) / robbing a kong
P_ORIGINAL_READY = 12       # only for a hand without claimed melds
P_FIRST_TURN = 13           # only for a hand without melds
P_FLOWERS = 14              # probability of a non-zero flower count
P_TABLE_DISCARDS = 15       # probability that table_discards is given
P_SHIFTED_PAIRS = 16        # a seven-pairs hand is seven shifted pairs
N_P = 17

# the hand's form (the first six are the indices of their probabilities in p)
G_SEVEN_PAIRS = 0
G_ORPHANS = 1
G_HONORS_KNITTED = 2
G_KNITTED_STRAIGHT = 3
G_NINE_GATES = 4
G_SEVEN_PAIRS_TRIPLET = 5
G_REGULAR = 6

# ---- integer parameters (q) -------------------------------------------------------------
Q_SETS = 0                  # sets of a regular hand (4 or 5)
Q_PLAYERS = 1
Q_CHOW_CLAIM = 2            # 1 when chows may be claimed
Q_FLOWER_MAX = 3            # flower count drawn in 1..max (0: no flowers)
Q_STREAK_MAX = 4
Q_TABLE_DISCARDS_MAX = 5
Q_READY = 6                 # 1: ready hands (the complete hand less its winning tile)
Q_MELDS = 7                 # melds of a regular hand: -1 random (0..sets), else fixed
N_Q = 8

# HandBatch bits: defined once, in mjfast/hand.py (the hand layer is below the kernels)
from ..hand import FIRST_TURN as F_FIRST_TURN  # noqa: E402
from ..hand import FOURTH_TILE as F_FOURTH_TILE  # noqa: E402
from ..hand import KONG_REPLACEMENT as F_KONG_REPLACEMENT  # noqa: E402
from ..hand import LAST_TILE as F_LAST_TILE  # noqa: E402
from ..hand import MELD_ADDED as M_ADDED  # noqa: E402
from ..hand import MELD_CONCEALED as M_CONCEALED  # noqa: E402
from ..hand import ORIGINAL_READY as F_ORIGINAL_READY  # noqa: E402
from ..hand import ROBBING_KONG as F_ROBBING_KONG  # noqa: E402
from ..hand import SELF_DRAWN as F_SELF_DRAWN  # noqa: E402

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STREAM_STEP = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0
_ONE = np.uint64(1)

TERMS = np.array([0, 8, 9, 17, 18, 26], dtype=np.int64)
GREEN = np.array([19, 20, 21, 23, 25, 32], dtype=np.int64)
REVERSIBLE = np.array([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33], dtype=np.int64)
BANDS = np.array([[0, 3], [0, 4], [5, 9], [6, 9], [3, 6]], dtype=np.int64)
N_POOLS = 16


@kernel(nrt=False)
def mix64(z):
    """splitmix64's finaliser (a bijection of uint64)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel(nrt=False)
def stream_start(seed, index):
    """The first state of hand ``index``'s stream for ``seed`` (both uint64)."""
    return mix64(mix64(seed) + (index + _ONE) * _STREAM_STEP)


@kernel(nrt=False)
def _next(st):
    st[0] += _GOLDEN
    return mix64(st[0])


@kernel(nrt=False)
def _rand(st):
    """Uniform float in [0, 1)."""
    return float(_next(st) >> _S11) * _INV53


@kernel(nrt=False)
def _randint(st, lo, hi):
    """Uniform int in [lo, hi)."""
    return lo + int(_rand(st) * (hi - lo))


@kernel(nrt=False)
def _shuffle(st, a, n):
    for i in range(n - 1, 0, -1):
        j = _randint(st, 0, i + 1)
        a[i], a[j] = a[j], a[i]


@kernel(nrt=False)
def _pick_suit(st, kinds):
    """A suit (0..2) the tile set has, or -1."""
    n = 0
    for s in range(3):
        if kinds[s * 9]:
            n += 1
    if n == 0:
        return -1
    k = _randint(st, 0, n)
    for s in range(3):
        if kinds[s * 9]:
            if k == 0:
                return s
            k -= 1
    return -1


@kernel(nrt=False)
def _pool(st, kinds, pool, pool_list):
    """Fill ``pool`` (bool[34]) with one of the N_POOLS tile pools, cut to the tile set
    (the whole tile set when the cut is empty), and ``pool_list`` with its tiles.
    Returns the pool's size."""
    for t in range(34):
        pool[t] = False
    k = _randint(st, 0, N_POOLS)
    if k <= 3:
        for t in range(34):
            pool[t] = True
    elif k == 4 or k == 5 or k == 13:
        s = _pick_suit(st, kinds)
        if s >= 0:
            for t in range(s * 9, s * 9 + 9):
                pool[t] = True
        if k == 5:
            for t in range(27, 34):
                pool[t] = True
        elif k == 13:
            for t in range(27, 34):
                pool[t] = True
            if s >= 0:
                for t in range(s * 9, 27):
                    pool[t] = True
    elif k == 6:
        for t in TERMS:
            pool[t] = True
        for t in range(27, 34):
            pool[t] = True
    elif k == 7:
        for t in GREEN:
            pool[t] = True
    elif k == 8:
        for t in REVERSIBLE:
            pool[t] = True
    elif k == 9:
        b = _randint(st, 0, 5)
        for s in range(3):
            for r in range(BANDS[b, 0], BANDS[b, 1]):
                pool[s * 9 + r] = True
    elif k == 10:
        for s in range(3):
            for r in range(1, 9, 2):
                pool[s * 9 + r] = True
    elif k == 11:
        for t in range(27, 34):
            pool[t] = True
    elif k == 12:
        for t in TERMS:
            pool[t] = True
    elif k == 14:
        for s in range(3):
            for r in range(2, 7):
                pool[s * 9 + r] = True
    else:
        for t in range(27):
            pool[t] = True
    n = 0
    for t in range(34):
        pool[t] = pool[t] and kinds[t]
        if pool[t]:
            pool_list[n] = t
            n += 1
    if n == 0:
        for t in range(34):
            pool[t] = kinds[t]
            if pool[t]:
                pool_list[n] = t
                n += 1
    return n


@kernel(nrt=False)
def _pool_tile(st, pool_list, npool):
    return pool_list[_randint(st, 0, npool)]


@kernel(nrt=False)
def _random_set(st, pool, pool_list, npool, kinds, sk, stl, ns):
    """Append one set drawn from the pool: a chow through the drawn tile (kept when its
    tiles are in the pool, or with 15% when they are in the tile set) or its pung."""
    t = _pool_tile(st, pool_list, npool)
    if _rand(st) < 0.5 and t < 27:
        lo = t - _randint(st, 0, 3)
        if lo >= 0 and lo // 9 == t // 9 and lo % 9 <= 6 and kinds[lo] and kinds[lo + 1] and kinds[lo + 2]:
            if (pool[lo] and pool[lo + 1] and pool[lo + 2]) or _rand(st) < 0.15:
                sk[ns] = 0
                stl[ns] = lo
                return ns + 1
    sk[ns] = 1
    stl[ns] = t
    return ns + 1


@kernel(nrt=False)
def _pattern(st, kinds, sk, stl, suits, w):
    """0..4 sets forming a fan pattern (shifted / identical chows or pungs, straights,
    terminal chows, winds, dragons, short straights, same-rank pungs). Returns the number
    of sets, 0 when a tile falls outside the tile set."""
    for i in range(3):
        suits[i] = i
    _shuffle(st, suits, 3)
    k = _randint(st, 0, 12)
    ns = 0
    if k == 0:          # shifted / identical chows
        n = _randint(st, 2, 5)
        step = _randint(st, 0, 3)
        mixed = _rand(st) < 0.4 and n <= 3
        room = 7 - step * (n - 1)
        start = _randint(st, 0, room) if room > 0 else 0
        for i in range(n):
            sk[i] = 0
            stl[i] = (suits[i] if mixed else suits[0]) * 9 + start + step * i
        ns = n
    elif k == 1:        # shifted / identical pungs
        n = _randint(st, 2, 5)
        step = _randint(st, 0, 2)
        mixed = _rand(st) < 0.5 and n <= 3
        if not mixed and step == 0:
            step = 1
        start = _randint(st, 0, 9 - step * (n - 1))
        for i in range(n):
            sk[i] = 1
            stl[i] = (suits[i] if mixed else suits[0]) * 9 + start + step * i
        ns = n
    elif k == 2:        # straights
        mixed = _rand(st) < 0.5
        for i in range(3):
            sk[i] = 0
            stl[i] = (suits[i] if mixed else suits[0]) * 9 + 3 * i
        ns = 3
    elif k == 3:        # terminal chows
        two = _rand(st) < 0.5
        s0 = suits[0] * 9
        s1 = (suits[0] if two else suits[1]) * 9
        for i in range(4):
            sk[i] = 0
        stl[0] = s0
        stl[1] = s1 if two else s0 + 6
        stl[2] = s0 + 6 if two else s1
        stl[3] = s1 + 6
        ns = 4
    elif k == 4:        # winds
        for i in range(4):
            w[i] = 27 + i
        _shuffle(st, w, 4)
        n = _randint(st, 2, 5)
        for i in range(n):
            sk[i] = 1
            stl[i] = w[i]
        ns = n
    elif k == 5:        # dragons
        for i in range(3):
            w[i] = 31 + i
        _shuffle(st, w, 3)
        n = _randint(st, 1, 4)
        for i in range(n):
            sk[i] = 1
            stl[i] = w[i]
        ns = n
    elif k == 6:        # two terminal chows / short straight / mixed double chow
        s = suits[0] * 9
        v = _randint(st, 0, 3)
        sk[0] = 0
        sk[1] = 0
        if v == 0:
            stl[0] = s
            stl[1] = s + 6
        elif v == 1:
            stl[0] = s + 1
            stl[1] = s + 4
        else:
            stl[0] = s + 2
            stl[1] = suits[1] * 9 + 2
        ns = 2
    elif k == 7:        # same-rank pungs
        r = _randint(st, 0, 9)
        n = _randint(st, 2, 4)
        for i in range(n):
            sk[i] = 1
            stl[i] = suits[i] * 9 + r
        ns = n
    for i in range(ns):
        t = stl[i]
        if not kinds[t] or (sk[i] == 0 and not (kinds[t + 1] and kinds[t + 2])):
            return 0
    return ns


@kernel(nrt=False)
def _add_set(c, kind, t):
    if kind == 0:
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
    else:
        c[t] += 4 if kind == 2 else 3


@kernel(nrt=False)
def _knit(perm, out):
    """The 9 tiles of a knitted straight (suit perm[g] holds ranks g, g+3, g+6)."""
    k = 0
    for g in range(3):
        for j in range(3):
            out[k] = perm[g] * 9 + g + 3 * j
            k += 1


@kernel(nrt=False)
def _meld(st, melds, h, j, kind, t, p_concealed, p_added):
    """Write meld j of row h: a claimed chow / pung, or a kong (concealed / added / exposed)."""
    melds[h, j, 0] = kind
    melds[h, j, 1] = t
    melds[h, j, 2] = 0
    if kind == 0:
        melds[h, j, 3] = _randint(st, 1, 4)
    elif kind == 1:
        melds[h, j, 3] = _randint(st, 1, 4)
    else:
        v = _rand(st)
        if v < p_concealed:
            melds[h, j, 2] = M_CONCEALED
            melds[h, j, 3] = 0
        else:
            melds[h, j, 2] = M_ADDED if v < p_concealed + p_added else 0
            melds[h, j, 3] = _randint(st, 1, 4)


@kernel(nrt=False)
def _pick_form(st, p):
    """The hand's form (G_*), drawn once per hand: retries redraw tiles, not the form,
    so the shares are exactly the documented ones."""
    u = _rand(st)
    for g in range(6):
        if u < p[g]:
            return g
        u -= p[g]
    return G_REGULAR


@kernel(nrt=False)
def _one_hand(st, h, form, kinds, kind_list, nk, p, q, counts, melds, n_melds, allc, pool,
              pool_list, sk, stl, order, tmp):
    """Try to build row h's tiles once in ``form``; False when a fifth copy came out or a
    fixed meld count cannot be met (then the caller retries)."""
    for t in range(34):
        counts[h, t] = 0
        allc[t] = 0
    for j in range(5):
        melds[h, j, 0] = -1
        melds[h, j, 1] = 0
        melds[h, j, 2] = 0
        melds[h, j, 3] = 0
    n_melds[h] = 0
    sets = q[Q_SETS]
    if form == G_SEVEN_PAIRS:                                          # seven pairs (a four = two pairs)
        npool = _pool(st, kinds, pool, pool_list)
        s = _pick_suit(st, kinds)
        if _rand(st) < p[P_SHIFTED_PAIRS] and s >= 0:
            lo = s * 9 + _randint(st, 0, 3)
            for k in range(7):
                counts[h, lo + k] += 2
        else:
            for k in range(7):
                counts[h, _pool_tile(st, pool_list, npool)] += 2
    elif form == G_ORPHANS:                              # thirteen orphans
        for t in TERMS:
            counts[h, t] = 1
        for t in range(27, 34):
            counts[h, t] = 1
        k = _randint(st, 0, 13)
        counts[h, TERMS[k] if k < 6 else 27 + k - 6] += 1
    elif form == G_HONORS_KNITTED:                       # honors and knitted (14 of 16)
        for i in range(3):
            order[i] = i
        _shuffle(st, order, 3)
        _knit(order, tmp)
        for i in range(7):
            tmp[9 + i] = 27 + i
        m = 16 if _rand(st) < 0.8 else 9                 # drop 2 of the 16 / 2 suited
        _shuffle(st, tmp, m)
        for i in range(2, 16):
            counts[h, tmp[i]] += 1
    elif form == G_KNITTED_STRAIGHT:
        for i in range(3):                               # knitted straight + set + pair
            order[i] = i
        _shuffle(st, order, 3)
        _knit(order, tmp)
        for i in range(9):
            counts[h, tmp[i]] += 1
        npool = _pool(st, kinds, pool, pool_list)
        _random_set(st, pool, pool_list, npool, kinds, sk, stl, 0)
        kd = sk[0]
        if kd == 1 and _rand(st) < 0.15:
            kd = 2
        pair = _pool_tile(st, kind_list, nk)
        counts[h, pair] += 2
        if kd == 2 or _rand(st) < 0.4:
            _meld(st, melds, h, 0, kd, stl[0], 0.5, 0.25)
            n_melds[h] = 1
            _add_set(allc, kd, stl[0])
        else:
            for t in range(34):
                tmp[t] = 0
            _add_set(tmp, kd, stl[0])
            for t in range(34):
                counts[h, t] += tmp[t]
    elif form == G_NINE_GATES:                           # nine gates shape
        s = _pick_suit(st, kinds) * 9
        counts[h, s] = 3
        counts[h, s + 8] = 3
        for k in range(1, 8):
            counts[h, s + k] = 1
        counts[h, s + _randint(st, 0, 9)] += 1
    elif form == G_SEVEN_PAIRS_TRIPLET:                  # seven pairs + a triplet
        npool = _pool(st, kinds, pool, pool_list)
        for k in range(7):
            counts[h, _pool_tile(st, pool_list, npool)] += 2
        counts[h, _pool_tile(st, pool_list, npool)] += 3
    else:                                                # regular: sets + a pair
        npool = _pool(st, kinds, pool, pool_list)
        ns = _pattern(st, kinds, sk, stl, order, tmp) if _rand(st) < p[P_PATTERN] else 0
        while ns < sets:
            ns = _random_set(st, pool, pool_list, npool, kinds, sk, stl, ns)
        for i in range(ns):
            order[i] = i
        _shuffle(st, order, ns)
        pair = _pool_tile(st, pool_list, npool) if _rand(st) < 0.85 else _pool_tile(st, kind_list, nk)
        # kinds of the chosen sets; a pung may be a kong (a kong is always a meld)
        n_kongs = 0
        n_open = 0              # sets that may be claimed
        for i in range(sets):
            kd = sk[order[i]]
            if kd == 1 and _rand(st) < p[P_KONG]:
                kd = 2
            tmp[i] = kd
            if kd == 2:
                n_kongs += 1
            if kd != 0 or q[Q_CHOW_CLAIM] == 1:
                n_open += 1
        if q[Q_MELDS] >= 0:
            nm = q[Q_MELDS]
            if nm > n_open:
                return False
            for i in range(sets):            # kongs beyond the fixed count stay pungs
                if tmp[i] == 2 and n_kongs > nm:
                    tmp[i] = 1
                    n_kongs -= 1
        else:
            nm = _randint(st, 0, sets + 1)
            if nm > n_open:
                nm = n_open
            if nm < n_kongs:
                nm = n_kongs
        # melds first: kongs, then the claimable sets in their shuffled order
        j = 0
        for pas in range(2):
            for i in range(sets):
                kd = tmp[i]
                if j >= nm:
                    break
                if (pas == 0 and kd == 2) or (pas == 1 and kd != 2 and (kd == 1 or q[Q_CHOW_CLAIM] == 1)):
                    _meld(st, melds, h, j, kd, stl[order[i]], 0.4, 0.3)
                    _add_set(allc, kd, stl[order[i]])
                    tmp[i] = -1
                    j += 1
        n_melds[h] = j
        for i in range(sets):
            if tmp[i] >= 0:
                t = stl[order[i]]
                if tmp[i] == 0:
                    counts[h, t] += 1
                    counts[h, t + 1] += 1
                    counts[h, t + 2] += 1
                else:
                    counts[h, t] += 3
        counts[h, pair] += 2
    for t in range(34):
        allc[t] += counts[h, t]
        if allc[t] > 4:
            return False
    return True


@kernel
def generate_range(seed, start, stop, kinds, p, q, counts, winning_tile, melds, n_melds,
                   flowers, flags, seat, prevalent, dealer, discarder, streak,
                   table_discards):
    """Fill rows ``start..stop-1`` with hands ``start..stop-1`` of ``seed``.

    ``kinds`` bool[34] (the rule set's tiles), ``p`` float64[N_P], ``q`` int64[N_Q];
    the outputs are the HandBatch arrays."""
    st = np.zeros(1, dtype=np.uint64)
    allc = np.zeros(34, dtype=np.int64)
    pool = np.zeros(34, dtype=np.bool_)
    pool_list = np.zeros(34, dtype=np.int64)
    kind_list = np.zeros(34, dtype=np.int64)
    nk = 0
    for t in range(34):
        if kinds[t]:
            kind_list[nk] = t
            nk += 1
    sk = np.zeros(8, dtype=np.int64)
    stl = np.zeros(8, dtype=np.int64)
    order = np.zeros(8, dtype=np.int64)
    tmp = np.zeros(34, dtype=np.int64)
    _generate_rows(seed, start, stop, kinds, p, q, counts, winning_tile, melds, n_melds,
                   flowers, flags, seat, prevalent, dealer, discarder, streak, table_discards,
                   st, allc, pool, pool_list, kind_list, nk, sk, stl, order, tmp)


@kernel(nrt=False)
def _generate_rows(seed, start, stop, kinds, p, q, counts, winning_tile, melds, n_melds,
                   flowers, flags, seat, prevalent, dealer, discarder, streak, table_discards,
                   st, allc, pool, pool_list, kind_list, nk, sk, stl, order, tmp):
    """The row loop of :func:`generate_range` (scratch from the caller), compiled without
    reference counting: the helpers' array arguments cost no calls."""
    useed = np.uint64(seed)
    players = q[Q_PLAYERS]
    for h in range(start, stop):
        st[0] = stream_start(useed, np.uint64(h))
        form = _pick_form(st, p)
        while not _one_hand(st, h, form, kinds, kind_list, nk, p, q, counts, melds, n_melds, allc,
                            pool, pool_list, sk, stl, order, tmp):
            pass
        nm = n_melds[h]
        # the winning tile: a uniformly drawn concealed tile
        tot = 0
        for t in range(34):
            tot += counts[h, t]
        k = _randint(st, 0, tot)
        w = 0
        for t in range(34):
            if k < counts[h, t]:
                w = t
                break
            k -= counts[h, t]
        has_kong = False
        claimed = False
        for j in range(nm):
            if melds[h, j, 0] == 2:
                has_kong = True
            if not (melds[h, j, 0] == 2 and melds[h, j, 2] == M_CONCEALED):
                claimed = True
        # the situation
        s = _randint(st, 0, players)
        seat[h] = s
        prevalent[h] = _randint(st, 0, players)
        dealer[h] = _randint(st, 0, players)
        f = 0
        self_drawn = _rand(st) < p[P_SELF_DRAWN]
        kong_win = _rand(st) < p[P_KONG_WIN]
        if self_drawn:
            f |= F_SELF_DRAWN
            discarder[h] = -1
            if kong_win and has_kong:
                f |= F_KONG_REPLACEMENT
        else:
            discarder[h] = (s + _randint(st, 1, players)) % players if players > 2 else 1 - s
            if kong_win and allc[w] == 1:                # the robbed tile is the only copy held
                f |= F_ROBBING_KONG
        if _rand(st) < p[P_FOURTH_TILE]:
            f |= F_FOURTH_TILE
        if _rand(st) < p[P_LAST_TILE]:
            f |= F_LAST_TILE
        if _rand(st) < p[P_ORIGINAL_READY] and not claimed:
            f |= F_ORIGINAL_READY
        if _rand(st) < p[P_FIRST_TURN] and nm == 0:
            f |= F_FIRST_TURN
        fl = 0
        if q[Q_FLOWER_MAX] > 0 and _rand(st) < p[P_FLOWERS]:
            fl = _randint(st, 1, q[Q_FLOWER_MAX] + 1)
        flowers[h] = fl
        streak[h] = _randint(st, 0, q[Q_STREAK_MAX] + 1)
        td = -1
        if _rand(st) < p[P_TABLE_DISCARDS]:
            td = _randint(st, 0, q[Q_TABLE_DISCARDS_MAX] + 1)
        table_discards[h] = td
        if q[Q_READY] == 1:
            counts[h, w] -= 1
            winning_tile[h] = -1
            f &= ~(F_SELF_DRAWN | F_FOURTH_TILE | F_KONG_REPLACEMENT | F_ROBBING_KONG)
            discarder[h] = -1
        else:
            winning_tile[h] = w
        flags[h] = f


@kernel
def draw_range(seed, start, stop, kind_list, size, counts):
    """Rows ``start..stop-1``: ``size`` tiles drawn without replacement from the wall of
    ``kind_list`` (4 copies each), hand ``h`` from its own stream (as above)."""
    nk = kind_list.shape[0]
    wall = np.empty(4 * nk, dtype=np.int64)
    st = np.zeros(1, dtype=np.uint64)
    _draw_rows(seed, start, stop, kind_list, size, counts, wall, st)


@kernel(nrt=False)
def _draw_rows(seed, start, stop, kind_list, size, counts, wall, st):
    """The row loop of :func:`draw_range`, without reference counting."""
    nk = kind_list.shape[0]
    useed = np.uint64(seed)
    for h in range(start, stop):
        st[0] = stream_start(useed, np.uint64(h))
        for i in range(4 * nk):
            wall[i] = kind_list[i // 4]
        for t in range(34):
            counts[h, t] = 0
        for i in range(size):                       # partial Fisher-Yates
            j = _randint(st, i, 4 * nk)
            wall[i], wall[j] = wall[j], wall[i]
            counts[h, wall[i]] += 1
