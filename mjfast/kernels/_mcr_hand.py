"""MCR: one hand scored as the calculators do it (see docs/rules-mcr.md).

1. the winning flags are normalised (a held copy of the winning tile rules out 和绝张, three
   copies in the hand's own melds imply it; kong flags that cannot hold are dropped);
2. with 0 or 1 melds the knitted-straight form (组合龙 + a set + a pair) is tried first;
   concealed hands then try seven pairs / thirteen orphans / honors-and-knitted;
3. otherwise (or when the special form is seven pairs) every regular division from
   :func:`mjfast.kernels._decompose.divisions` plus the called melds is evaluated: each fan
   predicate (:mod:`._mcr_fans`), the winning-tile placement (a discard win completes a
   concealed pung only when no concealed chow can take the tile; the wait fans count when
   the hand waited on one tile only, :mod:`._mcr_waits`), then the rule profile's
   exclusion graph and account-once deductions (:mod:`._exclude`);
4. the highest total wins; between equal totals the division that the reference
   calculator meets first (sets ordered by m < s < p < honors, pung before chow) wins.
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel
from ._mcr_fans import (
    ALL_CHOWS, BIG_THREE_WINDS, CHICKEN_HAND, CONCEALED_HAND, FOUR_KONGS,
    FULLY_CONCEALED_HAND, F_FIRST_TURN, F_FOURTH_TILE, F_KONG_REPLACEMENT, F_LAST_TILE,
    F_ROBBING_KONG, F_SELF_DRAWN, GREATER_HONORS_KNITTED, KNITTED, KNITTED_STRAIGHT,
    LESSER_HONORS_KNITTED, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, MELDED_HAND,
    NINE_GATES, N_FANS, PURE_TERMINAL_CHOWS, PURE_TRIPLE_CHOW, P_CHOW, P_KONG, P_PAIR,
    P_PUNG, REF_CODE, REF_ORDER, REF_RANK, SEAT_WIND, SELF_DRAWN_FAN, SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS, SINGLE_WAIT, THIRTEEN_ORPHANS, THREE_SUITED_TERMINAL_CHOWS,
    TRAIT_FANS, TRIPLE_PUNG, TWO_DRAGONS_PUNGS, W_4TH, W_HEAVEN, W_KONG, W_LAST, W_SELF,
    PACK_TRAITS, _by_packs_traits, _by_win_flag, _hand_traits, _is_dragon, _is_wind, _kongs,
    _nine_gates, _total, _wait_shape, chow_family, pung_family)
from ._mcr_packs import (CHOW_INDEX, CHOW_WORDS, N_CHOW_SETS, N_PUNG_SETS, PACK_WORDS,
                         PUNG_INDEX, PUNG_WORDS, add_entry, multiset_rank, sort4)
from ._mcr_waits import _fast_waits, completed_wait_mask
from ..rules import I_FLOWER_COL, I_FLOWERS_TO_MIN, I_HEAVEN, I_KONG_COMBO, I_MINIMUM, I_WIND_ONCE
from ._context import (FLAG_SAME_HAND, R_COUNTS, R_EXTRA, R_FLAGS, R_FLOWERS, R_LEGAL,
                       R_N_MELDS, R_PREVALENT,
                       R_SEAT, R_DEALER, R_TOTAL, R_WIN, W_DIVBUF, W_DSCR, W_FT, W_SC,
                       W_WFANS, W_WORK, WS_COLS, X_DEC_AT, X_DEC_LEN, X_FIELDS, X_LEN,
                       X_NCOLS, X_WS_LEN,
                       X_PACKS_AT,
                       as_rows, profile_views, row_melds)
from ._decompose import (DIV_COLS, KNITTED_TILES, MAX_DIVISIONS,
                         THIRTEEN_ORPHAN_TILES, divisions_into)
from ._suit_divisions import table_divisions
from ._exclude import (add_fan, apply_profile_exclusions, apply_profile_exclusions_held,
                       total_over)
from ._jit import array_at, export, grid, ptr, recast, sum_and_max
from ._symbols import score_mcr

# integer division / modulo by constants only: no divide-by-zero checks needed

# tile masks (bit t: tile t) for the special forms' tests
KNITTED_MASKS = np.array([sum(1 << int(t) for t in row) for row in KNITTED_TILES], dtype=np.int64)
ORPHANS_MASK = sum(1 << int(t) for t in THIRTEEN_ORPHAN_TILES)
NUMBERED_MASK = (1 << 27) - 1
SHIFTED_MASKS = np.array([((1 << 7) - 1) << (9 * s + lo) for s in range(3) for lo in range(3)],
                         dtype=np.int64)


# ---------------------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------------------
@kernel(error_model="numpy", nrt=False, forceinline=True)
def _sort_into(src, n, dst):
    for i in range(n):
        v = src[i]
        j = i - 1
        while j >= 0 and dst[j] > v:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = v


@kernel(error_model="numpy", nrt=False)
def _pack_fans(ch, nch, pg_code, terminal_done, ft, srt, tmp):
    """The chow- and pung-family fans of a division by the predicates (what the pack
    tables hold; the scorer's path for a code the tables do not cover). ``nch`` chows in
    ``ch``, ``4 - nch`` pungs in ``pg_code``; ``terminal_done``: the terminal chows
    counted (no other four-chow fan then)."""
    if not (nch == 4 and terminal_done):
        _sort_into(ch, nch, srt)
        chow_family(srt, nch, ft, tmp)
    _sort_into(pg_code, 4 - nch, srt)
    pung_family(srt, 4 - nch, ft)


@kernel(error_model="numpy", nrt=False)
def score_one(c_p, win, melds_p, nm, fl, seat, prevalent, ctx_p, ws_p, ft_p):
    """Score one complete hand. The arrays come as pointers (:func:`._jit.ptr`; one word
    each, where an array argument is seven or nine words copied per call: the pointers
    took some 5% off a hand): ``c_p`` the int64[34] concealed counts with the winning
    tile, ``melds_p`` the [5, 4] melds, ``ctx_p`` the context, ``ws_p`` the workspace,
    ``ft_p`` the fan counts written. The views of the context and the workspace (the
    rule profile's arrays, the scratch) are made here, a few instructions each
    (:func:`._jit.grid`; the two dozen views as arguments were a few hundred words copied
    per hand). Not inlined into the row entry's loop: Numba's inlining and typing of the
    whole would double the scorer's compile time for about a tenth of a hand.
    Writes fan counts into ft_best (int64[N_FANS], flowers not included) and returns the
    total without flowers, or -1 when the hand is not complete (ft_best is then
    undefined; every path that returns a total has written all of it).

    ``fl`` with ``FLAG_SAME_HAND`` (:mod:`._context`): the previous call on this workspace
    scored the same hand with other flags; what depends only on the tiles is read back
    from the memo it left (``sc[14, 120:128]``: the standing-tile counts, the regular
    divisions, the hand's traits, the waits) rather than computed again."""
    # the views of the context and the workspace, written out (the layouts of
    # kernels/_context.py: profile field k's words at X_FIELDS + 3k; W_* offsets): an
    # inlined view function is a Numba inlining pass over this large function at
    # compile time
    c = array_at(c_p, 34)
    melds = grid(array_at(melds_p, 20), np.int64, 5, 4)
    ctx = array_at(ctx_p, array_at(ctx_p, X_FIELDS)[X_LEN])
    ws = array_at(ws_p, ctx[X_WS_LEN])
    ft_best = array_at(ft_p, N_FANS)
    ints = ctx[ctx[X_FIELDS]:ctx[X_FIELDS] + ctx[X_FIELDS + 1]]
    points = ctx[ctx[X_FIELDS + 3]:ctx[X_FIELDS + 3] + ctx[X_FIELDS + 4]]
    dec = ctx[ctx[X_DEC_AT]:ctx[X_DEC_AT] + ctx[X_DEC_LEN]]
    packs = ctx[ctx[X_PACKS_AT]:ctx[X_PACKS_AT] + PACK_WORDS]
    chow_table = recast(packs, np.uint8, N_CHOW_SETS)
    pung_table = recast(packs[CHOW_WORDS:], np.uint8, N_PUNG_SETS)
    palette = packs[CHOW_WORDS + PUNG_WORDS:]
    divbuf = grid(ws[W_DIVBUF:], np.int16, MAX_DIVISIONS, DIV_COLS)
    work = grid(ws[W_WORK:], np.int64, 10, 34)
    ft = ws[W_FT:W_FT + WS_COLS]
    work_fans = grid(ws[W_WFANS:], np.int64, MAX_DIVISIONS, WS_COLS)
    sc = grid(ws[W_SC:], np.int64, 16, MAX_DIVISIONS)
    dscr = grid(ws[W_DSCR:], np.int64, 4, 8)
    kong_combo = ints[I_KONG_COMBO] != 0
    heaven_no_waits = ints[I_HEAVEN] != 0
    # a pung of the seat wind that is also the prevalent wind: one account-once deduction
    wind_skip = SEAT_WIND if (seat == prevalent and ints[I_WIND_ONCE] != 0) else 0
    # ---- the memo of the previous call (FLAG_SAME_HAND) ----------------------------------
    # memo[0..3]: n_st, fixed_melded, n_fixed_kongs, any_kong (st, tc, meld_cnt stay in
    # work[0..2]); memo[4]: the regular divisions' count (divbuf), memo[5]: the hand
    # traits computed (hf: 1), memo[6]: the wait count (work[7]); -1 = not computed
    memo = sc[14, 120:128]
    same = (fl & FLAG_SAME_HAND) != 0
    fl = fl & ~FLAG_SAME_HAND
    # ---- standing tiles (without the winning tile), tiles of the fixed melds ------------
    st = work[0]
    tc = work[1]      # every tile of the hand, kongs as 4
    meld_cnt = work[2]  # copies in fixed melds (kongs as 4)
    if same:
        n_st = memo[0]
        fixed_melded = memo[1]
        n_fixed_kongs = memo[2]
        any_kong = memo[3] != 0
    else:
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
            # no branch on the kind: a chow adds 1 to each of its tiles, a pung 3 and a
            # kong 4 to its tile
            kind = melds[j, 0]
            tile = melds[j, 1]
            chow = np.int64(kind == 0)
            kong = np.int64(kind == 2)
            n = 3 - 2 * chow + kong
            tc[tile] += n
            meld_cnt[tile] += n
            for d in range(1, 3):
                t = min(tile + d, 33)          # (a pung or kong of the last tile adds 0)
                tc[t] += chow
                meld_cnt[t] += chow
            n_fixed_kongs += kong
            any_kong |= kong != 0
            fixed_melded += 1 - (kong & (melds[j, 2] & 1))     # a concealed kong: not melded
        memo[0] = n_st
        memo[1] = fixed_melded
        memo[2] = n_fixed_kongs
        memo[3] = 1 if any_kong else 0
        memo[4] = -1
        memo[5] = -1
        memo[6] = -1
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
    # masks of the concealed tiles (bit t: tile t): held, held an odd number of times, held
    # twice or more; the special forms are tests on them (no loops that exit early)
    held = 0
    odd = 0
    multi = 0
    knitted_tried = False     # the knitted-straight search wrote divbuf
    if nm <= 1:
        for t in range(34):
            v = c[t]
            held |= min(v, 1) << t
            odd |= (v & 1) << t
            multi |= min(v >> 1, 1) << t
        perm = -1
        for p in range(6):
            if held & KNITTED_MASKS[p] == KNITTED_MASKS[p]:
                perm = p
                break
        if perm >= 0:
            knitted_tried = True
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
                    _kongs(kc, kk, km, 1, ft, kong_combo, prevalent, seat)
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
                _hand_traits(kt, 1 if k4 == 2 else 0, ft)
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
                        wc = _fast_waits(tmp, got, wt, work[8], 2, dec, work[9])
                        if wc > 0:
                            # no seven-pairs waits here (two packs only)
                            _wait_shape(ft, wc, pk_kind, pk_code, 0, 2, win_code)
                elif c[win] > 1:
                    ft[SINGLE_WAIT] = 1
                apply_profile_exclusions(ft, ctx, wind_skip)
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
        if odd == 0:
            # seven shifted pairs: seven consecutive kinds of one suit, two of each (seven
            # kinds held an even number of times among 14 tiles: two each)
            shifted = False
            for k in range(9):
                if held == SHIFTED_MASKS[k]:
                    shifted = True
            if shifted:
                ft[SEVEN_SHIFTED_PAIRS] = 1
                _hand_traits(c, 0, ft)
            else:
                ft[SEVEN_PAIRS] = 1
                special_seven_pairs = True
                # the suits, tile kinds, rank bands and tile hog in one branch-free pass
                _hand_traits(c, 0, ft)
            found = True
        elif held == ORPHANS_MASK:
            # thirteen orphans: only terminals and honors, each of the 13 held
            ft[THIRTEEN_ORPHANS] = 1
            found = True
        elif multi == 0:
            # honors and knitted tiles: 14 distinct tiles, the 7-9 numbered ones inside
            # one knitted straight
            nums = held & NUMBERED_MASK
            nnum = 0
            for t in range(27):
                nnum += c[t]
            if nnum >= 7 and nnum <= 9:
                for p in range(6):
                    if nums & ~KNITTED_MASKS[p] == 0:
                        if nnum == 7:
                            ft[GREATER_HONORS_KNITTED] = 1
                        else:
                            ft[LESSER_HONORS_KNITTED] = 1
                            if nnum == 9:
                                ft[KNITTED_STRAIGHT] = 1
                        found = True
                        break
        if found:
            _by_win_flag(wf, ft)
            apply_profile_exclusions(ft, ctx, 0)
            best = _total(ft, points)
            for f in range(N_FANS):
                ft_best[f] = ft[f]
            if not special_seven_pairs:
                return best
    # ---- regular divisions -----------------------------------------------------------------
    if same and memo[4] >= 0:
        nd = memo[4]
    else:
        nd = table_divisions(c, divbuf, dscr, dec)
        # (the same hand's next call writes divbuf in the knitted search again)
        memo[4] = -1 if knitted_tried else nd
    if nd <= 0:          # (-1, a suit of more than 14 tiles, needs more than 14 tiles)
        return best
    wait_cnt = memo[6] if same else -1
    waits = work[7]
    pk_kind = sc[0]
    pk_code = sc[1]
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
    hand_done = False
    two_sided = False     # some division shows a second wait (see can_chow below)
    if same and memo[5] >= 0:
        hand_done = True
    ftbuf = work_fans[:nd]
    heaven = (wf & W_HEAVEN) != 0
    # one division and no special form scored: its fans are the result, written in place
    direct = nd == 1 and best < 0
    if direct:
        ft = ft_best
    # whole-hand traits (suits, tile kinds, rank bands, tile hog): the same for every
    # division, computed once, and the trait fans a hand holds as an id set
    if not hand_done:
        _hand_traits(tc, n_fixed_kongs, hf)      # writes every trait fan
        hand_done = True
        memo[5] = 1
    trait_lo = np.uint64(0)
    trait_hi = np.uint64(0)
    for k in range(TRAIT_FANS.shape[0]):
        f = TRAIT_FANS[k]
        trait_lo, trait_hi = add_fan(trait_lo, trait_hi, f, hf[f])
    for d in range(nd):
        for f in range(N_FANS):
            ft[f] = 0
        # every fan written is added to the id set (held_lo, held_hi) when its count is
        # not 0 (add_fan; the writers return theirs): the exclusions then need no pass
        # over the counts. Every trait fan written first, held or not (no branch on
        # which a hand holds)
        for k in range(TRAIT_FANS.shape[0]):
            f = TRAIT_FANS[k]
            ft[f] = hf[f]
        # the other fans of the whole hand (the winning flags, nine gates, concealment)
        held_lo, held_hi = _by_win_flag(wf, ft)
        held_lo |= trait_lo
        held_hi |= trait_hi
        if not heaven and n_st == 13 and _nine_gates(st):
            ft[NINE_GATES] = 1
            held_lo, held_hi = add_fan(held_lo, held_hi, NINE_GATES, 1)
        if fixed_melded == 0:
            if wf & W_SELF:
                ft[FULLY_CONCEALED_HAND] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, FULLY_CONCEALED_HAND, 1)
            else:
                ft[CONCEALED_HAND] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, CONCEALED_HAND, 1)
        elif fixed_melded == 4:
            if wf & W_SELF:
                ft[SELF_DRAWN_FAN] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, SELF_DRAWN_FAN, 1)
            else:
                ft[MELDED_HAND] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, MELDED_HAND, 1)
        # packs: fixed melds, the division's sets, the pair; in the same pass the chows
        # and the pungs apart, the packs' trait sum (PACK_TRAITS) and whether a concealed
        # chow holds the winning tile (scalar work where the packs are written: a second
        # loop over them was vectorised and stalled on reading back the fresh stores)
        npk = 0
        nch = 0
        npg = 0
        acc = 0
        can_chow = False
        for i in range(4):
            ch[i] = 0
            pg_code[i] = 0
        # (no branch on the kinds: a chow's and a pung's slots are both written, the
        # counts advance by the kind; a chow's code is its middle tile's, 0 in the other
        # list's slot, the empty code that the pack tables pad with)
        for j in range(nm):
            kind = melds[j, 0]               # P_CHOW / P_PUNG / P_KONG = the meld kinds
            chow = np.int64(kind == 0)
            code = REF_CODE[melds[j, 1] + chow]
            mel = 1 - (np.int64(kind == 2) & (melds[j, 2] & 1))    # a concealed kong: 0
            pk_kind[npk] = kind
            pk_code[npk] = code
            ch[nch] = code * chow
            nch += chow
            pg_code[npg] = code * (1 - chow)
            pg_kind[npg] = kind
            pg_mel[npg] = mel
            npg += 1 - chow
            acc += PACK_TRAITS[chow, code]
            npk += 1
        ns = divbuf[d, 2]
        for i in range(ns):
            chow = np.int64(divbuf[d, 3 + 2 * i] == 0)
            tile = divbuf[d, 4 + 2 * i]
            code = REF_CODE[tile + chow]
            pk_kind[npk] = P_PUNG - chow
            ch[nch] = code * chow
            nch += chow
            pg_code[npg] = code * (1 - chow)
            pg_kind[npg] = P_PUNG
            pg_mel[npg] = 0
            npg += 1 - chow
            acc += PACK_TRAITS[chow, code]
            keys[i] = REF_RANK[tile] * 2 + chow
            # a concealed chow that can take the winning tile; with the tile at an end and
            # room beyond the other end (4 in 234, 3 in 345) the tile there completes the
            # hand too (the same sets with this chow moved along): two waits or more
            near = chow & np.int64(code - win_code <= 1) & np.int64(win_code - code <= 1)
            can_chow |= near != 0
            two_sided |= (near & ((np.int64(win_code == code - 1) & np.int64((win_code & 15) <= 6))
                                  | (np.int64(win_code == code + 1) & np.int64((win_code & 15) >= 4)))) != 0
            pk_code[npk] = code
            npk += 1
        pair = divbuf[d, 1]
        pair_code = REF_CODE[pair]
        pk_kind[npk] = P_PAIR
        pk_code[npk] = pair_code
        npk += 1
        acc += PACK_TRAITS[0, pair_code]
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
        # a discard that no concealed chow can take completes the concealed pung of the
        # winning tile (one at most; no branch on which)
        claim = np.int64((wf & W_SELF) == 0) & np.int64(not can_chow)
        for i in range(npg):
            hit = claim & np.int64(pg_code[i] == win_code) & np.int64(pg_mel[i] == 0)
            pg_mel[i] |= hit
            claim &= 1 - hit
        if npg > 0:
            a, b = _kongs(pg_code, pg_kind, pg_mel, npg, ft, kong_combo, prevalent, seat)
            held_lo |= a
            held_hi |= b
        # the chow and pung families: the terminal chows here (they need the pair), the
        # rest from the pack tables (_mcr_packs), the chows and pungs padded to four with
        # the empty slot (code 0), sorted without branches
        terminal_done = False
        if nch == 4 and (pair_code & 15) == 5:
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
                    held_lo, held_hi = add_fan(held_lo, held_hi, THREE_SUITED_TERMINAL_CHOWS, 1)
                    terminal_done = True
            if not terminal_done and okp and n123 == 2 and n789 == 2:
                ft[PURE_TERMINAL_CHOWS] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, PURE_TERMINAL_CHOWS, 1)
                terminal_done = True
        c0 = CHOW_INDEX[ch[0]]
        c1 = CHOW_INDEX[ch[1]]
        c2 = CHOW_INDEX[ch[2]]
        c3 = CHOW_INDEX[ch[3]]
        p0 = PUNG_INDEX[pg_code[0]]
        p1 = PUNG_INDEX[pg_code[1]]
        p2 = PUNG_INDEX[pg_code[2]]
        p3 = PUNG_INDEX[pg_code[3]]
        if min(min(c0, c1), min(c2, c3)) >= 0 and min(min(p0, p1), min(p2, p3)) >= 0:
            a0, a1, a2, a3 = sort4(c0, c1, c2, c3)
            rank = multiset_rank(a0, a1, a2, a3)
            a, b = add_entry(chow_table, palette, N_CHOW_SETS - 1 if terminal_done else rank, ft)
            held_lo |= a
            held_hi |= b
            a0, a1, a2, a3 = sort4(p0, p1, p2, p3)
            a, b = add_entry(pung_table, palette, multiset_rank(a0, a1, a2, a3), ft)
            held_lo |= a
            held_hi |= b
        else:
            # a code no table holds (a row no deal makes): the predicates themselves, and
            # any fan may be held
            _pack_fans(ch, nch, pg_code, terminal_done, ft, srt, tmp)
            held_lo = ~np.uint64(0)
            held_hi = (np.uint64(1) << np.uint64(N_FANS - 64)) - np.uint64(1)
        # the pair
        if nch == 4:
            if pair_code < 0x40:
                ft[ALL_CHOWS] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, ALL_CHOWS, 1)
        elif ft[TWO_DRAGONS_PUNGS] > 0:
            if _is_dragon(pair_code):
                ft[LITTLE_THREE_DRAGONS] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, LITTLE_THREE_DRAGONS, 1)
        elif ft[BIG_THREE_WINDS] > 0:
            if _is_wind(pair_code):
                ft[LITTLE_FOUR_WINDS] = 1
                held_lo, held_hi = add_fan(held_lo, held_hi, LITTLE_FOUR_WINDS, 1)
        a, b = _by_packs_traits(acc, ft)
        held_lo |= a
        held_hi |= b
        # a division that places the winning tile in its pair or in a concealed chow
        if (not heaven and ft[MELDED_HAND] == 0 and ft[FOUR_KONGS] == 0
                and (pair == win or can_chow)):
            # the waits are only needed when this division places the winning tile in an
            # edge / closed / single position; whether there is exactly one is all that
            # matters (the search stops at two)
            if wait_cnt < 0 and two_sided:
                wait_cnt = 2      # two waits or more: no wait fan (no search needed)
                memo[6] = wait_cnt
            if wait_cnt < 0:
                wmask = completed_wait_mask(c, win, pair, dec)
                if wmask < 0:
                    # a rank held four times: the search (a fifth copy counts)
                    _fast_waits(st, n_st, waits, work[8], 2, dec, work[9])
                    wmask = 0
                    for t in range(34):
                        wmask |= np.int64(waits[t] != 0) << t
                # how many, counted up to two
                wait_cnt = np.int64(wmask != 0) + np.int64((wmask & (wmask - 1)) != 0)
                if wait_cnt == 1 and nm == 0:
                    # seven-pairs waits join the regular ones
                    npairs = 0
                    single = -1
                    for t in range(34):
                        npairs += st[t] // 2
                        if st[t] % 2 == 1:
                            single = t
                    if npairs == 6 and n_st == 13 and single >= 0 and not (wmask >> single) & 1:
                        wait_cnt += 1
                memo[6] = wait_cnt
            if wait_cnt > 0:
                a, b = _wait_shape(ft, wait_cnt, pk_kind, pk_code, nm, npk, win_code)
                held_lo |= a
                held_hi |= b
        # the total over the fans still held (counts are never negative; the OR is 0 only
        # when every count is)
        tot, nz = total_over(ft, points, apply_profile_exclusions_held(ft, ctx, wind_skip,
                                                                       held_lo, held_hi))
        if nz == 0:
            ft[CHICKEN_HAND] = 1
            tot = points[CHICKEN_HAND]
        if nd == 1:
            # one division: no ordering to emulate
            if direct:
                return tot if tot > best else best
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




# ---------------------------------------------------------------------------------------
# the row entry: the one compiled MCR scorer every caller reaches (symbol score_mcr)
# ---------------------------------------------------------------------------------------
@kernel(inline="always", error_model="numpy")
def score_row(row, fans, ctx, ws, prof, ncols):
    """Score the hand row ``row`` (layout in :mod:`._context`) into ``fans`` (int64 by fan
    id, flowers in the flowers' column); returns the total with flowers, -1 when the row
    is not a complete hand of valid counts. ``first_turn`` counts only for the dealer's
    concealed hand (the heavenly hand). The scorer reads the row's counts and melds in
    place (views: :func:`._jit.grid`), never writing them."""
    ints = prof[0]
    points = prof[1]
    win = row[R_WIN]
    nm = row[R_N_MELDS]
    c = row[R_COUNTS:R_COUNTS + 34]
    melds = row_melds(row)
    # the counts' sum and their largest value read as unsigned (a negative count is large:
    # outside 0..4 either way), with vector instructions (a loop of compares, even
    # written without branches, became 34 scalar steps: 2% of a hand)
    total, top = sum_and_max(row, R_COUNTS, 34)
    ok = top <= np.uint64(4) and win >= 0 and win < 34 and nm >= 0 and nm <= 4
    tot = -1
    if ok and c[win] > 0 and total == 14 - 3 * nm:
        fl = row[R_FLAGS]
        if not (row[R_SEAT] == row[R_DEALER] and nm == 0):
            fl &= ~F_FIRST_TURN      # the heavenly hand: the dealer's concealed hand only
        tot = score_one(ptr(c), win, ptr(melds), nm, fl, row[R_SEAT], row[R_PREVALENT], ptr(ctx),
                        ptr(ws), ptr(fans))
    row[R_EXTRA] = 0
    if tot < 0:
        for f in range(ncols):
            fans[f] = 0
        row[R_TOTAL] = -1
        row[R_LEGAL] = 0
        return -1
    for f in range(N_FANS, ncols):
        fans[f] = 0
    fc = ints[I_FLOWER_COL]
    nfl = row[R_FLOWERS]
    fans[fc] = nfl
    with_flowers = tot + nfl * points[fc]
    counted = with_flowers if ints[I_FLOWERS_TO_MIN] != 0 else tot
    row[R_TOTAL] = with_flowers
    row[R_LEGAL] = 1 if counted >= ints[I_MINIMUM] else 0
    return with_flowers


@kernel(error_model="numpy", nrt=False)
def _score_block(rows, fans, n, ctx, ws, prof, ncols):
    """The row loop, outside the symbol's entry: compiled without reference counting (the
    entry makes its arrays from pointers, which needs it), so the per-row views cost no
    ``NRT_incref`` / ``NRT_decref`` calls."""
    for i in range(n):
        score_row(rows[i], fans[i], ctx, ws, prof, ncols)


@export(score_mcr)
def score_mcr_c(ctx_p, ws_p, rows_p, n, fans_p):
    """Score ``n`` hand rows (see :mod:`._symbols`): the views of the context and the
    workspace are made once, then each row is scored."""
    ctx, ws, rows, fans = as_rows(ctx_p, ws_p, rows_p, n, fans_p)
    prof = profile_views(ctx)
    ncols = ctx[X_NCOLS]
    _score_block(rows, fans, n, ctx, ws, prof, ncols)
    return n
