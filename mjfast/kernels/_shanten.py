"""Numba kernels: table-driven shanten, per-form shanten and effective tiles (waits).

Every function works on a batch of concealed count rows (uint8, 34 columns) and the
packed tables of :mod:`._shanten_tables`. The number of sets a row still needs follows
from its tile count ``n``: ``m = (n - 1) // 3`` for a waiting row (``n % 3 == 1``),
``(n - 2) // 3`` for a complete-size row (``n % 3 == 2``).

Distances (``dist``) are ``min |W - H|`` over the complete hands ``W`` of a form; shanten is
``dist - 1``. Per-form outputs use ``NO_FORM`` where the form cannot be reached (called
melds, or a form the rule set does not have).

Rows are processed in blocks of ``BLK`` (64) hands: the table words are gathered per row,
then every value is laid out ``[part, field, lane]`` so that the min-plus combinations of
the four parts and the knitted-form arithmetic run as SIMD byte operations over the lanes
(:func:`_block`); the per-row work left is the wait masks (:func:`_waits_block`). The field
count is a literal so that Numba/LLVM unroll the combination loops.

Rows are validated on the way (a count above 4, a total that no hand of the rule set has,
a tile outside the rule set): the kernels stop at the first bad row and return
``(row, reason)``; ``(-1, 0)`` means every row was fine.
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel
from ._shanten_tables import AUX_KNIT_SHIFT, AUX_ORPHAN_PAIR_SHIFT, AUX_ORPHAN_SHIFT

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

from ._decompose import KNITTED_PERMS as PERMS  # noqa: E402  (one definition)
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
PW5 = np.array([1, 5, 25, 125, 625, 3125, 15625, 78125, 390625], dtype=np.int64)

# seven pairs class moves: for a rank held c times, pairs gained / "one tile from a pair"
_PC = np.array([0, 0, 1, 1, 2], dtype=np.int64)
_AC = np.array([0, 1, 0, 1, 0], dtype=np.int64)
_TRIP = np.array([3, 2, 1, 0, 0], dtype=np.int64)


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
def _knit_field(aux, g):
    return np.int64((aux >> np.uint64(AUX_KNIT_SHIFT + 9 * g)) & np.uint64(511))


# ---------------------------------------------------------------------------------
# one row
# ---------------------------------------------------------------------------------
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
# block kernels: BLK hands at a time, values laid out [row, field, lane] so that the
# min-plus combinations run as SIMD byte operations over the lanes
# ---------------------------------------------------------------------------------
BLK = 64
INF8 = 31            # "unreachable" inside a part (disabled suits); any sum using it loses
# rows of the V scratch array
R_A = 4              # parts 0+1
R_B = 5              # parts 0+1+2
R_C = 6              # parts 0+1+2+3 (pair fields only: all set counts)
R_S2 = 7             # parts 2+3
R_S1 = 8             # parts 1+2+3
R_O1 = 9             # parts 0+2+3 (all but part 1)
R_O2 = 10            # parts 0+1+3 (all but part 2)
N_ROWS = 11
NK = 12              # fields 2m + p for m = 0..5: one compiled shape for every rule set
DISABLED_WORD = np.uint64(sum(INF8 << (5 * k) for k in range(1, 12)))


@kernel(inline="always")
def _comb_blk(V, x, y, z, nk):
    """V[z] = V[x] (+) V[y] (min-plus over set counts, pair at most once), every lane."""
    nj = nk // 2
    for j in range(nj):
        for l in range(BLK):
            V[z, 2 * j, l] = INF8 * 4
            V[z, 2 * j + 1, l] = INF8 * 4
        for a in range(j + 1):
            b = j - a
            for l in range(BLK):
                x0 = V[x, 2 * a, l]
                x1 = V[x, 2 * a + 1, l]
                y0 = V[y, 2 * b, l]
                y1 = V[y, 2 * b + 1, l]
                V[z, 2 * j, l] = min(V[z, 2 * j, l], np.uint8(x0 + y0))
                V[z, 2 * j + 1, l] = min(V[z, 2 * j + 1, l], min(np.uint8(x0 + y1), np.uint8(x1 + y0)))


@kernel(inline="always")
def _pair_final_blk(V, x, y, z, nk):
    """V[z, 2j+1] = best of V[x] (+) V[y] at (j sets, 1 pair), every j."""
    nj = nk // 2
    for j in range(nj):
        for l in range(BLK):
            V[z, 2 * j + 1, l] = INF8 * 4
        for a in range(j + 1):
            b = j - a
            for l in range(BLK):
                t = min(np.uint8(V[x, 2 * a, l] + V[y, 2 * b + 1, l]),
                        np.uint8(V[x, 2 * a + 1, l] + V[y, 2 * b, l]))
                V[z, 2 * j + 1, l] = min(V[z, 2 * j + 1, l], t)


@kernel(inline="always")
def _block(counts, b0, nb, form_mask, max_sets, hand_size, two_player, SSH, HSH,
           V, W, AUX, CODES, M, TOT, FD, BEST, nk, SMK, HMK, MW, want_mk, KF, KS):
    """Forms of rows b0..b0+nb-1: FD[f, l] distances (INF when unreachable), BEST[l] the
    minimum, M[l] sets needed, CODES[s, l]. Returns (bad_lane, reason) or (-1, 0).
    ``nk`` = 2 * (max_sets + 1), passed as a literal so the loops are unrolled."""
    # 1. codes, validation, table words (scalar)
    for l in range(BLK):
        if l >= nb:
            for s in range(4):
                W[s, l] = np.uint64(0)
                AUX[s, l] = np.uint64(0)
                CODES[s, l] = 0
            M[l] = max_sets
            TOT[l] = 0
            continue
        h = b0 + l
        total = 0
        bad = 0
        for s in range(4):
            base = 9 * s
            nd = 9 if s < 3 else 7
            code = 0
            for i in range(nd - 1, -1, -1):
                x = np.int64(counts[h, base + i])
                if x > 4:
                    bad = BAD_COUNT
                code = code * 5 + x
                total += x
            CODES[s, l] = code
        if bad:
            return l, bad
        if two_player and (CODES[1, l] != 0 or CODES[2, l] != 0):
            return l, BAD_TILE
        m = _sets_needed(total, max_sets, hand_size)
        if m < 0:
            return l, BAD_TOTAL
        M[l] = m
        TOT[l] = total
        for s in range(3):
            if two_player and s > 0:
                W[s, l] = DISABLED_WORD
                AUX[s, l] = np.uint64(0)
            else:
                W[s, l] = SSH[CODES[s, l], 0]
                AUX[s, l] = SSH[CODES[s, l], 1]
        W[3, l] = HSH[CODES[3, l], 0]
        AUX[3, l] = HSH[CODES[3, l], 1]
        if want_mk:
            # the wait masks, loaded early so that the loads overlap
            for s in range(3):
                MW[s, 0, l] = SMK[CODES[s, l], 0]
                MW[s, 1, l] = SMK[CODES[s, l], 1]
            MW[3, 0, l] = HMK[CODES[3, l], 0]
            MW[3, 1, l] = HMK[CODES[3, l], 1]
    # 2. unpack the distance fields (SIMD)
    for s in range(4):
        for k in range(nk):
            sh = np.uint64(5 * k)
            for l in range(BLK):
                V[s, k, l] = np.uint8((W[s, l] >> sh) & np.uint64(31))
    # 3. regular form
    _comb_blk(V, 0, 1, R_A, nk)
    _comb_blk(V, R_A, 2, R_B, nk)
    _pair_final_blk(V, R_B, 3, R_C, nk)
    for l in range(BLK):
        FD[FORM_REGULAR, l] = V[R_C, 2 * M[l] + 1, l]
    # 4. special forms (SIMD over lanes; applied below where the meld count allows)
    kinds = 16 if two_player else 34
    if form_mask & ((1 << FORM_SEVEN_PAIRS) | (1 << FORM_SEVEN_PAIRS_TRIPLET) | (1 << FORM_THIRTEEN_ORPHANS)):
        for l in range(BLK):
            sw = AUX[0, l] + AUX[1, l] + AUX[2, l] + AUX[3, l]
            n1 = np.int64(sw & np.uint64(63))
            n2 = np.int64((sw >> np.uint64(6)) & np.uint64(63))
            n3 = np.int64((sw >> np.uint64(12)) & np.uint64(63))
            n4 = np.int64((sw >> np.uint64(18)) & np.uint64(63))
            if form_mask & (1 << FORM_SEVEN_PAIRS):
                FD[FORM_SEVEN_PAIRS, l] = _pairs_dist(n1, n2, n3, n4)
            if form_mask & (1 << FORM_SEVEN_PAIRS_TRIPLET):
                FD[FORM_SEVEN_PAIRS_TRIPLET, l] = _pairs_triplet_dist(kinds - n1 - n2 - n3 - n4,
                                                                      n1, n2, n3, n4)
            if form_mask & (1 << FORM_THIRTEEN_ORPHANS):
                orph = np.int64((sw >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
                opair = np.int64((sw >> np.uint64(AUX_ORPHAN_PAIR_SHIFT)) & np.uint64(7))
                FD[FORM_THIRTEEN_ORPHANS, l] = 14 - orph - min(opair, 1)
    if form_mask & ((1 << FORM_HONORS_KNITTED) | (1 << FORM_KNITTED_STRAIGHT)):
        # knitted fields as bytes: KF[q, 0..3, l] = held, D01, D10, D11 of suit q // 3
        # with knitted group q % 3 removed (SIMD over lanes)
        for q in range(9):
            sft = np.uint64(AUX_KNIT_SHIFT + 9 * (q % 3))
            for l in range(BLK):
                f = AUX[q // 3, l] >> sft
                KF[q, 0, l] = np.uint8(f & np.uint64(3))
                KF[q, 1, l] = np.uint8((f >> np.uint64(2)) & np.uint64(3))
                KF[q, 2, l] = np.uint8((f >> np.uint64(4)) & np.uint64(3))
                KF[q, 3, l] = np.uint8((f >> np.uint64(6)) & np.uint64(7))
        for l in range(BLK):
            KS[0, l] = np.uint8(INF)
            KS[1, l] = np.uint8(INF)
            KS[2, l] = np.uint8(0)
        for p in range(6):
            qa = PERMS[p, 0]
            qb = 3 + PERMS[p, 1]
            qc = 6 + PERMS[p, 2]
            for l in range(BLK):
                K = np.uint8(KF[qa, 0, l] + KF[qb, 0, l] + KF[qc, 0, l])
                a01 = KF[qa, 1, l]
                b01 = KF[qb, 1, l]
                c01 = KF[qc, 1, l]
                h01 = V[3, 1, l]
                r0 = min(min(a01, b01), min(c01, h01))
                r1 = min(min(KF[qa, 3, l], KF[qb, 3, l]), min(KF[qc, 3, l], V[3, 3, l]))
                r1 = min(r1, np.uint8(KF[qa, 2, l] + min(min(b01, c01), h01)))
                r1 = min(r1, np.uint8(KF[qb, 2, l] + min(min(a01, c01), h01)))
                r1 = min(r1, np.uint8(KF[qc, 2, l] + min(min(a01, b01), h01)))
                r1 = min(r1, np.uint8(V[3, 2, l] + min(min(a01, b01), c01)))
                KS[0, l] = min(KS[0, l], np.uint8(np.uint8(9 - K) + r0))
                KS[1, l] = min(KS[1, l], np.uint8(np.uint8(9 - K) + r1))
                KS[2, l] = max(KS[2, l], K)
        for l in range(BLK):
            hon = np.int64((AUX[3, l] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            FD[FORM_HONORS_KNITTED, l] = 14 - min(np.int64(KS[2, l]) + hon, 14)
            FD[FORM_KNITTED_STRAIGHT, l] = np.int64(KS[1, l] if M[l] == max_sets else KS[0, l])
    # 5. which forms apply to each row, and the minimum
    for l in range(nb):
        m = M[l]
        best = FD[FORM_REGULAR, l]
        for f in range(1, N_FORMS):
            ok = (form_mask >> f) & 1
            if f == FORM_KNITTED_STRAIGHT:
                ok = ok and m >= max_sets - 1
            else:
                ok = ok and m == max_sets
            if ok:
                best = min(best, FD[f, l])
            else:
                FD[f, l] = INF
        BEST[l] = best
    return -1, 0


@kernel(inline="always")
def _others(V, nk):
    """For each part, the combination of the three others: O0 = 1+2+3 (R_S1),
    O1 = 0+2+3 (R_O1), O2 = 0+1+3 (R_O2), O3 = 0+1+2 (R_B, already there)."""
    _comb_blk(V, 2, 3, R_S2, nk)
    _comb_blk(V, 1, R_S2, R_S1, nk)
    _comb_blk(V, 0, R_S2, R_O1, nk)
    _comb_blk(V, R_A, 3, R_O2, nk)


@kernel
def shanten_batch(counts, form_mask, max_sets, hand_size, two_player, SSH, HSH, out, per_form):
    """out[h] = shanten (int8); per_form (N, 6) int8 filled when it has N rows (else
    shape (0, 6)). Returns (bad_row, reason), (-1, 0) when all rows are valid."""
    n = counts.shape[0]
    want = per_form.shape[0] == n and n > 0
    V = np.zeros((N_ROWS, 12, BLK), dtype=np.uint8)
    W = np.zeros((4, BLK), dtype=np.uint64)
    AUX = np.zeros((4, BLK), dtype=np.uint64)
    CODES = np.zeros((4, BLK), dtype=np.int64)
    M = np.zeros(BLK, dtype=np.int64)
    TOT = np.zeros(BLK, dtype=np.int64)
    FD = np.zeros((N_FORMS, BLK), dtype=np.int64)
    BEST = np.zeros(BLK, dtype=np.int64)
    MW = np.zeros((4, 2, BLK), dtype=np.uint64)   # unused here (no wait masks)
    KF = np.zeros((9, 4, BLK), dtype=np.uint8)
    KS = np.zeros((3, BLK), dtype=np.uint8)
    for b0 in range(0, n, BLK):
        nb = min(BLK, n - b0)
        bad, reason = _block(counts, b0, nb, form_mask, max_sets, hand_size, two_player,
                             SSH, HSH, V, W, AUX, CODES, M, TOT, FD, BEST, NK,
                             SSH, HSH, MW, False, KF, KS)
        if bad >= 0:
            return b0 + bad, reason
        for l in range(nb):
            out[b0 + l] = BEST[l] - 1
        if want:
            for l in range(nb):
                for f in range(N_FORMS):
                    if (form_mask >> f) & 1 and FD[f, l] < INF:
                        per_form[b0 + l, f] = FD[f, l] - 1
                    else:
                        per_form[b0 + l, f] = NO_FORM
    return -1, 0


@kernel(inline="always")
def _mask_bits(w, k):
    return np.int64((w >> np.uint64(9 * k)) & np.uint64(511))


@kernel(inline="always")
def _suit_mask(SMK, HMK, s, code, k):
    """9-bit (7 for honors) mask of ranks lowering field k of part s at ``code``."""
    if s == 3:
        tbl = HMK
    else:
        tbl = SMK
    if k < 6:
        return _mask_bits(tbl[code, 0], k)
    return _mask_bits(tbl[code, 1], k - 6)


def _knit_masks():
    out = np.zeros(6, dtype=np.uint64)
    for p in range(6):
        bits = 0
        for s in range(3):
            g = int(PERMS[p, s])
            for j in range(3):
                bits |= 1 << (9 * s + g + 3 * j)
        out[p] = bits
    return out


KNIT_MASKS = _knit_masks()
HONOR_BITS = np.uint64(((1 << 7) - 1) << 27)
ORPHAN_BITS = np.uint64(sum(1 << int(t) for t in ORPHANS))
TWO_PLAYER_BITS = np.uint64(((1 << 9) - 1) | (((1 << 7) - 1) << 27))
EXPAND = np.array([[(b >> q) & 1 for q in range(8)] for b in range(256)], dtype=np.uint8)


@kernel
def _block_waits(counts, b0, nb, form_mask, max_sets, hand_size, two_player, SSH, HSH,
                 V, W, AUX, CODES, M, TOT, FD, BEST, SMK, HMK, MW, KF, KS):
    """:func:`_block` with the wait masks, then the combinations of the other parts."""
    bad, reason = _block(counts, b0, nb, form_mask, max_sets, hand_size, two_player, SSH, HSH,
                         V, W, AUX, CODES, M, TOT, FD, BEST, NK, SMK, HMK, MW, True, KF, KS)
    # (a literal field count: with 10 the loops unroll and vectorise; 12 is Taiwan's)
    if max_sets == 4:
        _others(V, 10)
    else:
        _others_any(V, NK)
    return bad, reason


@kernel
def _others_any(V, nk):
    """:func:`_others` with a run-time field count (Taiwan's 12; compiled once, small)."""
    _others(V, nk)


@kernel
def _waits_block(counts, visible, b0, nb, form_mask, max_sets, hand_size, two_player,
                 SSH, SMK, HSH, HMK, shanten_out, mask_out, live_out, nk,
                 V, W, AUX, CODES, M, TOT, FD, BEST, MW, OPT, CM, eff_class, rv, sub, cnt,
                 vrow_step, KF, KS):
    # the forms, then for each part the combination of the others
    bad, reason = _block_waits(counts, b0, nb, form_mask, max_sets, hand_size, two_player,
                               SSH, HSH, V, W, AUX, CODES, M, TOT, FD, BEST, SMK, HMK, MW, KF, KS)
    if bad >= 0:
        return b0 + bad, reason
    # optimal splits of the regular form, as bits k = 2j + p per part (SIMD when every
    # row of the block needs the same number of sets)
    uniform = True
    for l in range(nb):
        if M[l] != M[0]:
            uniform = False
    for s in range(4):
        for l in range(BLK):
            OPT[s, l] = 0
    if uniform:
        m0 = M[0]
        for l in range(BLK):
            V[R_C, 0, l] = np.uint8(BEST[l])
        for s in range(4):
            o = R_S1 if s == 0 else (R_O1 if s == 1 else (R_O2 if s == 2 else R_B))
            for j in range(m0 + 1):
                for p in range(2):
                    k = 2 * j + p
                    ko = 2 * (m0 - j) + 1 - p
                    for l in range(BLK):
                        hit = np.uint8(V[s, k, l] + V[o, ko, l]) == V[R_C, 0, l]
                        OPT[s, l] |= np.uint16(hit) << np.uint16(k)
    else:
        for l in range(nb):
            m = M[l]
            for s in range(4):
                o = R_S1 if s == 0 else (R_O1 if s == 1 else (R_O2 if s == 2 else R_B))
                for j in range(m + 1):
                    for p in range(2):
                        k = 2 * j + p
                        if np.int64(V[s, k, l]) + np.int64(V[o, 2 * (m - j) + 1 - p, l]) == BEST[l]:
                            OPT[s, l] |= np.uint16(1 << k)
    kinds = 16 if two_player else 34
    for l in range(nb):
        h = b0 + l
        if TOT[l] % 3 != 1:
            return h, BAD_WAIT_TOTAL
        m = M[l]
        best = BEST[l]
        shanten_out[h] = best - 1
        eff = np.uint64(0)
        # ---- regular
        for s in range(4):
            opt = np.int64(OPT[s, l])
            if opt == 0 or (two_player and (s == 1 or s == 2)):
                continue
            bits = 0
            k = 0
            while opt:
                if opt & 1:
                    if k < 6:
                        bits |= _mask_bits(MW[s, 0, l], k)
                    else:
                        bits |= _mask_bits(MW[s, 1, l], k - 6)
                opt >>= 1
                k += 1
            eff |= np.uint64(bits) << np.uint64(9 * s)
        no_melds = m == max_sets
        sp = no_melds and (form_mask & (1 << FORM_SEVEN_PAIRS)) != 0 and FD[FORM_SEVEN_PAIRS, l] == best
        spt = (no_melds and (form_mask & (1 << FORM_SEVEN_PAIRS_TRIPLET)) != 0
               and FD[FORM_SEVEN_PAIRS_TRIPLET, l] == best)
        orph = (no_melds and (form_mask & (1 << FORM_THIRTEEN_ORPHANS)) != 0
                and FD[FORM_THIRTEEN_ORPHANS, l] == best)
        hk = (no_melds and (form_mask & (1 << FORM_HONORS_KNITTED)) != 0
              and FD[FORM_HONORS_KNITTED, l] == best)
        ks = ((form_mask & (1 << FORM_KNITTED_STRAIGHT)) != 0 and m >= max_sets - 1
              and FD[FORM_KNITTED_STRAIGHT, l] == best)
        if sp or spt or orph or hk or ks:
            # tiles by count: CM[c] = bits of the tiles held c times
            for c in range(5):
                CM[c] = np.uint64(0)
            for t in range(34):
                CM[counts[h, t]] |= np.uint64(1) << np.uint64(t)
            # ---- seven pairs (+ triplet): the count classes whose draw gains
            for fi in range(2):
                form = FORM_SEVEN_PAIRS if fi == 0 else FORM_SEVEN_PAIRS_TRIPLET
                if (form == FORM_SEVEN_PAIRS and sp) or (form == FORM_SEVEN_PAIRS_TRIPLET and spt):
                    sw = AUX[0, l] + AUX[1, l] + AUX[2, l] + AUX[3, l]
                    for c in range(1, 5):
                        cnt[c] = np.int64((sw >> np.uint64(6 * (c - 1))) & np.uint64(63))
                    cnt[0] = kinds - cnt[1] - cnt[2] - cnt[3] - cnt[4]
                    for c in range(4):
                        if cnt[c] == 0:
                            continue
                        cnt[c] -= 1
                        cnt[c + 1] += 1
                        d = _special_pairs_dist(form, cnt[0], cnt[1], cnt[2], cnt[3], cnt[4])
                        cnt[c] += 1
                        cnt[c + 1] -= 1
                        if d < best:
                            eff |= CM[c]
            # ---- thirteen orphans: a missing orphan, or a held one when no pair yet
            if orph:
                pair = (CM[2] | CM[3] | CM[4]) & ORPHAN_BITS
                eff |= CM[0] & ORPHAN_BITS
                if pair == 0:
                    eff |= CM[1] & ORPHAN_BITS
            # ---- honors and knitted: missing tiles of the best permutations
            if hk:
                hon = np.int64((AUX[3, l] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
                for p in range(6):
                    K = 0
                    for s in range(3):
                        K += _knit_field(AUX[s, l], PERMS[p, s]) & 3
                    if 14 - min(K + hon, 14) == best:
                        eff |= CM[0] & (KNIT_MASKS[p] | HONOR_BITS)
            # ---- knitted straight: missing knitted tiles + the remainder's useful tiles
            if ks:
                target_set = m - (max_sets - 1)
                kse = np.uint64(0)
                for p in range(6):
                    K = 0
                    for s in range(3):
                        f = _knit_field(AUX[s, l], PERMS[p, s])
                        K += f & 3
                        rv[s, 0] = 0
                        rv[s, 1] = (f >> 2) & 3
                        rv[s, 2] = (f >> 4) & 3
                        rv[s, 3] = (f >> 6) & 7
                    for k in range(4):
                        rv[3, k] = np.int64(V[3, k, l])
                    R = INF
                    if target_set == 0:
                        for s in range(4):
                            R = min(R, rv[s, 1])
                    else:
                        for s in range(4):
                            R = min(R, rv[s, 3])
                            for t in range(4):
                                if t != s:
                                    R = min(R, rv[s, 2] + rv[t, 1])
                    if 9 - K + R != best:
                        continue
                    kse |= CM[0] & KNIT_MASKS[p]
                    # the remainder: one copy of each held knitted tile removed
                    for s in range(3):
                        g = PERMS[p, s]
                        sub[s] = CODES[s, l]
                        for j in range(3):
                            if counts[h, 9 * s + g + 3 * j] > 0:
                                sub[s] -= PW5[g + 3 * j]
                    sub[3] = CODES[3, l]
                    for s in range(4):
                        bits = 0
                        if target_set == 0:
                            if rv[s, 1] == R:
                                bits |= _suit_mask(SMK, HMK, s, sub[s], 1)
                        else:
                            if rv[s, 3] == R:
                                bits |= _suit_mask(SMK, HMK, s, sub[s], 3)
                            for t in range(4):
                                if t != s and rv[s, 2] + rv[t, 1] == R:
                                    bits |= _suit_mask(SMK, HMK, s, sub[s], 2)
                                if t != s and rv[t, 2] + rv[s, 1] == R:
                                    bits |= _suit_mask(SMK, HMK, s, sub[s], 1)
                        kse |= np.uint64(bits) << np.uint64(9 * s)
                eff |= kse & ~CM[4]
        if two_player:
            eff &= TWO_PLAYER_BITS
        # ---- write out: the mask byte by byte, live copies of the waits
        for i in range(5):
            byte = np.int64((eff >> np.uint64(8 * i)) & np.uint64(255))
            for q in range(8):
                t = 8 * i + q
                if t < 34:
                    mask_out[h, t] = EXPAND[byte, q] != 0
        vr = h * vrow_step
        for t in range(34):
            lv = 4 - np.int64(counts[h, t]) - np.int64(visible[vr, t])
            live_out[h, t] = max(lv, 0) * np.int64(mask_out[h, t])
    return -1, 0


@kernel
def waits_batch(counts, visible, form_mask, max_sets, hand_size, two_player,
                SSH, SMK, HSH, HMK, shanten_out, mask_out, live_out):
    """For waiting rows (3m + 1 tiles): shanten, the tiles that lower it (mask_out, bool
    (N, 34)) and their live copies (live_out, int8, 0 where not a wait).
    ``visible`` is (N, 34) or (1, 34) (broadcast). Returns (bad_row, reason)."""
    n = counts.shape[0]
    V = np.zeros((N_ROWS, 12, BLK), dtype=np.uint8)
    W = np.zeros((4, BLK), dtype=np.uint64)
    AUX = np.zeros((4, BLK), dtype=np.uint64)
    CODES = np.zeros((4, BLK), dtype=np.int64)
    M = np.zeros(BLK, dtype=np.int64)
    TOT = np.zeros(BLK, dtype=np.int64)
    FD = np.zeros((N_FORMS, BLK), dtype=np.int64)
    BEST = np.zeros(BLK, dtype=np.int64)
    MW = np.zeros((4, 2, BLK), dtype=np.uint64)
    OPT = np.zeros((4, BLK), dtype=np.uint16)
    KF = np.zeros((9, 4, BLK), dtype=np.uint8)
    KS = np.zeros((3, BLK), dtype=np.uint8)
    CM = np.zeros(5, dtype=np.uint64)
    eff_class = np.zeros(5, dtype=np.bool_)
    rv = np.zeros((4, 4), dtype=np.int64)
    sub = np.zeros(4, dtype=np.int64)
    cnt = np.zeros(5, dtype=np.int64)
    vrow_step = 1 if visible.shape[0] == n else 0
    for b0 in range(0, n, BLK):
        nb = min(BLK, n - b0)
        bad, reason = _waits_block(counts, visible, b0, nb, form_mask, max_sets, hand_size,
                                   two_player, SSH, SMK, HSH, HMK, shanten_out, mask_out,
                                   live_out, NK, V, W, AUX, CODES, M, TOT, FD,
                                   BEST, MW, OPT, CM, eff_class, rv, sub, cnt, vrow_step,
                                   KF, KS)
        if bad >= 0:
            return bad, reason
    return -1, 0
