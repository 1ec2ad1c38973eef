"""Compiled hand evaluation for the built-in bots: shanten and effective tiles of one hand
at a time, read from the project's per-suit shanten tables
(``mjfast/kernels/_shanten_tables.py``) with scalar code.

The values are those of the batch kernel (``mjfast/kernels/_shanten.py``, ``waits_batch``:
shanten over the rule set's forms, the tiles that lower it, their live copies); the block
kernel works on 64 hands at a time and costs as much for one hand as for 64, which is what a
bot needs at each decision (one hand, or the 14 hands after each discard). The code is the
kernel's arithmetic for one row; ``tests/test_bots.py`` checks it against ``waits_batch``
on random hands of every rule set.

A bot context ``bc`` (:func:`make_bot_context`, one per worker) is a tuple of arrays:
``(params int64[8], SSH, SMK, HSH, HMK, V int64[20, 12], KF int64[9, 4], U uint64[20],
I int64[32], cand int64[R, 4], emask int64[R])``. Candidate rows (:func:`discard_options`):
``cand[i] = (tile, shanten after, live effective copies after, 0)``, ``emask[i]`` the bits of
its effective tiles. The compiled loop unpacks the tuple once per deal and passes the arrays
one by one (a tuple of arrays is costly to pass to a function called per decision).
"""
from __future__ import annotations

import numpy as np

from ..kernels import _shanten as K
from ..kernels import kernel
from ..kernels._shanten import (DISABLED_WORD, HONOR_BITS, KNIT_MASKS, ORPHAN_BITS, PERMS,
                                PW5, TWO_PLAYER_BITS, _pairs_dist, _pairs_triplet_dist,
                                _special_pairs_dist)
from ..kernels._shanten_tables import (AUX_KNIT_SHIFT, AUX_ORPHAN_PAIR_SHIFT,
                                       AUX_ORPHAN_SHIFT, get_tables)
from ..rules.registry import (FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT, FORM_SEVEN_PAIRS,
                              FORM_SEVEN_PAIRS_TRIPLET, FORM_THIRTEEN_ORPHANS, get_rules)

R = 64                     # candidate rows
P_FORM_MASK, P_SETS, P_HAND, P_TWO = 0, 1, 2, 3
C_TILE, C_SHANTEN, C_LIVE, C_EXTRA = 0, 1, 2, 3
INF = 60
BIG = 124                  # "unreachable" sum (four parts at 31)
# rows of V: parts 0..3, then combinations
V_A, V_B, V_S2, V_O0, V_O1, V_O2 = 4, 5, 6, 7, 8, 9
SP_BITS = (1 << FORM_SEVEN_PAIRS) | (1 << FORM_SEVEN_PAIRS_TRIPLET) | (1 << FORM_THIRTEEN_ORPHANS)
KN_BITS = (1 << FORM_HONORS_KNITTED) | (1 << FORM_KNITTED_STRAIGHT)


def make_bot_context(rules: str):
    """Tables, parameters and scratch for the bots' evaluation (one per thread)."""
    rs = get_rules(rules)
    t = get_tables()
    params = np.zeros(8, dtype=np.int64)
    params[P_FORM_MASK] = sum(1 << f for f in rs.forms)
    params[P_SETS] = rs.sets
    params[P_HAND] = rs.hand_size
    params[P_TWO] = int(len(rs.kinds) == 16)
    return (params, t["suit_sh"], t["suit_mk"], t["honor_sh"], t["honor_mk"],
            np.zeros((20, 12), np.int64), np.zeros((9, 4), np.int64), np.zeros(20, np.uint64),
            np.zeros(32, np.int64), np.zeros((R, 4), np.int64), np.zeros(R, np.int64))


@kernel
def _comb(V, x, y, z, nj):
    """V[z] = V[x] (+) V[y]: min-plus over set counts 0..nj-1, the pair at most once."""
    for j in range(nj):
        b0 = BIG
        b1 = BIG
        for a in range(j + 1):
            b = j - a
            x0 = V[x, 2 * a]
            x1 = V[x, 2 * a + 1]
            y0 = V[y, 2 * b]
            y1 = V[y, 2 * b + 1]
            b0 = min(b0, x0 + y0)
            b1 = min(b1, min(x0 + y1, x1 + y0))
        V[z, 2 * j] = b0
        V[z, 2 * j + 1] = b1


@kernel
def hand_codes(c, codes):
    """Base-5 codes of the four parts of ``c`` (34 counts) into ``codes[0..3]``; returns
    the tile count."""
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


@kernel
def _opt_bits(V, s, o, m, best):
    """Fields k = 2j + p of part ``s`` in an optimal regular split (other parts: row o)."""
    opt = 0
    for j in range(m + 1):
        for p in range(2):
            k = 2 * j + p
            if V[s, k] + V[o, 2 * (m - j) + 1 - p] == best:
                opt |= 1 << k
    return opt


@kernel
def _mk(SMK, HMK, s, code, k):
    """9-bit (7 for honors) mask of the ranks lowering field k of part s at ``code``."""
    if s == 3:
        w = HMK[code, 0] if k < 6 else HMK[code, 1]
    else:
        w = SMK[code, 0] if k < 6 else SMK[code, 1]
    kk = k if k < 6 else k - 6
    return np.int64((w >> np.uint64(9 * kk)) & np.uint64(511))


@kernel
def row_eval(c, codes, total, fm, max_sets, two, SSH, SMK, HSH, HMK, V, KF, U, I, want_mask):
    """Shanten and effective-tile bits (int64, bit t = tile t) of the waiting-size hand
    ``c`` (34 counts, 3m + 1 tiles) whose part codes are ``codes[0..3]``: the batch
    kernel's values (``waits_batch``) for one row. ``want_mask`` False: bits 0."""
    m = (total - 1) // 3
    nj = m + 1
    nf = max(2 * nj, 4)
    for s in range(4):
        code = codes[s]
        if s == 3:
            w = HSH[code, 0]
            a = HSH[code, 1]
        elif two and s > 0:
            w = DISABLED_WORD
            a = np.uint64(0)
        else:
            w = SSH[code, 0]
            a = SSH[code, 1]
        U[4 + s] = a
        for k in range(nf):
            V[s, k] = np.int64((w >> np.uint64(5 * k)) & np.uint64(31))
    _comb(V, 0, 1, V_A, nj)
    _comb(V, V_A, 2, V_B, nj)
    reg = BIG
    for j in range(nj):
        for p in range(2):
            reg = min(reg, V[3, 2 * j + p] + V[V_B, 2 * (m - j) + 1 - p])
    best = reg
    no_melds = m == max_sets
    kinds = 16 if two else 34
    fd_sp = INF
    fd_spt = INF
    fd_or = INF
    fd_hk = INF
    fd_ks = INF
    if no_melds and (fm & SP_BITS) != 0:
        sw = U[4] + U[5] + U[6] + U[7]
        n1 = np.int64(sw & np.uint64(63))
        n2 = np.int64((sw >> np.uint64(6)) & np.uint64(63))
        n3 = np.int64((sw >> np.uint64(12)) & np.uint64(63))
        n4 = np.int64((sw >> np.uint64(18)) & np.uint64(63))
        if fm & (1 << FORM_SEVEN_PAIRS):
            fd_sp = _pairs_dist(n1, n2, n3, n4)
        if fm & (1 << FORM_SEVEN_PAIRS_TRIPLET):
            fd_spt = _pairs_triplet_dist(kinds - n1 - n2 - n3 - n4, n1, n2, n3, n4)
        if fm & (1 << FORM_THIRTEEN_ORPHANS):
            orph = np.int64((sw >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            opair = np.int64((sw >> np.uint64(AUX_ORPHAN_PAIR_SHIFT)) & np.uint64(7))
            fd_or = 14 - orph - min(opair, 1)
    if (fm & KN_BITS) != 0 and m >= max_sets - 1:
        for q in range(9):
            f = U[4 + q // 3] >> np.uint64(AUX_KNIT_SHIFT + 9 * (q % 3))
            KF[q, 0] = np.int64(f & np.uint64(3))
            KF[q, 1] = np.int64((f >> np.uint64(2)) & np.uint64(3))
            KF[q, 2] = np.int64((f >> np.uint64(4)) & np.uint64(3))
            KF[q, 3] = np.int64((f >> np.uint64(6)) & np.uint64(7))
        ks0 = INF
        ks1 = INF
        kmax = 0
        h01 = V[3, 1]
        for p in range(6):
            qa = PERMS[p, 0]
            qb = 3 + PERMS[p, 1]
            qc = 6 + PERMS[p, 2]
            kk = KF[qa, 0] + KF[qb, 0] + KF[qc, 0]
            a01 = KF[qa, 1]
            b01 = KF[qb, 1]
            c01 = KF[qc, 1]
            r0 = min(min(a01, b01), min(c01, h01))
            r1 = min(min(KF[qa, 3], KF[qb, 3]), min(KF[qc, 3], V[3, 3]))
            r1 = min(r1, KF[qa, 2] + min(min(b01, c01), h01))
            r1 = min(r1, KF[qb, 2] + min(min(a01, c01), h01))
            r1 = min(r1, KF[qc, 2] + min(min(a01, b01), h01))
            r1 = min(r1, V[3, 2] + min(min(a01, b01), c01))
            ks0 = min(ks0, 9 - kk + r0)
            ks1 = min(ks1, 9 - kk + r1)
            kmax = max(kmax, kk)
        if no_melds and (fm & (1 << FORM_HONORS_KNITTED)) != 0:
            hon = np.int64((U[7] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            fd_hk = 14 - min(kmax + hon, 14)
        if (fm & (1 << FORM_KNITTED_STRAIGHT)) != 0:
            fd_ks = ks1 if no_melds else ks0
    best = min(best, min(min(fd_sp, fd_spt), min(fd_or, min(fd_hk, fd_ks))))
    if not want_mask:
        return best - 1, np.int64(0)
    eff = np.int64(0)
    # ---- regular: the masks of the fields in an optimal split, part by part
    if reg == best:
        _comb(V, 2, 3, V_S2, nj)
        _comb(V, 1, V_S2, V_O0, nj)
        _comb(V, 0, V_S2, V_O1, nj)
        _comb(V, V_A, 3, V_O2, nj)
        for s in range(4):
            if two and (s == 1 or s == 2):
                continue
            o = V_O0 if s == 0 else (V_O1 if s == 1 else (V_O2 if s == 2 else V_B))
            opt = _opt_bits(V, s, o, m, best)
            bits = 0
            k = 0
            while opt:
                if opt & 1:
                    bits |= _mk(SMK, HMK, s, codes[s], k)
                opt >>= 1
                k += 1
            eff |= np.int64(bits) << np.int64(9 * s)
    sp = fd_sp == best
    spt = fd_spt == best
    orp = fd_or == best
    hk = fd_hk == best
    ks = fd_ks == best
    if sp or spt or orp or hk or ks:
        CM = U[8:13]
        for x in range(5):
            CM[x] = np.uint64(0)
        for t in range(34):
            CM[c[t]] |= np.uint64(1) << np.uint64(t)
        ueff = np.uint64(eff)
        # ---- seven pairs (+ triplet): the count classes whose draw gains
        if sp or spt:
            sw = U[4] + U[5] + U[6] + U[7]
            cnt = I[16:21]
            for fi in range(2):
                form = FORM_SEVEN_PAIRS if fi == 0 else FORM_SEVEN_PAIRS_TRIPLET
                if (fi == 0 and sp) or (fi == 1 and spt):
                    for x in range(1, 5):
                        cnt[x] = np.int64((sw >> np.uint64(6 * (x - 1))) & np.uint64(63))
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
                            ueff |= CM[x]
        # ---- thirteen orphans: a missing orphan, or a held one when no pair yet
        if orp:
            pair = (CM[2] | CM[3] | CM[4]) & ORPHAN_BITS
            ueff |= CM[0] & ORPHAN_BITS
            if pair == 0:
                ueff |= CM[1] & ORPHAN_BITS
        # ---- honors and knitted: missing tiles of the best permutations
        if hk:
            hon = np.int64((U[7] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            for p in range(6):
                kk = 0
                for s in range(3):
                    kk += K._knit_field(U[4 + s], PERMS[p, s]) & 3
                if 14 - min(kk + hon, 14) == best:
                    ueff |= CM[0] & (KNIT_MASKS[p] | HONOR_BITS)
        # ---- knitted straight: missing knitted tiles + the remainder's useful tiles
        if ks:
            target_set = m - (max_sets - 1)
            kse = np.uint64(0)
            rv = I[0:16]
            sub = I[24:28]
            for p in range(6):
                kk = 0
                for s in range(3):
                    f = K._knit_field(U[4 + s], PERMS[p, s])
                    kk += f & 3
                    rv[4 * s + 0] = 0
                    rv[4 * s + 1] = (f >> 2) & 3
                    rv[4 * s + 2] = (f >> 4) & 3
                    rv[4 * s + 3] = (f >> 6) & 7
                for x in range(4):
                    rv[12 + x] = V[3, x]
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
                for s in range(3):
                    g = PERMS[p, s]
                    sub[s] = codes[s]
                    for j in range(3):
                        if c[9 * s + g + 3 * j] > 0:
                            sub[s] -= PW5[g + 3 * j]
                sub[3] = codes[3]
                for s in range(4):
                    bits = 0
                    if target_set == 0:
                        if rv[4 * s + 1] == Rm:
                            bits |= _mk(SMK, HMK, s, sub[s], 1)
                    else:
                        if rv[4 * s + 3] == Rm:
                            bits |= _mk(SMK, HMK, s, sub[s], 3)
                        for t in range(4):
                            if t != s and rv[4 * s + 2] + rv[4 * t + 1] == Rm:
                                bits |= _mk(SMK, HMK, s, sub[s], 2)
                            if t != s and rv[4 * t + 2] + rv[4 * s + 1] == Rm:
                                bits |= _mk(SMK, HMK, s, sub[s], 1)
                    kse |= np.uint64(bits) << np.uint64(9 * s)
            ueff |= kse & ~CM[4]
        eff = np.int64(ueff)
    if two:
        eff &= np.int64(TWO_PLAYER_BITS)
    return best - 1, eff


@kernel
def live_count(c, vis, eff):
    """Live copies of the tiles in ``eff``: ``4 - held - visible`` (never below 0)."""
    tot = 0
    for t in range(34):
        if (eff >> t) & 1:
            lv = 4 - c[t] - vis[t]
            if lv > 0:
                tot += lv
    return tot


@kernel
def shanten_of(c, params, SSH, SMK, HSH, HMK, V, KF, U, I):
    """Shanten of one waiting-size hand ``c`` (34 counts)."""
    codes = I[28:32]
    total = hand_codes(c, codes)
    sh, eff = row_eval(c, codes, total, params[P_FORM_MASK], params[P_SETS],
                       params[P_TWO] != 0, SSH, SMK, HSH, HMK, V, KF, U, I, False)
    return sh


@kernel
def _load(V, U, row, s, code, two, SSH, HSH, nf):
    """Distance fields of part ``s`` at ``code`` into ``V[row, :nf]``; returns its AUX word."""
    if s == 3:
        w = HSH[code, 0]
        a = HSH[code, 1]
    elif two and s > 0:
        w = DISABLED_WORD
        a = np.uint64(0)
    else:
        w = SSH[code, 0]
        a = SSH[code, 1]
    for k in range(nf):
        V[row, k] = np.int64((w >> np.uint64(5 * k)) & np.uint64(31))
    return a


@kernel
def _special_best(V, KF, U, hrow, m, fm, max_sets, two, cur):
    """The lowest distance of the special forms open to a hand with part AUX words
    ``U[4..7]`` and honor fields ``V[hrow]`` (INF when none): the kernel's formulas. The
    knitted forms are skipped when a bound shows they exceed ``cur`` (the distance found
    so far), so the result is exact wherever it is ``<= cur``."""
    no_melds = m == max_sets
    best = INF
    if no_melds and (fm & SP_BITS) != 0:
        sw = U[4] + U[5] + U[6] + U[7]
        n1 = np.int64(sw & np.uint64(63))
        n2 = np.int64((sw >> np.uint64(6)) & np.uint64(63))
        n3 = np.int64((sw >> np.uint64(12)) & np.uint64(63))
        n4 = np.int64((sw >> np.uint64(18)) & np.uint64(63))
        if fm & (1 << FORM_SEVEN_PAIRS):
            best = min(best, _pairs_dist(n1, n2, n3, n4))
        if fm & (1 << FORM_SEVEN_PAIRS_TRIPLET):
            kinds = 16 if two else 34
            best = min(best, _pairs_triplet_dist(kinds - n1 - n2 - n3 - n4, n1, n2, n3, n4))
        if fm & (1 << FORM_THIRTEEN_ORPHANS):
            orph = np.int64((sw >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            opair = np.int64((sw >> np.uint64(AUX_ORPHAN_PAIR_SHIFT)) & np.uint64(7))
            best = min(best, 14 - orph - min(opair, 1))
    if (fm & KN_BITS) != 0 and m >= max_sets - 1:
        # a bound: the knitted ranks held are at most the best group of each suit (K);
        # the knitted straight needs at least 9 - K, honors and knitted 14 - K - honors
        ub = 0
        for q3 in range(3):
            g3 = 0
            for g in range(3):
                g3 = max(g3, np.int64((U[4 + q3] >> np.uint64(AUX_KNIT_SHIFT + 9 * g))
                                      & np.uint64(3)))
            ub += g3
        hon = np.int64((U[7] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
        if 9 - ub > min(cur, best) and 14 - min(ub + hon, 14) > min(cur, best):
            return best
        for q in range(9):
            f = U[4 + q // 3] >> np.uint64(AUX_KNIT_SHIFT + 9 * (q % 3))
            KF[q, 0] = np.int64(f & np.uint64(3))
            KF[q, 1] = np.int64((f >> np.uint64(2)) & np.uint64(3))
            KF[q, 2] = np.int64((f >> np.uint64(4)) & np.uint64(3))
            KF[q, 3] = np.int64((f >> np.uint64(6)) & np.uint64(7))
        ks0 = INF
        ks1 = INF
        kmax = 0
        h01 = V[hrow, 1]
        for p in range(6):
            qa = PERMS[p, 0]
            qb = 3 + PERMS[p, 1]
            qc = 6 + PERMS[p, 2]
            kk = KF[qa, 0] + KF[qb, 0] + KF[qc, 0]
            a01 = KF[qa, 1]
            b01 = KF[qb, 1]
            c01 = KF[qc, 1]
            r0 = min(min(a01, b01), min(c01, h01))
            r1 = min(min(KF[qa, 3], KF[qb, 3]), min(KF[qc, 3], V[hrow, 3]))
            r1 = min(r1, KF[qa, 2] + min(min(b01, c01), h01))
            r1 = min(r1, KF[qb, 2] + min(min(a01, c01), h01))
            r1 = min(r1, KF[qc, 2] + min(min(a01, b01), h01))
            r1 = min(r1, V[hrow, 2] + min(min(a01, b01), c01))
            ks0 = min(ks0, 9 - kk + r0)
            ks1 = min(ks1, 9 - kk + r1)
            kmax = max(kmax, kk)
        if no_melds and (fm & (1 << FORM_HONORS_KNITTED)) != 0:
            hon = np.int64((U[7] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
            best = min(best, 14 - min(kmax + hon, 14))
        if (fm & (1 << FORM_KNITTED_STRAIGHT)) != 0:
            best = min(best, ks1 if no_melds else ks0)
    return best


# rows of V used by discard_options: 0..3 the parts of the full hand, 4..9 as in row_eval
# (the others of each part), 10 the candidate's changed part, 11..14 the pairs of parts
# (0,2) (0,3) (1,2) (1,3) ((0,1) is V_A, (2,3) V_S2), 15 the others of a part with the
# changed one
V_CAND, V_P02, V_P03, V_P12, V_P13, V_OTH = 10, 11, 12, 13, 14, 15


@kernel
def _pair_row(a, b):
    """Row of V holding the combination of parts ``a`` and ``b`` (a < b)."""
    if a == 0:
        return V_A if b == 1 else (V_P02 if b == 2 else V_P03)
    if a == 1:
        return V_P12 if b == 2 else V_P13
    return V_S2


@kernel
def _cand_mask(V, SMK, HMK, codes, s, code, m, nj, best, two):
    """Effective-tile bits of the regular form for a candidate whose part ``s`` is
    ``V[V_CAND]`` (code ``code``), the other parts those of the full hand (rows 0..3,
    their pair combinations filled): the kernel's optimal-split masks."""
    eff = np.int64(0)
    for u in range(4):
        if two and (u == 1 or u == 2):
            continue
        if u == s:
            o = V_O0 if s == 0 else (V_O1 if s == 1 else (V_O2 if s == 2 else V_B))
            row = V_CAND
            cu = code
        else:
            a = -1
            b = -1
            for x in range(4):
                if x != u and x != s:
                    if a < 0:
                        a = x
                    else:
                        b = x
            _comb(V, V_CAND, _pair_row(a, b), V_OTH, nj)
            o = V_OTH
            row = u
            cu = codes[u]
        opt = _opt_bits(V, row, o, m, best)
        bits = 0
        k = 0
        while opt:
            if opt & 1:
                bits |= _mk(SMK, HMK, u, cu, k)
            opt >>= 1
            k += 1
        eff |= np.int64(bits) << np.int64(9 * u)
    if two:
        eff &= np.int64(TWO_PLAYER_BITS)
    return eff


@kernel
def discard_options(c, vis, params, SSH, SMK, HSH, HMK, V, KF, U, I, cand, emask):
    """Every distinct discard of the complete-size hand ``c`` (34 counts, 3k+2 tiles,
    restored on return): ``cand[i] = (tile, shanten after, live effective copies after,
    0)``, ``emask[i]`` the effective-tile bits. The live count and the bits are filled
    for the candidates of the lowest shanten only (the bots compare no others); the rest
    get -1 and 0. Returns the number of candidates.

    Shanten first, for every candidate, from the combinations of the three parts a
    discard leaves unchanged (computed once per hand); then the masks of the best ones."""
    codes = I[28:32]
    fm = params[P_FORM_MASK]
    ms = params[P_SETS]
    two = params[P_TWO] != 0
    total = hand_codes(c, codes)
    m = (total - 2) // 3            # sets the hands after a discard need
    nj = m + 1
    nf = max(2 * nj, 4)
    aux = U[16:20]
    for s in range(4):
        aux[s] = _load(V, U, s, s, codes[s], two, SSH, HSH, nf)
    # the others of each part: O0 = 1+2+3, O1 = 0+2+3, O2 = 0+1+3, O3 = 0+1+2
    _comb(V, 2, 3, V_S2, nj)
    _comb(V, 1, V_S2, V_O0, nj)
    _comb(V, 0, V_S2, V_O1, nj)
    _comb(V, 0, 1, V_A, nj)
    _comb(V, V_A, 3, V_O2, nj)
    _comb(V, V_A, 2, V_B, nj)
    k = 0
    lo = 99
    for t in range(34):
        if c[t] > 0:
            s = t // 9 if t < 27 else 3
            r = t - 9 * s
            code = codes[s] - PW5[r]
            a = _load(V, U, V_CAND, s, code, two, SSH, HSH, nf)
            o = V_O0 if s == 0 else (V_O1 if s == 1 else (V_O2 if s == 2 else V_B))
            reg = BIG
            for j in range(nj):
                for p in range(2):
                    reg = min(reg, V[V_CAND, 2 * j + p] + V[o, 2 * (m - j) + 1 - p])
            best = reg
            spec = INF
            if fm != 1:
                for x in range(4):
                    U[4 + x] = aux[x]
                U[4 + s] = a
                spec = _special_best(V, KF, U, V_CAND if s == 3 else 3, m, fm, ms, two, reg)
                best = min(best, spec)
            cand[k, C_TILE] = t
            cand[k, C_SHANTEN] = best - 1
            cand[k, C_LIVE] = -1
            cand[k, C_EXTRA] = 1 if spec == best else 0     # (scratch until pass 2)
            emask[k] = reg                                   # (scratch until pass 2)
            lo = min(lo, best - 1)
            k += 1
    # the masks of the best candidates: the regular form from the combinations of the
    # unchanged parts (pairs computed once); a special form at the best: row_eval
    pairs = False
    for i in range(k):
        if cand[i, C_SHANTEN] != lo:
            emask[i] = 0
            continue
        t = cand[i, C_TILE]
        s = t // 9 if t < 27 else 3
        r = t - 9 * s
        c[t] -= 1
        if cand[i, C_EXTRA] == 0:
            if not pairs:
                _comb(V, 0, 2, V_P02, nj)
                _comb(V, 0, 3, V_P03, nj)
                _comb(V, 1, 2, V_P12, nj)
                _comb(V, 1, 3, V_P13, nj)
                pairs = True
            code = codes[s] - PW5[r]
            _load(V, U, V_CAND, s, code, two, SSH, HSH, nf)
            eff = np.int64(0)
            if emask[i] == lo + 1:           # the regular form reaches the best
                eff = _cand_mask(V, SMK, HMK, codes, s, code, m, nj, lo + 1, two)
        else:
            # rows 0..9 are overwritten: restore them for the next candidates
            codes[s] -= PW5[r]
            sh, eff = row_eval(c, codes, total - 1, fm, ms, two, SSH, SMK, HSH, HMK, V, KF,
                               U, I, True)
            codes[s] += PW5[r]
            for x in range(4):
                _load(V, U, x, x, codes[x], two, SSH, HSH, nf)
            _comb(V, 2, 3, V_S2, nj)
            _comb(V, 1, V_S2, V_O0, nj)
            _comb(V, 0, V_S2, V_O1, nj)
            _comb(V, 0, 1, V_A, nj)
            _comb(V, V_A, 3, V_O2, nj)
            _comb(V, V_A, 2, V_B, nj)
            pairs = False
        cand[i, C_LIVE] = live_count(c, vis, eff)
        emask[i] = eff
        c[t] += 1
    for i in range(k):
        cand[i, C_EXTRA] = 0
    return k
