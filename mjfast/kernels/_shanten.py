"""Shanten, per-form shanten and effective tiles (waits): the row functions, and the batch
kernels that loop over them.

**The row** (one hand; every compiled caller uses these: the batch kernels below, the
bots' discard evaluation, the simulator). A hand is four *parts* (characters, dots,
bamboo: 9 ranks; honors: 7 kinds), each given by the base-5 code of its counts; ``codes``
is the tuple of the four (:func:`hand_codes`). ``m`` is the number of sets the hand still
needs: ``(n - 1) // 3`` for a waiting hand of ``n`` tiles (``n % 3 == 1``), ``(n - 2) // 3``
for a complete-size one. The rule set enters as three integers: ``fm`` the form mask
(``sum(1 << f)`` over its forms), ``max_sets`` its sets (4; Taiwan 5), ``two`` 1 for the
two-player tile set (characters and honors only), else 0.

::

    codes, n = hand_codes(c)                 # c: int64[34] counts
    parts = load_parts(codes, two, tab)      # (class0..3, aux0..3): four table rows
    d = hand_forms(parts, m, fm, max_sets, two, vec, ct, FD, mode)  # distance = shanten + 1
    eff = hand_waits(codes, parts, m, d, FD, fm, max_sets, two, tab, vec, ct, opt, R)
    s = shanten_row(codes, m, fm, max_sets, two, tab, vec, ct, FD, mode)     # the two above
    s, eff = waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, FD, R)
    s = hand_shanten(c, fm, max_sets, two, tab, vec, ct, FD)                # from counts
    s, eff = hand_waits_of(codes, m, fm, max_sets, two, tab, vec, ct, opt, FD, R)  # a call
    k = discard_options(c, vis, fm, max_sets, two, tab, vec, ct, opt, FD, R, cand, emask)
    parts2 = replace_part(parts, s, code, tab); codes2 = replace_code(codes, s, code)

``tab, vec, ct, opt`` are the tables of :mod:`._shanten_tables` (:func:`shanten_tables`);
``FD`` (int64[8]) and ``R`` (int64[64]) are scratch (:func:`row_scratch`, one per thread).
``FD[f]`` receives the distance of form ``f`` (``INF`` where the form is not open to the
hand) unless ``mode`` is :data:`MODE_MIN`: :data:`MODE_EXACT` every form exactly,
:data:`MODE_MIN` only the minimum (a knitted form that cannot go below the best so far is
skipped), :data:`MODE_TIES` the minimum and every form that reaches it (what the waits
need). ``eff`` is a bit mask of the effective tiles (bit ``t`` = tile ``t``): the tiles
whose draw lowers the shanten of a waiting hand.

How: the regular form is the min-plus combination of the four parts' distance vectors;
the vectors and all their combinations fall into 329 classes, so the combination is three
lookups in the class table ``ct`` (``vec`` gives a class's distances). The waits take,
for each part, the class of the three others and read the optimal splits from ``opt``
(``docs/shanten.md``). Seven pairs and thirteen orphans come from the parts' AUX words
added; the knitted forms from their knitted fields (skipped when a bound shows they do
not matter). The row functions are inlined into their callers (``inline="always"``): a call
between compiled functions passes every array field by field and counts references to
them, which cost more than the row itself; the rare part (:func:`_special_waits`) is a
call.

**The batch kernels** :func:`shanten_batch` and :func:`waits_batch` loop over the rows of
an (N, 34) uint8 C-contiguous count array: each row is validated and its codes computed
(eight counts at a time) :data:`AHEAD` rows before it is evaluated, and its table rows
prefetched, then evaluated by the row functions. They stop at the first invalid row
(rows in order) and return ``(row, reason)``; ``(-1, 0)`` means every row was fine.
"""
from __future__ import annotations

import numpy as np

from ._jit import DISABLED, kernel
from ._shanten_tables import (AUX_KNIT_SHIFT, AUX_ORPHAN_PAIR_SHIFT, AUX_ORPHAN_SHIFT,
                              CLASS_DISABLED, CLASS_MASK, HONOR_BASE, KNIT_MOST_SHIFT,
                              KNIT_U_SHIFT, KNIT_V_SHIFT, KNIT_W_SHIFT, get_tables)

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
# six field bits -> those 9-bit fields all ones (selects the masks of an optimal split)
SPREAD9 = np.array([sum(511 << (9 * k) for k in range(6) if (b >> k) & 1) for b in range(64)],
                   dtype=np.int64)

AHEAD = 8           # batch kernels: rows validated (and prefetched) ahead of evaluation
RING = 16           # codes kept for the rows in between (a power of two > AHEAD)


def shanten_tables():
    """The tables the row functions read: ``(tab, vec, ct, opt)`` (generated or loaded
    on first use, then shared)."""
    t = get_tables()
    return t["tab"], t["vec"], t["ct"], t["opt"]


def row_scratch():
    """Scratch for the row functions (one set per thread): ``(FD, R)``."""
    return np.zeros(8, np.int64), np.zeros(64, np.int64)


# ---------------------------------------------------------------------------------
# two machine operations: a prefetch (a hint: no effect on results) and an unaligned
# 8-byte load (the counts of eight tiles at once)
# ---------------------------------------------------------------------------------
def prefetch(arr, i):
    """Ask the CPU to bring row ``i`` of the 2-D array ``arr`` into the cache."""


def load8(counts, i, off):
    """Bytes ``off .. off + 7`` of row ``i`` of a C-contiguous (N, 34) uint8 array as one
    little-endian int64 (byte ``off`` lowest)."""
    return int.from_bytes(bytes(counts[i, off:off + 8]), "little")


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

    @_intrinsic
    def _load8_row(typingctx, arr, i, off):
        if not (isinstance(arr, _types.Array) and arr.dtype == _types.uint8 and arr.ndim == 2
                and arr.layout == "C"):
            return None
        sig = _types.int64(arr, i, off)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            row = context.cast(builder, args[1], signature.args[1], _types.intp)
            col = context.cast(builder, args[2], signature.args[2], _types.intp)
            stride = _cgutils.unpack_tuple(builder, ary.strides)[0]
            addr = builder.add(builder.ptrtoint(ary.data, _cgutils.intp_t),
                               builder.add(builder.mul(row, stride), col))
            ptr = builder.inttoptr(addr, _ir.IntType(64).as_pointer())
            return builder.load(ptr, align=1)
        return sig, codegen

    @_overload(load8, inline="always")
    def _load8_impl(counts, i, off):
        if isinstance(counts, _types.Array):
            return lambda counts, i, off: _load8_row(counts, i, off)


# ---------------------------------------------------------------------------------
# small pieces
# ---------------------------------------------------------------------------------
@kernel(inline="always")
def _pairs_dist(n1, n2, n3, n4):
    """Seven pairs (a held four = two pairs): fewest tiles to add."""
    r = max(7 - (n2 + n3 + 2 * n4), 0)      # pairs to make
    a = n1 + n3                            # ranks one tile from a pair
    return min(r, a) + 2 * max(r - a, 0)


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
def _fold9(x):
    """The union of the six 9-bit fields of ``x``."""
    x |= x >> 27
    x |= x >> 18
    x |= x >> 9
    return x & 511


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
@kernel(inline="always")
def _part_code(c, s):
    """Base-5 code of part ``s`` of ``c`` (34 counts) and its tile count."""
    code = 0
    total = 0
    for i in range(8 if s < 3 else 6, -1, -1):
        x = c[9 * s + i]
        code = code * 5 + x
        total += x
    return code, total


@kernel(nrt=False)
def hand_codes(c):
    """``(codes, tiles)``: the base-5 codes of the four parts of ``c`` (34 counts, int64)
    as a tuple, and the tile count."""
    k0, n0 = _part_code(c, 0)
    k1, n1 = _part_code(c, 1)
    k2, n2 = _part_code(c, 2)
    k3, n3 = _part_code(c, 3)
    return (k0, k1, k2, k3), n0 + n1 + n2 + n3


@kernel(inline="always")
def replace_code(codes, s, code):
    """``codes`` with part ``s``'s code replaced."""
    return (code if s == 0 else codes[0], code if s == 1 else codes[1],
            code if s == 2 else codes[2], code if s == 3 else codes[3])


@kernel(inline="always")
def load_parts(codes, two, tab):
    """The parts of the hand whose part codes are ``codes``: the tuple ``(word0, word1,
    word2, word3, aux0, aux1, aux2, aux3)`` (``word``: the part's class (``& CLASS_MASK``)
    and knitted summary, ``tab[code, 0]``; two-player: the dots and bamboo are the
    disabled part)."""
    k0, k1, k2, k3 = codes
    r3 = k3 + HONOR_BASE
    if two:
        return (tab[k0, 0], CLASS_DISABLED, CLASS_DISABLED, tab[r3, 0],
                tab[k0, 1], 0, 0, tab[r3, 1])
    return (tab[k0, 0], tab[k1, 0], tab[k2, 0], tab[r3, 0],
            tab[k0, 1], tab[k1, 1], tab[k2, 1], tab[r3, 1])


@kernel(inline="always")
def replace_part(parts, s, code, tab):
    """``parts`` with part ``s`` (0..3) read at ``code`` instead (the hand after a draw or
    a discard changes one part)."""
    r = code + (HONOR_BASE if s == 3 else 0)
    c = tab[r, 0]
    a = tab[r, 1]
    return (c if s == 0 else parts[0], c if s == 1 else parts[1], c if s == 2 else parts[2],
            c if s == 3 else parts[3], a if s == 0 else parts[4], a if s == 1 else parts[5],
            a if s == 2 else parts[6], a if s == 3 else parts[7])


@kernel(inline="always")
def _knitted_open(parts, no_melds, fm, best, mode):
    """(honors-and-knitted, knitted straight): whether each may still matter. In MODE_MIN
    a form that cannot go below ``best`` does not matter, in MODE_TIES one that cannot
    reach it; in MODE_EXACT every form open to the hand matters. The bounds, from the
    parts' knitted summaries: at most the most ranks of one group per suit are knitted
    tiles (``most``), and the remainder needs at least the least of its parts' distances
    (``rlb``: a set and a pair from any parts, or a pair)."""
    want_hk = no_melds and (fm & (1 << FORM_HONORS_KNITTED)) != 0
    want_ks = (fm & (1 << FORM_KNITTED_STRAIGHT)) != 0
    if mode != MODE_EXACT:
        w0, w1, w2, w3 = parts[0], parts[1], parts[2], parts[3]
        most = (((w0 >> KNIT_MOST_SHIFT) & 3) + ((w1 >> KNIT_MOST_SHIFT) & 3)
                + ((w2 >> KNIT_MOST_SHIFT) & 3))
        u0 = (w0 >> KNIT_U_SHIFT) & 3
        u1 = (w1 >> KNIT_U_SHIFT) & 3
        u2 = (w2 >> KNIT_U_SHIFT) & 3
        u3 = (w3 >> KNIT_U_SHIFT) & 3
        if no_melds:
            u01 = min(u0, u1)
            u23 = min(u2, u3)
            rlb = min(min(min((w0 >> KNIT_W_SHIFT) & 7, (w1 >> KNIT_W_SHIFT) & 7),
                          min((w2 >> KNIT_W_SHIFT) & 7, (w3 >> KNIT_W_SHIFT) & 7)),
                      min(min(((w0 >> KNIT_V_SHIFT) & 3) + min(u1, u23),
                              ((w1 >> KNIT_V_SHIFT) & 3) + min(u0, u23)),
                          min(((w2 >> KNIT_V_SHIFT) & 3) + min(u01, u3),
                              ((w3 >> KNIT_V_SHIFT) & 3) + min(u01, u2))))
        else:
            rlb = min(min(u0, u1), min(u2, u3))
        tie = 1 if mode == MODE_TIES else 0
        want_ks = want_ks and 9 - most + rlb < best + tie
        want_hk = want_hk and 14 - min(most + ((parts[7] >> AUX_ORPHAN_SHIFT) & 15), 14) < best + tie
        return want_hk, want_ks, rlb
    return want_hk, want_ks, 0


@kernel(inline="always")
def _knitted(parts, no_melds, want_hk, want_ks, rlb, vec, FD, best, mode):
    """The knitted forms (MCR) that may matter (:func:`_knitted_open`; ``rlb`` its bound
    of the remainder): returns the new minimum, ``FD`` recorded but in MODE_MIN. The
    knitted tiles of the best permutation first; then, unless ``9 - kmax + rlb`` keeps the
    straight out (but in MODE_EXACT), every permutation without data-dependent branches."""
    a0, a1, a2 = parts[4], parts[5], parts[6]
    kmax = 0
    for p in range(6):
        kmax = max(kmax, (_knit_field(a0, PERMS[p, 0]) & 3) + (_knit_field(a1, PERMS[p, 1]) & 3)
                   + (_knit_field(a2, PERMS[p, 2]) & 3))
    if want_hk:
        d = 14 - min(kmax + ((parts[7] >> AUX_ORPHAN_SHIFT) & 15), 14)
        best = min(best, d)
        if mode != MODE_MIN:
            FD[FORM_HONORS_KNITTED] = d
    cut = best + (1 if mode == MODE_TIES else 0)
    if not want_ks or (mode != MODE_EXACT and 9 - kmax + rlb >= cut):
        return best
    hv = vec[parts[3] & CLASS_MASK]
    h01 = _field(hv, 1)
    h10 = _field(hv, 2)
    h11 = _field(hv, 3)
    ks = INF
    for p in range(6):
        fa = _knit_field(a0, PERMS[p, 0])
        fb = _knit_field(a1, PERMS[p, 1])
        fc = _knit_field(a2, PERMS[p, 2])
        kk = (fa & 3) + (fb & 3) + (fc & 3)
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
    best = min(best, ks)
    if mode != MODE_MIN:
        FD[FORM_KNITTED_STRAIGHT] = ks
    return best


@kernel(inline="always")
def hand_forms(parts, m, fm, max_sets, two, vec, ct, FD, mode):
    """The distance (shanten + 1) of the hand ``parts`` (:func:`load_parts`) needing ``m``
    sets: the minimum over the forms of ``fm`` open to it. But in MODE_MIN, ``FD[f]`` gets
    form ``f``'s distance, ``INF`` where the form is not open (called melds, not in
    ``fm``; MODE_TIES: or it cannot reach the minimum); exact for every form in
    MODE_EXACT (see the module docstring)."""
    c0, c1, c2, c3 = (parts[0] & CLASS_MASK, parts[1] & CLASS_MASK, parts[2] & CLASS_MASK,
                      parts[3] & CLASS_MASK)
    a0, a1, a2, a3 = parts[4], parts[5], parts[6], parts[7]
    reg = _field(vec[ct[ct[ct[c0, c1], c2], c3]], 2 * m + 1)
    record = mode != MODE_MIN
    if record:
        FD[FORM_REGULAR] = reg
        for f in range(1, N_FORMS):
            FD[f] = INF
    best = reg
    no_melds = m == max_sets
    if no_melds and (fm & SP_BITS) != 0:
        sw = a0 + a1 + a2 + a3
        n1 = sw & 63
        n2 = (sw >> 6) & 63
        n3 = (sw >> 12) & 63
        n4 = (sw >> 18) & 63
        if fm & (1 << FORM_SEVEN_PAIRS):
            d = _pairs_dist(n1, n2, n3, n4)
            best = min(best, d)
            if record:
                FD[FORM_SEVEN_PAIRS] = d
        if fm & (1 << FORM_SEVEN_PAIRS_TRIPLET):
            kinds = 16 if two else 34
            d = _pairs_triplet_dist(kinds - n1 - n2 - n3 - n4, n1, n2, n3, n4)
            best = min(best, d)
            if record:
                FD[FORM_SEVEN_PAIRS_TRIPLET] = d
        if fm & (1 << FORM_THIRTEEN_ORPHANS):
            d = 14 - ((sw >> AUX_ORPHAN_SHIFT) & 15) - min((sw >> AUX_ORPHAN_PAIR_SHIFT) & 7, 1)
            best = min(best, d)
            if record:
                FD[FORM_THIRTEEN_ORPHANS] = d
    if (fm & KN_BITS) != 0 and m >= max_sets - 1:
        want_hk, want_ks, rlb = _knitted_open(parts, no_melds, fm, best, mode)
        if want_hk or want_ks:
            best = _knitted(parts, no_melds, want_hk, want_ks, rlb, vec, FD, best, mode)
    return best


@kernel(nrt=False)
def _special_waits(codes, parts, m, best, FD, fm, max_sets, two, tab, vec, R):
    """Effective-tile bits of the special forms at the minimum ``best``."""
    eff = np.int64(0)
    aux = (parts[4], parts[5], parts[6])
    sp = FD[FORM_SEVEN_PAIRS] == best
    spt = FD[FORM_SEVEN_PAIRS_TRIPLET] == best
    orp = FD[FORM_THIRTEEN_ORPHANS] == best
    hk = FD[FORM_HONORS_KNITTED] == best
    ks = FD[FORM_KNITTED_STRAIGHT] == best
    # the tiles by count: CM[x] = bits of the tiles held x times (views of R: this
    # function runs only when a special form is at the minimum)
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
        sw = parts[4] + parts[5] + parts[6] + parts[7]
        kinds = 16 if two else 34
        for fi in range(2):
            form = FORM_SEVEN_PAIRS if fi == 0 else FORM_SEVEN_PAIRS_TRIPLET
            if (fi == 0 and sp) or (fi == 1 and spt):
                n = R[8:13]
                for x in range(1, 5):
                    n[x] = (sw >> (6 * (x - 1))) & 63
                n[0] = kinds - n[1] - n[2] - n[3] - n[4]
                for x in range(4):
                    if n[x] == 0:
                        continue
                    n[x] -= 1
                    n[x + 1] += 1
                    d = _special_pairs_dist(form, n[0], n[1], n[2], n[3], n[4])
                    n[x] += 1
                    n[x + 1] -= 1
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
        hon = (parts[7] >> AUX_ORPHAN_SHIFT) & 15
        for p in range(6):
            kk = 0
            for s in range(3):
                kk += _knit_field(aux[s], PERMS[p, s]) & 3
            if 14 - min(kk + hon, 14) == best:
                eff |= CM[0] & (KNIT_MASKS[p] | HONOR_BITS)
    # ---- knitted straight: missing knitted tiles + the remainder's useful tiles
    if ks:
        target_set = m - (max_sets - 1)
        kse = np.int64(0)
        rv = R[16:32]
        sub = R[32:36]
        hv = vec[parts[3] & CLASS_MASK]
        for p in range(6):
            kk = 0
            for s in range(3):
                f = _knit_field(aux[s], PERMS[p, s])
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


@kernel(inline="always")
def _split_tiles(opt, tab, cls, others, r, sh, width):
    """The tiles lowering part ``cls`` (``tab`` row ``r``) in the optimal splits against
    the other parts' class ``others`` (9 bits)."""
    bits = (opt[cls, others] >> sh) & (width - 1)
    return _fold9(tab[r, 2] & SPREAD9[bits & 63]) | _fold9(tab[r, 3] & SPREAD9[bits >> 6])


@kernel(inline="always")
def hand_waits(codes, parts, m, best, FD, fm, max_sets, two, tab, vec, ct, opt, R):
    """Effective-tile bits (bit ``t`` = tile ``t``) of a waiting hand (codes ``codes``,
    ``parts``, distance ``best`` and ``FD`` from :func:`hand_forms` in MODE_TIES or
    MODE_EXACT): the regular form's tiles from the optimal splits of each part against the
    three others, then the special forms at the minimum."""
    eff = np.int64(0)
    if FD[FORM_REGULAR] == best:
        c0, c1, c2, c3 = (parts[0] & CLASS_MASK, parts[1] & CLASS_MASK, parts[2] & CLASS_MASK,
                          parts[3] & CLASS_MASK)
        c01 = ct[c0, c1]
        sh = m * (m + 1)
        width = np.int64(1) << (2 * (m + 1))
        eff = _split_tiles(opt, tab, c0, ct[c1, ct[c2, c3]], codes[0], sh, width)
        eff |= _split_tiles(opt, tab, c3, ct[c01, c2], codes[3] + HONOR_BASE, sh, width) << 27
        if not two:
            eff |= _split_tiles(opt, tab, c1, ct[c0, ct[c2, c3]], codes[1], sh, width) << 9
            eff |= _split_tiles(opt, tab, c2, ct[c01, c3], codes[2], sh, width) << 18
    special = False
    for f in range(1, N_FORMS):
        if FD[f] == best:
            special = True
    if special:
        eff |= _special_waits(codes, parts, m, best, FD, fm, max_sets, two, tab, vec, R)
    if two:
        eff &= TWO_PLAYER_BITS
    return eff


@kernel(inline="always")
def shanten_row(codes, m, fm, max_sets, two, tab, vec, ct, FD, mode):
    """Shanten of the hand whose part codes are ``codes`` (needing ``m`` sets); ``FD`` as
    in :func:`hand_forms`."""
    return hand_forms(load_parts(codes, two, tab), m, fm, max_sets, two, vec, ct, FD, mode) - 1


@kernel(inline="always")
def waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, FD, R):
    """``(shanten, effective-tile bits)`` of the waiting hand whose part codes are
    ``codes`` (needing ``m`` sets)."""
    parts = load_parts(codes, two, tab)
    best = hand_forms(parts, m, fm, max_sets, two, vec, ct, FD, MODE_TIES)
    return best - 1, hand_waits(codes, parts, m, best, FD, fm, max_sets, two, tab, vec, ct,
                                opt, R)


@kernel(nrt=False)
def hand_waits_of(codes, m, fm, max_sets, two, tab, vec, ct, opt, FD, R):
    """:func:`waits_row` compiled once (for one-hand callers: a call, not a copy)."""
    return waits_row(codes, m, fm, max_sets, two, tab, vec, ct, opt, FD, R)


@kernel(nrt=False)
def hand_shanten(c, fm, max_sets, two, tab, vec, ct, FD):
    """Shanten of the waiting-size hand ``c`` (34 counts, int64)."""
    codes, total = hand_codes(c)
    return shanten_row(codes, (total - 1) // 3, fm, max_sets, two, tab, vec, ct, FD, MODE_MIN)


@kernel(nrt=False)
def discard_options(c, vis, fm, max_sets, two, tab, vec, ct, opt, FD, R, cand, emask):
    """Every distinct discard of the complete-size hand ``c`` (34 counts, int64, 3k+2
    tiles; restored on return): ``cand[i, D_TILE]`` the tile, ``cand[i, D_SHANTEN]`` the
    shanten after it; for the discards of the lowest shanten ``emask[i]`` the effective
    tiles after it and ``cand[i, D_LIVE]`` their live copies (``4 - held - vis``, never
    below 0), for the others 0 and -1. Returns the number of discards.

    The hand's parts are loaded once; a discard changes one part, so its shanten is one
    table row (:func:`replace_part`) and :func:`hand_forms`."""
    codes, total = hand_codes(c)
    m = (total - 2) // 3            # sets the hands after a discard need
    parts = load_parts(codes, two, tab)
    k = 0
    lo = 99
    for t in range(34):
        if c[t] > 0:
            s = t // 9 if t < 27 else 3
            after = replace_part(parts, s, codes[s] - PW5[t - 9 * s], tab)
            d = hand_forms(after, m, fm, max_sets, two, vec, ct, FD, MODE_MIN)
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
        after = replace_code(codes, s, codes[s] - PW5[t - 9 * s])
        sh, eff = hand_waits_of(after, m, fm, max_sets, two, tab, vec, ct, opt, FD, R)
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
# eight counts in an int64, one per byte: above 4 / their sum / base-5 code
_HIGH = -0x7F7F7F7F7F7F7F80          # 0x80 in every byte
_TO_HIGH = 0x7B7B7B7B7B7B7B7B        # + 123: a count above 4 reaches the high bit
_ONES = 0x0101010101010101


@kernel(inline="always")
def _code8(x):
    """Base-5 code of the eight counts (0..4) in the bytes of ``x``, byte 0 lowest."""
    x = (x & 0x00FF00FF00FF00FF) + ((x >> 8) & 0x00FF00FF00FF00FF) * 5
    x = (x & 0x0000FFFF0000FFFF) + ((x >> 16) & 0x0000FFFF0000FFFF) * 25
    return (x & 0xFFFFFFFF) + ((x >> 32) & 0xFFFFFFFF) * 625


@kernel(inline="always")
def _check_row(counts, i, max_sets, hand_size, two, waiting, tab, ring):
    """Codes of row ``i`` into ``ring[i % RING, 0..3]``, ``[4]`` = the sets it needs, its
    table rows prefetched; returns 0 or the reason the row is invalid. The counts are
    read eight at a time (ranks 1-8 of each suit, the honors) and the ninth rank alone."""
    slot = i & (RING - 1)
    x0 = load8(counts, i, 0)
    x1 = load8(counts, i, 9)
    x2 = load8(counts, i, 18)
    x3 = (load8(counts, i, 26) >> 8) & 0x00FFFFFFFFFFFFFF
    e0 = np.int64(counts[i, 8])
    e1 = np.int64(counts[i, 17])
    e2 = np.int64(counts[i, 26])
    if ((((x0 | (x0 + _TO_HIGH)) | (x1 | (x1 + _TO_HIGH)) | (x2 | (x2 + _TO_HIGH))
          | (x3 | (x3 + _TO_HIGH))) & _HIGH) != 0 or e0 > 4 or e1 > 4 or e2 > 4):
        return BAD_COUNT
    ring[slot, 0] = _code8(x0) + e0 * PW5[8]
    ring[slot, 1] = _code8(x1) + e1 * PW5[8]
    ring[slot, 2] = _code8(x2) + e2 * PW5[8]
    ring[slot, 3] = _code8(x3)
    total = (((((x0 + x1) + (x2 + x3)) * _ONES) >> 56) & 255) + e0 + e1 + e2
    if two and (ring[slot, 1] != 0 or ring[slot, 2] != 0):
        return BAD_TILE
    m = _sets_needed(total, max_sets, hand_size)
    if m < 0:
        return BAD_TOTAL
    if waiting and total % 3 != 1:
        return BAD_WAIT_TOTAL
    ring[slot, 4] = m
    prefetch(tab, ring[slot, 0])
    prefetch(tab, ring[slot, 1])
    prefetch(tab, ring[slot, 2])
    prefetch(tab, ring[slot, 3] + HONOR_BASE)
    return 0


@kernel(inline="always")
def _from_ring(ring, h):
    """The codes of row ``h`` (validated earlier) and the sets it needs."""
    slot = h & (RING - 1)
    return (ring[slot, 0], ring[slot, 1], ring[slot, 2], ring[slot, 3]), ring[slot, 4]


@kernel(inline="always")
def _shanten_rows(counts, form_mask, max_sets, hand_size, two_player, tab, vec, ct, out,
                  per_form, mode):
    """The loop of :func:`shanten_batch` for one ``mode`` (a constant at each call, so
    the row's branches on it are folded away)."""
    n = counts.shape[0]
    ring = np.zeros((RING, 8), dtype=np.int64)
    FD = np.zeros(8, dtype=np.int64)
    for i in range(n + AHEAD):
        if i < n:
            reason = _check_row(counts, i, max_sets, hand_size, two_player, False, tab, ring)
            if reason:
                return i, reason
        h = i - AHEAD
        if h < 0:
            continue
        codes, m = _from_ring(ring, h)
        out[h] = shanten_row(codes, m, form_mask, max_sets, two_player, tab, vec, ct, FD, mode)
        if mode == MODE_EXACT:
            for f in range(N_FORMS):
                # (FD is INF for a form not in the mask or not open to the row)
                per_form[h, f] = FD[f] - 1 if FD[f] < INF else NO_FORM
    return -1, 0


@kernel
def shanten_batch(counts, form_mask, max_sets, hand_size, two_player, tab, vec, ct, out,
                  per_form):
    """out[h] = shanten (int8) of each row of ``counts`` (N, 34) uint8; ``per_form``
    (N, 6) int8 gets every form's shanten (``NO_FORM`` where not open) when it has N rows
    (else shape (0, 6)). Returns (bad_row, reason), (-1, 0) when all rows are valid."""
    n = counts.shape[0]
    if per_form.shape[0] == n and n > 0:
        return _shanten_rows(counts, form_mask, max_sets, hand_size, two_player, tab, vec,
                             ct, out, per_form, MODE_EXACT)
    return _shanten_rows(counts, form_mask, max_sets, hand_size, two_player, tab, vec, ct,
                         out, per_form, MODE_MIN)


@kernel
def waits_batch(counts, visible, form_mask, max_sets, hand_size, two_player, tab, vec, ct,
                opt, shanten_out, mask_out, live_out):
    """For waiting rows (3m + 1 tiles): shanten, the tiles that lower it (mask_out, bool
    (N, 34)) and their live copies (live_out, int8, 0 where not a wait).
    ``visible`` is (N, 34) or (1, 34) (broadcast). Returns (bad_row, reason)."""
    n = counts.shape[0]
    ring = np.zeros((RING, 8), dtype=np.int64)
    FD = np.zeros(8, dtype=np.int64)
    R = np.zeros(64, dtype=np.int64)
    vrow_step = 1 if visible.shape[0] == n else 0
    for i in range(n + AHEAD):
        if i < n:
            reason = _check_row(counts, i, max_sets, hand_size, two_player, True, tab, ring)
            if reason:
                return i, reason
        h = i - AHEAD
        if h < 0:
            continue
        codes, m = _from_ring(ring, h)
        sh, eff = waits_row(codes, m, form_mask, max_sets, two_player, tab, vec, ct, opt, FD, R)
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
