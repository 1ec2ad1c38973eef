"""Shanten, per-form shanten and effective tiles (waits): the row functions, and the batch
kernels that loop over them.

**The row** (one hand; every compiled caller uses these: the batch kernels below, the
bots' discard evaluation, the simulator). A hand is four *parts* (characters, dots,
bamboo: 9 ranks; honors: 7 kinds), each given by the base-5 code of its counts
(``codes`` int64[4], :func:`hand_codes`). ``m`` is the number of sets the hand still
needs: ``(n - 1) // 3`` for a waiting hand of ``n`` tiles (``n % 3 == 1``), ``(n - 2) // 3``
for a complete-size one. The rule set enters as three integers: ``fm`` the form mask
(``sum(1 << f)`` over its forms), ``max_sets`` its sets (4; Taiwan 5), ``two`` 1 for the
two-player tile set (characters and honors only), else 0.

::

    total = hand_codes(c, codes)             # c: int64[34] counts -> codes, tile count
    load_parts(codes, two, tab, P)           # P int64[8]: each part's class, AUX word
    d = hand_forms(P, m, fm, max_sets, two, vec, ct, FD, mode)  # distance = shanten + 1
    eff = hand_waits(codes, P, m, d, FD, fm, max_sets, two, tab, vec, ct, opt, R)
    s = shanten_row(codes, m, fm, max_sets, two, tab, vec, ct, P, FD, mode)
    s, eff = waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, P, FD, R)
    s = hand_shanten(c, I, fm, max_sets, two, tab, vec, ct, P, FD)  # from counts
    k = discard_options(c, vis, fm, max_sets, two, tab, vec, ct, opt, P, FD, R, I,
                        cand, emask)         # every discard of a complete-size hand

``tab, vec, ct, opt`` are the tables of :mod:`._shanten_tables` (``shanten_tables()``);
``P``, ``FD`` (int64[8]), ``R`` (int64[64]) and ``I`` (int64[8]) are scratch, one set per
thread. ``FD[f]`` receives the distance of form ``f`` (``INF`` where the form is not open
to the hand); ``mode`` says how exactly: :data:`MODE_EXACT` every form,
:data:`MODE_MIN` only the minimum (a knitted permutation that cannot go below the best so
far is skipped), :data:`MODE_TIES` the minimum and every form that reaches it (what the
waits need). ``eff`` is a bit mask of the effective tiles (bit ``t`` = tile ``t``): the
tiles whose draw lowers the shanten of a waiting hand.

How: the regular form is the min-plus combination of the four parts' distance vectors;
the vectors (and their combinations) fall into 329 classes, so the combination is three
lookups in the class table ``ct`` (``vec`` gives a class's distances). The waits take,
for each part, the class of the three others and read the optimal splits from ``opt``
(``docs/shanten.md``). Seven pairs and thirteen orphans come from the parts' AUX words
added; the knitted forms from their knitted fields.

**The batch kernels** :func:`shanten_batch` and :func:`waits_batch` loop over the rows of
an (N, 34) uint8 count array: each row is validated and its codes computed a few rows
ahead of its evaluation (and its table rows prefetched), then evaluated by the row
functions. They stop at the first invalid row (rows in order) and return ``(row,
reason)``; ``(-1, 0)`` means every row was fine.
"""
from __future__ import annotations

import numpy as np

from ._jit import DISABLED, kernel
from ._shanten_tables import (AUX_KNIT_SHIFT, AUX_ORPHAN_PAIR_SHIFT, AUX_ORPHAN_SHIFT,
                              CLASS_DISABLED, HONOR_BASE, get_tables)

from ..rules.registry import (FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT, FORM_REGULAR,  # noqa: F401
                              FORM_SEVEN_PAIRS, FORM_SEVEN_PAIRS_TRIPLET,
                              FORM_THIRTEEN_ORPHANS)
N_FORMS = 6

NO_FORM = 127
INF = 60

BAD_COUNT = 1       # a count above 4
BAD_TOTAL = 2       # a tile total no hand of the rule set has
BAD_TILE = 3        # a tile outside the rule set
BAD_WAIT_TOTAL = 4  # waits need a waiting (3m + 1 tiles) hand

MODE_EXACT = 0      # every form's distance in FD
MODE_MIN = 1        # the minimum only
MODE_TIES = 2       # the minimum and every form that reaches it

# discard_options rows
D_TILE, D_SHANTEN, D_LIVE = 0, 1, 2

from ._decompose import KNITTED_PERMS as PERMS  # noqa: E402  (one definition)
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
PW5 = np.array([1, 5, 25, 125, 625, 3125, 15625, 78125, 390625], dtype=np.int64)

# seven pairs class moves: for a rank held c times, pairs gained / "one tile from a pair"
_PC = np.array([0, 0, 1, 1, 2], dtype=np.int64)
_AC = np.array([0, 1, 0, 1, 0], dtype=np.int64)
_TRIP = np.array([3, 2, 1, 0, 0], dtype=np.int64)

SP_BITS = (1 << FORM_SEVEN_PAIRS) | (1 << FORM_SEVEN_PAIRS_TRIPLET) | (1 << FORM_THIRTEEN_ORPHANS)
KN_BITS = (1 << FORM_HONORS_KNITTED) | (1 << FORM_KNITTED_STRAIGHT)


def _knit_masks():
    out = np.zeros(6, dtype=np.int64)
    for p in range(6):
        bits = 0
        for s in range(3):
            g = int(PERMS[p, s])
            for j in range(3):
                bits |= 1 << (9 * s + g + 3 * j)
        out[p] = bits
    return out


KNIT_MASKS = _knit_masks()                        # the tiles of each knitted straight
HONOR_BITS = ((1 << 7) - 1) << 27
ORPHAN_BITS = sum(1 << int(t) for t in ORPHANS)
TWO_PLAYER_BITS = ((1 << 9) - 1) | (((1 << 7) - 1) << 27)
EXPAND = np.array([[(b >> q) & 1 for q in range(8)] for b in range(256)], dtype=np.uint8)

AHEAD = 8           # batch kernels: rows validated (and prefetched) ahead of evaluation
RING = 16           # codes kept for the rows in between (a power of two > AHEAD)


def shanten_tables():
    """The tables the row functions read: ``(tab, vec, ct, opt)`` (generated or loaded
    on first use, then shared)."""
    t = get_tables()
    return t["tab"], t["vec"], t["ct"], t["opt"]


def row_scratch():
    """Scratch for the row functions (one per thread): ``(P, FD, R, I)``."""
    return (np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(64, np.int64),
            np.zeros(8, np.int64))


# ---------------------------------------------------------------------------------
# prefetch (a hint: no effect on results; nothing without the JIT)
# ---------------------------------------------------------------------------------
def prefetch(arr, i):
    """Ask the CPU to bring row ``i`` of the 2-D array ``arr`` into the cache."""


if not DISABLED:
    import llvmlite.ir as _ir
    from numba import types as _types
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic, overload as _overload

    @_intrinsic
    def _prefetch_row(typingctx, arr, i):
        if not isinstance(arr, _types.Array):
            return None
        sig = _types.void(arr, i)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            idx = context.cast(builder, args[1], signature.args[1], _types.intp)
            stride = _cgutils.unpack_tuple(builder, ary.strides)[0]
            addr = builder.add(builder.ptrtoint(ary.data, _cgutils.intp_t),
                               builder.mul(idx, stride))
            i8p = _ir.IntType(8).as_pointer()
            i32 = _ir.IntType(32)
            fnty = _ir.FunctionType(_ir.VoidType(), [i8p, i32, i32, i32])
            fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [builder.inttoptr(addr, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()
        return sig, codegen

    @_overload(prefetch, inline="always")
    def _prefetch_impl(arr, i):
        if isinstance(arr, _types.Array):
            return lambda arr, i: _prefetch_row(arr, i)


# ---------------------------------------------------------------------------------
# small pieces
# ---------------------------------------------------------------------------------
@kernel(inline="always")
def _pairs_dist(n1, n2, n3, n4):
    """Seven pairs (a held four = two pairs): fewest tiles to add."""
    P = n2 + n3 + 2 * n4
    A = n1 + n3
    r = 7 - P
    if r <= 0:
        return 0
    if r <= A:
        return r
    return A + 2 * (r - A)


@kernel(inline="always")
def _pairs_triplet_dist(n0, n1, n2, n3, n4):
    """Taiwan seven pairs + a triplet: the triplet on a rank held c times, pairs elsewhere."""
    P = n2 + n3 + 2 * n4
    A = n1 + n3
    best = INF
    for cc in range(5):
        have = n0
        if cc == 1:
            have = n1
        elif cc == 2:
            have = n2
        elif cc == 3:
            have = n3
        elif cc == 4:
            have = n4
        if have <= 0:
            continue
        r = 7 - (P - _PC[cc])
        a = A - _AC[cc]
        if r <= 0:
            d = 0
        elif r <= a:
            d = r
        else:
            d = a + 2 * (r - a)
        d += _TRIP[cc]
        if d < best:
            best = d
    return best


@kernel(inline="always")
def _special_pairs_dist(form, n0, n1, n2, n3, n4):
    if form == FORM_SEVEN_PAIRS:
        return _pairs_dist(n1, n2, n3, n4)
    return _pairs_triplet_dist(n0, n1, n2, n3, n4)


@kernel(inline="always")
def _field(w, k):
    """Distance field ``k = 2j + p`` of a packed vector."""
    return (w >> (5 * k)) & 31


@kernel(inline="always")
def _knit_field(aux, g):
    """Knitted group ``g``'s 9-bit field of a suit's AUX word."""
    return (aux >> (AUX_KNIT_SHIFT + 9 * g)) & 511


@kernel(inline="always")
def _mask_field(tab, r, k):
    """The ranks lowering field ``k`` of the part whose ``tab`` row is ``r`` (9 bits)."""
    if k < 6:
        return (tab[r, 2] >> (9 * k)) & 511
    return (tab[r, 3] >> (9 * (k - 6))) & 511


@kernel(inline="always")
def _sets_needed(total, max_sets, hand_size):
    """Sets still needed, or -1 when no hand of the rule set has this many tiles."""
    if total < 1 or total > hand_size + 1:
        return -1
    r = total % 3
    if r == 0:
        return -1
    m = (total - 1) // 3 if r == 1 else (total - 2) // 3
    if m > max_sets:
        return -1
    return m


# ---------------------------------------------------------------------------------
# the row
# ---------------------------------------------------------------------------------
@kernel
def hand_codes(c, codes):
    """Base-5 codes of the four parts of ``c`` (34 counts, int64) into ``codes[0..3]``;
    returns the tile count."""
    total = 0
    for s in range(4):
        nd = 9 if s < 3 else 7
        code = 0
        for i in range(nd - 1, -1, -1):
            x = c[9 * s + i]
            code = code * 5 + x
            total += x
        codes[s] = code
    return total


@kernel(inline="always")
def load_parts(codes, two, tab, P):
    """``P[s]`` = the class of part ``s``, ``P[4 + s]`` its AUX word (two-player: the dots
    and bamboo are the disabled part)."""
    for s in range(4):
        if two and (s == 1 or s == 2):
            P[s] = CLASS_DISABLED
            P[4 + s] = 0
        else:
            r = codes[s] + (HONOR_BASE if s == 3 else 0)
            P[s] = tab[r, 0]
            P[4 + s] = tab[r, 1]


@kernel
def _knitted(P, no_melds, fm, vec, FD, best, mode):
    """The knitted forms (MCR): ``FD`` at honors-and-knitted and the knitted straight;
    returns the new minimum. In MODE_MIN / MODE_TIES a permutation whose knitted tiles
    alone keep it above (at or above, MODE_MIN) the best so far is skipped."""
    hv = vec[P[3]]
    h01 = _field(hv, 1)
    h10 = _field(hv, 2)
    h11 = _field(hv, 3)
    ks = INF
    kmax = 0
    for p in range(6):
        fa = _knit_field(P[4], PERMS[p, 0])
        fb = _knit_field(P[5], PERMS[p, 1])
        fc = _knit_field(P[6], PERMS[p, 2])
        kk = (fa & 3) + (fb & 3) + (fc & 3)
        kmax = max(kmax, kk)
        if mode == MODE_MIN and 9 - kk >= min(best, ks):
            continue
        if mode == MODE_TIES and 9 - kk > min(best, ks):
            continue
        a01 = (fa >> 2) & 3
        b01 = (fb >> 2) & 3
        c01 = (fc >> 2) & 3
        if no_melds:
            # the remainder: one set and the pair
            r = min(min((fa >> 6) & 7, (fb >> 6) & 7), min((fc >> 6) & 7, h11))
            r = min(r, ((fa >> 4) & 3) + min(min(b01, c01), h01))
            r = min(r, ((fb >> 4) & 3) + min(min(a01, c01), h01))
            r = min(r, ((fc >> 4) & 3) + min(min(a01, b01), h01))
            r = min(r, h10 + min(min(a01, b01), c01))
        else:
            # with a called meld: the pair only
            r = min(min(a01, b01), min(c01, h01))
        ks = min(ks, 9 - kk + r)
    if no_melds and (fm & (1 << FORM_HONORS_KNITTED)) != 0:
        hon = (P[7] >> AUX_ORPHAN_SHIFT) & 15
        FD[FORM_HONORS_KNITTED] = 14 - min(kmax + hon, 14)
        best = min(best, FD[FORM_HONORS_KNITTED])
    if (fm & (1 << FORM_KNITTED_STRAIGHT)) != 0:
        FD[FORM_KNITTED_STRAIGHT] = ks
        best = min(best, ks)
    return best


@kernel
def hand_forms(P, m, fm, max_sets, two, vec, ct, FD, mode):
    """The distance (shanten + 1) of the hand whose parts are ``P`` (:func:`load_parts`),
    needing ``m`` sets: the minimum over the forms of ``fm`` open to it. ``FD[f]`` gets
    form ``f``'s distance, ``INF`` where the form is not open (called melds, not in
    ``fm``); exact for every form in MODE_EXACT (see the module docstring)."""
    z = ct[ct[ct[P[0], P[1]], P[2]], P[3]]
    reg = _field(vec[z], 2 * m + 1)
    FD[FORM_REGULAR] = reg
    for f in range(1, N_FORMS):
        FD[f] = INF
    best = reg
    no_melds = m == max_sets
    if no_melds and (fm & SP_BITS) != 0:
        sw = P[4] + P[5] + P[6] + P[7]
        n1 = sw & 63
        n2 = (sw >> 6) & 63
        n3 = (sw >> 12) & 63
        n4 = (sw >> 18) & 63
        if fm & (1 << FORM_SEVEN_PAIRS):
            FD[FORM_SEVEN_PAIRS] = _pairs_dist(n1, n2, n3, n4)
            best = min(best, FD[FORM_SEVEN_PAIRS])
        if fm & (1 << FORM_SEVEN_PAIRS_TRIPLET):
            kinds = 16 if two else 34
            FD[FORM_SEVEN_PAIRS_TRIPLET] = _pairs_triplet_dist(kinds - n1 - n2 - n3 - n4,
                                                               n1, n2, n3, n4)
            best = min(best, FD[FORM_SEVEN_PAIRS_TRIPLET])
        if fm & (1 << FORM_THIRTEEN_ORPHANS):
            orph = (sw >> AUX_ORPHAN_SHIFT) & 15
            opair = (sw >> AUX_ORPHAN_PAIR_SHIFT) & 7
            FD[FORM_THIRTEEN_ORPHANS] = 14 - orph - min(opair, 1)
            best = min(best, FD[FORM_THIRTEEN_ORPHANS])
    if (fm & KN_BITS) != 0 and m >= max_sets - 1:
        best = _knitted(P, no_melds, fm, vec, FD, best, mode)
    return best


@kernel
def _special_waits(codes, P, m, best, FD, fm, max_sets, two, tab, vec, R):
    """Effective-tile bits of the special forms at the minimum ``best``."""
    eff = np.int64(0)
    sp = FD[FORM_SEVEN_PAIRS] == best
    spt = FD[FORM_SEVEN_PAIRS_TRIPLET] == best
    orp = FD[FORM_THIRTEEN_ORPHANS] == best
    hk = FD[FORM_HONORS_KNITTED] == best
    ks = FD[FORM_KNITTED_STRAIGHT] == best
    # the tiles by count: CM[x] = bits of the tiles held x times
    CM = R[0:5]
    for x in range(5):
        CM[x] = 0
    for s in range(4):
        v = codes[s]
        for i in range(9 if s < 3 else 7):
            CM[v % 5] |= np.int64(1) << (9 * s + i)
            v //= 5
    # ---- seven pairs (+ triplet): the count classes whose draw gains
    if sp or spt:
        sw = P[4] + P[5] + P[6] + P[7]
        cnt = R[8:13]
        kinds = 16 if two else 34
        for fi in range(2):
            form = FORM_SEVEN_PAIRS if fi == 0 else FORM_SEVEN_PAIRS_TRIPLET
            if (fi == 0 and sp) or (fi == 1 and spt):
                for x in range(1, 5):
                    cnt[x] = (sw >> (6 * (x - 1))) & 63
                cnt[0] = kinds - cnt[1] - cnt[2] - cnt[3] - cnt[4]
                for x in range(4):
                    if cnt[x] == 0:
                        continue
                    cnt[x] -= 1
                    cnt[x + 1] += 1
                    d = _special_pairs_dist(form, cnt[0], cnt[1], cnt[2], cnt[3], cnt[4])
                    cnt[x] += 1
                    cnt[x + 1] -= 1
                    if d < best:
                        eff |= CM[x]
    # ---- thirteen orphans: a missing orphan, or a held one when no pair yet
    if orp:
        pair = (CM[2] | CM[3] | CM[4]) & ORPHAN_BITS
        eff |= CM[0] & ORPHAN_BITS
        if pair == 0:
            eff |= CM[1] & ORPHAN_BITS
    # ---- honors and knitted: missing tiles of the best permutations
    if hk:
        hon = (P[7] >> AUX_ORPHAN_SHIFT) & 15
        for p in range(6):
            kk = 0
            for s in range(3):
                kk += _knit_field(P[4 + s], PERMS[p, s]) & 3
            if 14 - min(kk + hon, 14) == best:
                eff |= CM[0] & (KNIT_MASKS[p] | HONOR_BITS)
    # ---- knitted straight: missing knitted tiles + the remainder's useful tiles
    if ks:
        target_set = m - (max_sets - 1)
        kse = np.int64(0)
        rv = R[16:32]
        sub = R[32:36]
        hv = vec[P[3]]
        for p in range(6):
            kk = 0
            for s in range(3):
                f = _knit_field(P[4 + s], PERMS[p, s])
                kk += f & 3
                rv[4 * s + 0] = 0
                rv[4 * s + 1] = (f >> 2) & 3
                rv[4 * s + 2] = (f >> 4) & 3
                rv[4 * s + 3] = (f >> 6) & 7
            for x in range(4):
                rv[12 + x] = _field(hv, x)
            Rm = INF
            if target_set == 0:
                for s in range(4):
                    Rm = min(Rm, rv[4 * s + 1])
            else:
                for s in range(4):
                    Rm = min(Rm, rv[4 * s + 3])
                    for t in range(4):
                        if t != s:
                            Rm = min(Rm, rv[4 * s + 2] + rv[4 * t + 1])
            if 9 - kk + Rm != best:
                continue
            kse |= CM[0] & KNIT_MASKS[p]
            # the remainder: one copy of each held knitted tile removed
            for s in range(3):
                g = PERMS[p, s]
                sub[s] = codes[s]
                for j in range(3):
                    if ((CM[0] >> (9 * s + g + 3 * j)) & 1) == 0:
                        sub[s] -= PW5[g + 3 * j]
            sub[3] = codes[3] + HONOR_BASE
            for s in range(4):
                bits = 0
                if target_set == 0:
                    if rv[4 * s + 1] == Rm:
                        bits |= _mask_field(tab, sub[s], 1)
                else:
                    if rv[4 * s + 3] == Rm:
                        bits |= _mask_field(tab, sub[s], 3)
                    for t in range(4):
                        if t != s and rv[4 * s + 2] + rv[4 * t + 1] == Rm:
                            bits |= _mask_field(tab, sub[s], 2)
                        if t != s and rv[4 * t + 2] + rv[4 * s + 1] == Rm:
                            bits |= _mask_field(tab, sub[s], 1)
                kse |= bits << (9 * s)
        eff |= kse & ~CM[4]
    return eff


@kernel
def hand_waits(codes, P, m, best, FD, fm, max_sets, two, tab, vec, ct, opt, R):
    """Effective-tile bits (bit ``t`` = tile ``t``) of a waiting hand (codes ``codes``,
    parts ``P``, distance ``best`` and ``FD`` from :func:`hand_forms` in MODE_TIES or
    MODE_EXACT): the regular form's tiles from the optimal splits of each part against the
    three others, then the special forms at the minimum."""
    eff = np.int64(0)
    if FD[FORM_REGULAR] == best:
        c01 = ct[P[0], P[1]]
        c23 = ct[P[2], P[3]]
        sh = m * (m + 1)
        width = np.int64(1) << (2 * (m + 1))
        for s in range(4):
            if two and (s == 1 or s == 2):
                continue
            if s == 0:
                o = ct[P[1], c23]
            elif s == 1:
                o = ct[P[0], c23]
            elif s == 2:
                o = ct[c01, P[3]]
            else:
                o = ct[c01, P[2]]
            bits = (opt[P[s], o] >> sh) & (width - 1)
            r = codes[s] + (HONOR_BASE if s == 3 else 0)
            tiles = np.int64(0)
            k = 0
            while bits:
                if bits & 1:
                    tiles |= _mask_field(tab, r, k)
                bits >>= 1
                k += 1
            eff |= tiles << (9 * s)
    special = False
    for f in range(1, N_FORMS):
        if FD[f] == best:
            special = True
    if special:
        eff |= _special_waits(codes, P, m, best, FD, fm, max_sets, two, tab, vec, R)
    if two:
        eff &= TWO_PLAYER_BITS
    return eff


@kernel
def shanten_row(codes, m, fm, max_sets, two, tab, vec, ct, P, FD, mode):
    """Shanten of the hand whose part codes are ``codes`` (needing ``m`` sets); ``FD`` as
    in :func:`hand_forms`."""
    load_parts(codes, two, tab, P)
    return hand_forms(P, m, fm, max_sets, two, vec, ct, FD, mode) - 1


@kernel
def waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, P, FD, R):
    """``(shanten, effective-tile bits)`` of the waiting hand whose part codes are
    ``codes`` (needing ``m`` sets)."""
    load_parts(codes, two, tab, P)
    best = hand_forms(P, m, fm, max_sets, two, vec, ct, FD, MODE_TIES)
    return best - 1, hand_waits(codes, P, m, best, FD, fm, max_sets, two, tab, vec, ct, opt, R)


@kernel
def hand_shanten(c, I, fm, max_sets, two, tab, vec, ct, P, FD):
    """Shanten of the waiting-size hand ``c`` (34 counts, int64; ``I[0:4]`` receives its
    codes)."""
    codes = I[0:4]
    total = hand_codes(c, codes)
    return shanten_row(codes, (total - 1) // 3, fm, max_sets, two, tab, vec, ct, P, FD,
                       MODE_MIN)


@kernel
def discard_options(c, vis, fm, max_sets, two, tab, vec, ct, opt, P, FD, R, I, cand, emask):
    """Every distinct discard of the complete-size hand ``c`` (34 counts, int64, 3k+2
    tiles; restored on return): ``cand[i, D_TILE]`` the tile, ``cand[i, D_SHANTEN]`` the
    shanten after it; for the discards of the lowest shanten ``emask[i]`` the effective
    tiles after it and ``cand[i, D_LIVE]`` their live copies (``4 - held - vis``, never
    below 0), for the others 0 and -1. Returns the number of discards.

    The hand's parts are loaded once; a discard changes one part, so its shanten is one
    table row and :func:`hand_forms`."""
    codes = I[0:4]
    total = hand_codes(c, codes)
    m = (total - 2) // 3            # sets the hands after a discard need
    load_parts(codes, two, tab, P)
    k = 0
    lo = 99
    for t in range(34):
        if c[t] > 0:
            s = t // 9 if t < 27 else 3
            r = codes[s] - PW5[t - 9 * s] + (HONOR_BASE if s == 3 else 0)
            cls = P[s]
            aux = P[4 + s]
            P[s] = tab[r, 0]
            P[4 + s] = tab[r, 1]
            d = hand_forms(P, m, fm, max_sets, two, vec, ct, FD, MODE_MIN)
            P[s] = cls
            P[4 + s] = aux
            cand[k, D_TILE] = t
            cand[k, D_SHANTEN] = d - 1
            cand[k, D_LIVE] = -1
            lo = min(lo, d - 1)
            k += 1
    for i in range(k):
        if cand[i, D_SHANTEN] != lo:
            emask[i] = 0
            continue
        t = cand[i, D_TILE]
        s = t // 9 if t < 27 else 3
        c[t] -= 1
        codes[s] -= PW5[t - 9 * s]
        sh, eff = waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, P, FD, R)
        codes[s] += PW5[t - 9 * s]
        live = 0
        for w in range(34):
            if (eff >> w) & 1:
                lv = 4 - c[w] - vis[w]
                if lv > 0:
                    live += lv
        cand[i, D_LIVE] = live
        emask[i] = eff
        c[t] += 1
    return k


# ---------------------------------------------------------------------------------
# batch kernels: loops over the row
# ---------------------------------------------------------------------------------
@kernel(inline="always")
def _check_row(counts, i, max_sets, hand_size, two, waiting, tab, codes):
    """Codes of row ``i`` into ``codes[0..3]``, ``codes[4]`` = the sets it needs, its
    table rows prefetched; returns 0 or the reason the row is invalid."""
    total = 0
    bad = 0
    for s in range(4):
        nd = 9 if s < 3 else 7
        code = 0
        for q in range(nd - 1, -1, -1):
            x = np.int64(counts[i, 9 * s + q])
            if x > 4:
                bad = BAD_COUNT
            code = code * 5 + x
            total += x
        codes[s] = code
    if bad:
        return bad
    if two and (codes[1] != 0 or codes[2] != 0):
        return BAD_TILE
    m = _sets_needed(total, max_sets, hand_size)
    if m < 0:
        return BAD_TOTAL
    if waiting and total % 3 != 1:
        return BAD_WAIT_TOTAL
    codes[4] = m
    prefetch(tab, codes[0])
    prefetch(tab, codes[1])
    prefetch(tab, codes[2])
    prefetch(tab, codes[3] + HONOR_BASE)
    return 0


@kernel
def shanten_batch(counts, form_mask, max_sets, hand_size, two_player, tab, vec, ct, out,
                  per_form):
    """out[h] = shanten (int8) of each row of ``counts`` (N, 34) uint8; ``per_form``
    (N, 6) int8 gets every form's shanten (``NO_FORM`` where not open) when it has N rows
    (else shape (0, 6)). Returns (bad_row, reason), (-1, 0) when all rows are valid."""
    n = counts.shape[0]
    want = per_form.shape[0] == n and n > 0
    mode = MODE_EXACT if want else MODE_MIN
    ring = np.zeros((RING, 8), dtype=np.int64)
    P = np.zeros(8, dtype=np.int64)
    FD = np.zeros(8, dtype=np.int64)
    for i in range(n + AHEAD):
        if i < n:
            reason = _check_row(counts, i, max_sets, hand_size, two_player, False, tab,
                                ring[i & (RING - 1)])
            if reason:
                return i, reason
        h = i - AHEAD
        if h < 0:
            continue
        codes = ring[h & (RING - 1)]
        out[h] = shanten_row(codes, codes[4], form_mask, max_sets, two_player, tab, vec, ct,
                             P, FD, mode)
        if want:
            for f in range(N_FORMS):
                if (form_mask >> f) & 1 and FD[f] < INF:
                    per_form[h, f] = FD[f] - 1
                else:
                    per_form[h, f] = NO_FORM
    return -1, 0


@kernel
def waits_batch(counts, visible, form_mask, max_sets, hand_size, two_player, tab, vec, ct,
                opt, shanten_out, mask_out, live_out):
    """For waiting rows (3m + 1 tiles): shanten, the tiles that lower it (mask_out, bool
    (N, 34)) and their live copies (live_out, int8, 0 where not a wait).
    ``visible`` is (N, 34) or (1, 34) (broadcast). Returns (bad_row, reason)."""
    n = counts.shape[0]
    ring = np.zeros((RING, 8), dtype=np.int64)
    P = np.zeros(8, dtype=np.int64)
    FD = np.zeros(8, dtype=np.int64)
    R = np.zeros(64, dtype=np.int64)
    vrow_step = 1 if visible.shape[0] == n else 0
    for i in range(n + AHEAD):
        if i < n:
            reason = _check_row(counts, i, max_sets, hand_size, two_player, True, tab,
                                ring[i & (RING - 1)])
            if reason:
                return i, reason
        h = i - AHEAD
        if h < 0:
            continue
        codes = ring[h & (RING - 1)]
        sh, eff = waits_row(codes, codes[4], form_mask, max_sets, two_player, tab, vec, ct,
                            opt, P, FD, R)
        shanten_out[h] = sh
        # the mask byte by byte, the live copies of the waits
        for b in range(5):
            byte = (eff >> (8 * b)) & 255
            for q in range(8):
                t = 8 * b + q
                if t < 34:
                    mask_out[h, t] = EXPAND[byte, q] != 0
        vr = h * vrow_step
        for t in range(34):
            lv = 4 - np.int64(counts[h, t]) - np.int64(visible[vr, t])
            live_out[h, t] = max(lv, 0) * np.int64(mask_out[h, t])
    return -1, 0
