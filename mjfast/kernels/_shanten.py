"""Numba kernels: table-driven shanten, per-form shanten and effective tiles (waits).

Every function works on a batch of concealed count rows (uint8, 34 columns) and the
packed tables of :mod:`._shanten_tables`. The number of sets a row still needs follows
from its tile count ``n``: ``m = (n - 1) // 3`` for a waiting row (``n % 3 == 1``),
``(n - 2) // 3`` for a complete-size row (``n % 3 == 2``).

Distances (``dist``) are ``min |W - H|`` over the complete hands ``W`` of a form; shanten is
``dist - 1``. Per-form outputs use ``NO_FORM`` where the form cannot be reached (called
melds, or a form the rule set does not have).

Rows are validated on the way (a count above 4, a total that no hand of the rule set has,
a tile outside the rule set): the kernels stop at the first bad row and return
``(row, reason)``; ``(-1, 0)`` means every row was fine.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._config import JIT_OPTIONS
from ._shanten_tables import AUX_KNIT_SHIFT, AUX_ORPHAN_PAIR_SHIFT, AUX_ORPHAN_SHIFT

FORM_REGULAR = 0
FORM_SEVEN_PAIRS = 1
FORM_THIRTEEN_ORPHANS = 2
FORM_HONORS_KNITTED = 3
FORM_KNITTED_STRAIGHT = 4
FORM_SEVEN_PAIRS_TRIPLET = 5
N_FORMS = 6

NO_FORM = 127
INF = 60

BAD_COUNT = 1       # a count above 4
BAD_TOTAL = 2       # a tile total no hand of the rule set has
BAD_TILE = 3        # a tile outside the rule set
BAD_WAIT_TOTAL = 4  # waits need a waiting (3m + 1 tiles) hand

PERMS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                 dtype=np.int64)
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
PW5 = np.array([1, 5, 25, 125, 625, 3125, 15625, 78125, 390625], dtype=np.int64)

# seven pairs class moves: for a rank held c times, pairs gained / "one tile from a pair"
_PC = np.array([0, 0, 1, 1, 2], dtype=np.int64)
_AC = np.array([0, 1, 0, 1, 0], dtype=np.int64)
_TRIP = np.array([3, 2, 1, 0, 0], dtype=np.int64)


# ---------------------------------------------------------------------------------
# small pieces
# ---------------------------------------------------------------------------------
@njit(**JIT_OPTIONS)
def _unpack(w, out, nk):
    for k in range(nk):
        out[k] = np.int64((w >> np.uint64(5 * k)) & np.uint64(31))


@njit(**JIT_OPTIONS)
def _combine(X, Y, Z, m):
    """Min-plus convolution: Z[2j+p] = min over splits of X and Y, for j <= m."""
    for j in range(m + 1):
        b0 = INF
        b1 = INF
        for a in range(j + 1):
            x0 = X[2 * a]
            x1 = X[2 * a + 1]
            y0 = Y[2 * (j - a)]
            y1 = Y[2 * (j - a) + 1]
            t = x0 + y0
            if t < b0:
                b0 = t
            t = x0 + y1
            if t < b1:
                b1 = t
            t = x1 + y0
            if t < b1:
                b1 = t
        Z[2 * j] = b0
        Z[2 * j + 1] = b1


@njit(**JIT_OPTIONS)
def _final(X, Y, m):
    """min over splits of X (+) Y at target (m sets, 1 pair)."""
    best = INF
    for j in range(m + 1):
        t = X[2 * j] + Y[2 * (m - j) + 1]
        if t < best:
            best = t
        t = X[2 * j + 1] + Y[2 * (m - j)]
        if t < best:
            best = t
    return best


@njit(**JIT_OPTIONS)
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


@njit(**JIT_OPTIONS)
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


@njit(**JIT_OPTIONS)
def _special_pairs_dist(form, n0, n1, n2, n3, n4):
    if form == FORM_SEVEN_PAIRS:
        return _pairs_dist(n1, n2, n3, n4)
    return _pairs_triplet_dist(n0, n1, n2, n3, n4)


@njit(**JIT_OPTIONS)
def _knit_field(aux, g):
    return np.int64((aux >> np.uint64(AUX_KNIT_SHIFT + 9 * g)) & np.uint64(511))


# ---------------------------------------------------------------------------------
# one row
# ---------------------------------------------------------------------------------
@njit(**JIT_OPTIONS)
def _row_codes(counts, h, two_player, codes):
    """Base-5 codes of the 3 suits + honors; returns total tiles, or -reason when bad."""
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
        codes[s] = code
    if bad:
        return -bad
    if two_player and (codes[1] != 0 or codes[2] != 0):
        return -BAD_TILE
    return total


@njit(**JIT_OPTIONS)
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


@njit(**JIT_OPTIONS)
def _forms_dist(codes, m, max_sets, form_mask, two_player, SSH, HSH, v, A, B, aux, hk_held,
                dists, prune):
    """Distances of every form in ``form_mask`` into dists[0:6] (INF when unreachable).

    With ``prune`` the knitted straight is skipped when it cannot beat the others."""
    nk = 2 * (m + 1)
    for s in range(3):
        if two_player and s > 0:
            v[s, 0] = 0
            v[s, 1] = INF
            for k in range(2, nk):
                v[s, k] = INF
            aux[s] = np.uint64(0)
        else:
            _unpack(SSH[codes[s], 0], v[s], nk)
            aux[s] = SSH[codes[s], 1]
    _unpack(HSH[codes[3], 0], v[3], nk)
    aux[3] = HSH[codes[3], 1]
    for f in range(N_FORMS):
        dists[f] = INF
    _combine(v[0], v[1], A, m)
    _combine(A, v[2], B, m)
    best = _final(B, v[3], m)
    dists[FORM_REGULAR] = best
    no_melds = m == max_sets
    if not no_melds and not (form_mask & (1 << FORM_KNITTED_STRAIGHT) and m == max_sets - 1):
        return best
    # packed sums of the auxiliary words (fields are wide enough not to carry)
    sw = aux[0] + aux[1] + aux[2] + aux[3]
    if no_melds and form_mask & ((1 << FORM_SEVEN_PAIRS) | (1 << FORM_SEVEN_PAIRS_TRIPLET)):
        n1 = np.int64(sw & np.uint64(63))
        n2 = np.int64((sw >> np.uint64(6)) & np.uint64(63))
        n3 = np.int64((sw >> np.uint64(12)) & np.uint64(63))
        n4 = np.int64((sw >> np.uint64(18)) & np.uint64(63))
        n0 = (16 if two_player else 34) - n1 - n2 - n3 - n4
        if form_mask & (1 << FORM_SEVEN_PAIRS):
            d = _pairs_dist(n1, n2, n3, n4)
            dists[FORM_SEVEN_PAIRS] = d
            if d < best:
                best = d
        if form_mask & (1 << FORM_SEVEN_PAIRS_TRIPLET):
            d = _pairs_triplet_dist(n0, n1, n2, n3, n4)
            dists[FORM_SEVEN_PAIRS_TRIPLET] = d
            if d < best:
                best = d
    if no_melds and form_mask & (1 << FORM_THIRTEEN_ORPHANS):
        orph = np.int64((sw >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
        opair = np.int64((sw >> np.uint64(AUX_ORPHAN_PAIR_SHIFT)) & np.uint64(7))
        d = 14 - orph - (1 if opair > 0 else 0)
        dists[FORM_THIRTEEN_ORPHANS] = d
        if d < best:
            best = d
    want_hk = no_melds and (form_mask & (1 << FORM_HONORS_KNITTED)) != 0
    want_ks = (form_mask & (1 << FORM_KNITTED_STRAIGHT)) != 0 and m >= max_sets - 1
    if want_hk or want_ks:
        for s in range(3):
            for g in range(3):
                hk_held[s, g] = _knit_field(aux[s], g) & 3
        hon = np.int64((aux[3] >> np.uint64(AUX_ORPHAN_SHIFT)) & np.uint64(15))
        if want_hk:
            mx = 0
            for p in range(6):
                t = hk_held[0, PERMS[p, 0]] + hk_held[1, PERMS[p, 1]] + hk_held[2, PERMS[p, 2]]
                if t > mx:
                    mx = t
            tot = mx + hon
            if tot > 14:
                tot = 14
            d = 14 - tot
            dists[FORM_HONORS_KNITTED] = d
            if d < best:
                best = d
        if want_ks:
            target_set = m - (max_sets - 1)   # 1 with no melds, 0 with one called meld
            h01 = v[3, 1]
            h10 = v[3, 2]
            h11 = v[3, 3]
            ksbest = INF
            for p in range(6):
                K = hk_held[0, PERMS[p, 0]] + hk_held[1, PERMS[p, 1]] + hk_held[2, PERMS[p, 2]]
                lower = 9 - K + (1 if target_set == 1 else 0)
                if prune and lower >= best:
                    continue
                # remainder values per part: r01, r10, r11
                f0 = _knit_field(aux[0], PERMS[p, 0])
                f1 = _knit_field(aux[1], PERMS[p, 1])
                f2 = _knit_field(aux[2], PERMS[p, 2])
                a01 = (f0 >> 2) & 3
                b01 = (f1 >> 2) & 3
                c01 = (f2 >> 2) & 3
                if target_set == 0:
                    R = min(min(a01, b01), min(c01, h01))
                else:
                    a10 = (f0 >> 4) & 3
                    b10 = (f1 >> 4) & 3
                    c10 = (f2 >> 4) & 3
                    a11 = (f0 >> 6) & 7
                    b11 = (f1 >> 6) & 7
                    c11 = (f2 >> 6) & 7
                    R = min(min(a11, b11), min(c11, h11))
                    # set in one part, pair in another
                    R = min(R, a10 + min(min(b01, c01), h01))
                    R = min(R, b10 + min(min(a01, c01), h01))
                    R = min(R, c10 + min(min(a01, b01), h01))
                    R = min(R, h10 + min(min(a01, b01), c01))
                d = 9 - K + R
                if d < ksbest:
                    ksbest = d
            dists[FORM_KNITTED_STRAIGHT] = ksbest
            if ksbest < best:
                best = ksbest
    return best


# ---------------------------------------------------------------------------------
# batch kernels
# ---------------------------------------------------------------------------------
@njit(**JIT_OPTIONS)
def shanten_batch(counts, form_mask, max_sets, hand_size, two_player, SSH, HSH, out, per_form):
    """out[h] = shanten (int8); per_form (N, 6) int8 filled when it has N rows (else
    shape (0, 6)). Returns (bad_row, reason), (-1, 0) when all rows are valid."""
    n = counts.shape[0]
    want = per_form.shape[0] == n and n > 0
    v = np.zeros((4, 2 * (max_sets + 1)), dtype=np.int64)
    A = np.zeros(2 * (max_sets + 1), dtype=np.int64)
    B = np.zeros(2 * (max_sets + 1), dtype=np.int64)
    codes = np.zeros(4, dtype=np.int64)
    aux = np.zeros(4, dtype=np.uint64)
    hk_held = np.zeros((3, 3), dtype=np.int64)
    dists = np.zeros(N_FORMS, dtype=np.int64)
    for h in range(n):
        total = _row_codes(counts, h, two_player, codes)
        if total < 0:
            return h, -total
        m = _sets_needed(total, max_sets, hand_size)
        if m < 0:
            return h, BAD_TOTAL
        best = _forms_dist(codes, m, max_sets, form_mask, two_player, SSH, HSH, v, A, B,
                           aux, hk_held, dists, not want)
        out[h] = best - 1
        if want:
            for f in range(N_FORMS):
                if (form_mask >> f) & 1 and dists[f] < INF:
                    per_form[h, f] = dists[f] - 1
                else:
                    per_form[h, f] = NO_FORM
    return -1, 0


@njit(**JIT_OPTIONS)
def _mask_bits(w, k):
    return np.int64((w >> np.uint64(9 * k)) & np.uint64(511))


@njit(**JIT_OPTIONS)
def _suit_mask(SMK, HMK, s, code, k):
    """9-bit (7 for honors) mask of ranks lowering field k of part s at ``code``."""
    if s == 3:
        tbl = HMK
    else:
        tbl = SMK
    if k < 6:
        return _mask_bits(tbl[code, 0], k)
    return _mask_bits(tbl[code, 1], k - 6)


@njit(**JIT_OPTIONS)
def waits_batch(counts, visible, form_mask, max_sets, hand_size, two_player,
                SSH, SMK, HSH, HMK, shanten_out, mask_out, live_out):
    """For waiting rows (3m + 1 tiles): shanten, the tiles that lower it (mask_out, bool
    (N, 34)) and their live copies (live_out, int8, 0 where not a wait).
    ``visible`` is (N, 34) or (1, 34) (broadcast). Returns (bad_row, reason)."""
    n = counts.shape[0]
    nk_max = 2 * (max_sets + 1)
    v = np.zeros((4, nk_max), dtype=np.int64)
    A = np.zeros(nk_max, dtype=np.int64)
    B = np.zeros(nk_max, dtype=np.int64)
    pre = np.zeros((4, nk_max), dtype=np.int64)
    suf = np.zeros((5, nk_max), dtype=np.int64)
    oth = np.zeros(nk_max, dtype=np.int64)
    codes = np.zeros(4, dtype=np.int64)
    aux = np.zeros(4, dtype=np.uint64)
    hk_held = np.zeros((3, 3), dtype=np.int64)
    dists = np.zeros(N_FORMS, dtype=np.int64)
    eff_class = np.zeros(5, dtype=np.bool_)
    rv = np.zeros((4, 4), dtype=np.int64)
    sub = np.zeros(4, dtype=np.int64)
    cnt = np.zeros(5, dtype=np.int64)
    vrow_step = 1 if visible.shape[0] == n else 0
    kinds = 16 if two_player else 34
    for h in range(n):
        total = _row_codes(counts, h, two_player, codes)
        if total < 0:
            return h, -total
        m = _sets_needed(total, max_sets, hand_size)
        if m < 0:
            return h, BAD_TOTAL
        if total % 3 != 1:
            return h, BAD_WAIT_TOTAL
        best = _forms_dist(codes, m, max_sets, form_mask, two_player, SSH, HSH, v, A, B,
                           aux, hk_held, dists, False)
        shanten_out[h] = best - 1
        eff = np.uint64(0)
        nk = 2 * (m + 1)
        # ---- regular: the optimal splits of each part
        if dists[FORM_REGULAR] == best:
            # prefix combos pre[s] = parts 0..s; suffix suf[s] = parts s..3
            for k in range(nk):
                pre[0, k] = v[0, k]
                suf[3, k] = v[3, k]
                suf[4, k] = 0 if k == 0 else INF
            _combine(pre[0], v[1], pre[1], m)
            _combine(pre[1], v[2], pre[2], m)
            _combine(v[2], suf[3], suf[2], m)
            _combine(v[1], suf[2], suf[1], m)
            for s in range(4):
                if two_player and (s == 1 or s == 2):
                    continue
                if s == 0:
                    for k in range(nk):
                        oth[k] = suf[1, k]
                elif s == 3:
                    for k in range(nk):
                        oth[k] = pre[2, k]
                else:
                    _combine(pre[s - 1], suf[s + 1], oth, m)
                bits = 0
                for j in range(m + 1):
                    for p in range(2):
                        k = 2 * j + p
                        if v[s, k] + oth[2 * (m - j) + 1 - p] == best:
                            bits |= _suit_mask(SMK, HMK, s, codes[s], k)
                eff |= np.uint64(bits) << np.uint64(9 * s)
        no_melds = m == max_sets
        # ---- seven pairs (+ triplet): which count classes gain
        for form in (FORM_SEVEN_PAIRS, FORM_SEVEN_PAIRS_TRIPLET):
            if no_melds and form_mask & (1 << form) and dists[form] == best:
                for c in range(5):
                    cnt[c] = 0
                for t in range(34):
                    cnt[counts[h, t]] += 1
                cnt[0] -= 34 - kinds
                for c in range(4):
                    eff_class[c] = False
                    if cnt[c] == 0:
                        continue
                    cnt[c] -= 1
                    cnt[c + 1] += 1
                    d = _special_pairs_dist(form, cnt[0], cnt[1], cnt[2], cnt[3], cnt[4])
                    cnt[c] += 1
                    cnt[c + 1] -= 1
                    if d < best:
                        eff_class[c] = True
                for t in range(34):
                    x = counts[h, t]
                    if x < 4 and eff_class[x]:
                        eff |= np.uint64(1) << np.uint64(t)
        # ---- thirteen orphans
        if no_melds and form_mask & (1 << FORM_THIRTEEN_ORPHANS) and dists[FORM_THIRTEEN_ORPHANS] == best:
            has_pair = False
            for i in range(13):
                if counts[h, ORPHANS[i]] >= 2:
                    has_pair = True
            for i in range(13):
                x = counts[h, ORPHANS[i]]
                if x == 0 or (x == 1 and not has_pair):
                    eff |= np.uint64(1) << np.uint64(ORPHANS[i])
        # ---- honors and knitted: missing tiles of the best permutations
        if no_melds and form_mask & (1 << FORM_HONORS_KNITTED) and dists[FORM_HONORS_KNITTED] == best:
            mx = 0
            for p in range(6):
                t = hk_held[0, PERMS[p, 0]] + hk_held[1, PERMS[p, 1]] + hk_held[2, PERMS[p, 2]]
                if t > mx:
                    mx = t
            for p in range(6):
                t = hk_held[0, PERMS[p, 0]] + hk_held[1, PERMS[p, 1]] + hk_held[2, PERMS[p, 2]]
                if t != mx:
                    continue
                for s in range(3):
                    g = PERMS[p, s]
                    for j in range(3):
                        tile = 9 * s + g + 3 * j
                        if counts[h, tile] == 0:
                            eff |= np.uint64(1) << np.uint64(tile)
                for tile in range(27, 34):
                    if counts[h, tile] == 0:
                        eff |= np.uint64(1) << np.uint64(tile)
        # ---- knitted straight: missing knitted tiles + the remainder's useful tiles
        if (form_mask & (1 << FORM_KNITTED_STRAIGHT) and m >= max_sets - 1
                and dists[FORM_KNITTED_STRAIGHT] == best):
            target_set = m - (max_sets - 1)
            for p in range(6):
                K = 0
                for s in range(3):
                    g = PERMS[p, s]
                    sub[s] = codes[s]
                    for j in range(3):
                        tile = 9 * s + g + 3 * j
                        if counts[h, tile] > 0:
                            K += 1
                            sub[s] -= PW5[g + 3 * j]
                sub[3] = codes[3]
                for s in range(3):
                    w = SSH[sub[s], 0]
                    for k in range(4):
                        rv[s, k] = np.int64((w >> np.uint64(5 * k)) & np.uint64(31))
                for k in range(4):
                    rv[3, k] = v[3, k]
                if target_set == 0:
                    R = INF
                    for s in range(4):
                        R = min(R, rv[s, 1])
                else:
                    R = INF
                    for s in range(4):
                        R = min(R, rv[s, 3])
                        for t in range(4):
                            if t != s:
                                R = min(R, rv[s, 2] + rv[t, 1])
                if 9 - K + R != best:
                    continue
                for s in range(3):
                    g = PERMS[p, s]
                    for j in range(3):
                        tile = 9 * s + g + 3 * j
                        if counts[h, tile] == 0:
                            eff |= np.uint64(1) << np.uint64(tile)
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
                    eff |= np.uint64(bits) << np.uint64(9 * s)
        # ---- write out
        vr = h * vrow_step
        for t in range(34):
            x = counts[h, t]
            on = ((eff >> np.uint64(t)) & np.uint64(1)) != 0 and x < 4
            if two_player and 9 <= t < 27:
                on = False
            mask_out[h, t] = on
            if on:
                lv = 4 - np.int64(x) - np.int64(visible[vr, t])
                live_out[h, t] = lv if lv > 0 else 0
            else:
                live_out[h, t] = 0
    return -1, 0
