"""The ``planner`` bot's evaluation (Numba): distances to scoring targets, weighed by the
rule set's own fan values.

A *target* is a family of winning hands that carries a fan of the rule table: a chow
pattern (three fixed chows: pure / mixed straight, mixed / pure triple chow, mixed / pure
shifted chows, a knitted straight; mixed shifted chows also with All Chows, every other
set a chow and a suited pair: 6 + 2 reach MCR's 8), a tile restriction (half / full
flush per suit, all honors), all pungs, seven pairs, thirteen orphans, lesser honors and knitted tiles, and
the plain hand (any win). Its *distance* is the number of tiles the hand still needs to be
complete with the target: for a chow pattern the pattern's missing tiles plus the regular
distance of the rest (the sets left and a pair, one lookup in the shanten tables); for a
restriction the regular distance of the allowed tiles alone (a pattern with All Chows:
of its other suited tiles, an exposed pung kills it); for the special forms their
usual counts. Exposed melds that do not fit a target kill it (a chow in an all-pungs plan,
a meld outside the flush's suit, any meld in a seven-pairs plan); a pattern whose missing
copies are all visible is dead.

A target's *value* is its fan's points read from the engine context at run time (so a
variant that changes a value or the minimum changes the play) plus what the hand already
holds (a pung of a dragon / the seat / prevalent wind, the concealed-hand fan while no
meld is exposed); under a minimum (MCR) a target below it counts for nothing; the points
are turned into what the win pays under the rule set's settlement (:func:`payoff`: MCR
adds 8 from each loser, Tuidaohu doubles per fan). A candidate discard is worth
``max_T payoff_T * BETA ** distance_T`` (under a minimum plus ``FLEX`` of the other
targets' sum: more ways to reach it; where every win counts the plain win is always a
target and the sum would count the same hands twice), targets farther than the draws left excluded, and a chow
pattern whose missing tiles alone keep it below ``PRUNE`` of the best value found so far
skipped (the broad targets are evaluated first). The tables
(one row per target, fan ids by key) are built by :func:`plan_rows` from the rule table
and kept in the bot context's parameter array.
"""
from __future__ import annotations

import numpy as np

from ..kernels import (C_BASE, C_FAN_CAP, C_PLAYERS, C_RULES, C_SEAT_PAY, C_UNIT,
                       CLASS_DISABLED, CLASS_MASK, HONOR_BASE, X_FIELDS, hand_codes, kernel)

# target kinds
T_PATTERN, T_FLUSH, T_PUNGS, T_PAIRS, T_ORPHANS, T_HONKNIT, T_PLAIN, T_TYPES = range(8)
# a target row: kind, fan id, pattern sets, allowed-tile mask, 3 chow starts, second fan,
# counts[34]. A chow pattern with a mask (and a second fan) is the pattern with every
# other set a chow and the pair in the mask: the pattern plus All Chows (MCR)
TR_KIND, TR_FAN, TR_SETS, TR_MASK, TR_CHOW, TR_FAN2 = 0, 1, 2, 3, 4, 7
TR_COUNTS = 8
TROW = TR_COUNTS + 34
# the parameter array (bot context params[]): slots 0..3 are the shanten parameters,
# 4..7 the defence's (:func:`mjfast.simulation._bots._danger`)
P_DGATE = 4         # defend only when the hand's lowest shanten is >= this (< -this if < 0)
P_DMODEL = 5        # the danger model: 0 the constants, 1 the rates measured per opponent
P_DANGER2 = 6       # DANGER of the ``planner_defend`` bot, in thousandths
P_NT = 8            # number of targets
P_X_DRAGON = 9      # fan ids of what a hand already holds (-1: not in the table)
P_X_PREV = 10
P_X_SEAT = 11
P_X_HONOR = 12      # Taiwan: any honor pung of value
P_X_CONC = 13       # concealed hand
P_X_WIN = 14        # the plain win's fan
P_BETA = 15         # BETA in thousandths (data, so a study may vary it without a compile)
P_DANGER = 7        # DANGER in thousandths
P_T0 = 16           # first target row
BETA = 0.3          # the weight of one more tile needed
DANGER = 0.0        # the weight of the estimated loss of feeding a win (0: no defence;
                    # chosen by duplicate strength: docs/simulation.md)
DANGER_DEFEND = 0.5  # the same weight for the ``planner_defend`` bot (one seat may defend;
                     # its best measured setting, no stronger on fresh walls: docs)
DANGER_MODEL = 1    # 0: the constant chances; 1: the rates measured per opponent (FEEDQ)
DANGER_GATE = 0     # defend only at this shanten or more (0: always; -g: below g only)
FED_TOTAL = 7       # a fed win's points above the minimum (the measured mean 14-16 in MCR)
# measured per opponent (model 1; four planners, MCR, standard walls, seeds 101 and 202,
# 2 x 8,192 deals, 2.5 million discard-opponent pairs, 12,217 fed wins of mean total 14.9):
# the chance that a discard feeds that opponent's win = FEEDQ[type, the opponent's
# discards // 3] x FEEDQ_MELDS[type, its exposed melds] x (FEEDQ_RIVER[type] if the tile is
# in its river), type: middle 2-8, terminal, honor (a log-linear Poisson fit)
FEEDQ = np.array([[0.00006, 0.00071, 0.0040, 0.0094, 0.016, 0.022, 0.030],
                  [0.00000, 0.00038, 0.0021, 0.0050, 0.0081, 0.010, 0.013],
                  [0.00002, 0.00030, 0.0014, 0.0031, 0.0060, 0.0077, 0.0090]])
FEEDQ_MELDS = np.array([[1.0, 1.6, 2.4, 3.1], [1.0, 1.4, 2.1, 3.2], [1.0, 0.20, 0.40, 0.43]])
FEEDQ_RIVER = np.array([0.073, 0.16, 0.071])
FLEX = 0.2          # under a minimum: the weight of the other targets (more ways to reach it)
ALL_CHOWS = 1       # the mixed-shifted-chows + All Chows targets (MCR)
PRUNE = 0.1         # a target that cannot reach this share of the best value is skipped
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
_PW = np.array([5 ** i for i in range(9)], dtype=np.int64)


def plan_rows(rules: str) -> np.ndarray:
    """The planner's slots of the parameter array for rule set ``rules`` (from slot 8:
    the target count, the fan ids of the held extras, the target rows)."""
    from ..kernels import KNITTED_PERMS
    from ..rules import get_profile
    from ..rules.registry import FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, get_rules
    rs = get_rules(rules)
    keys = get_profile(rules).table.by_key
    fid = {k: int(r.id) for k, r in keys.items()}
    two = len(rs.kinds) == 16
    suits = (0,) if two else (0, 1, 2)
    rows = []

    def row(kind, key, sets=0, mask=0, chows=(), counts=None, key2=None):
        if key is not None and key not in fid:
            return
        if key2 is not None and key2 not in fid:
            return
        r = np.zeros(TROW, dtype=np.int64)
        r[TR_KIND] = kind
        r[TR_FAN] = fid[key] if key is not None else -1
        r[TR_SETS] = sets
        r[TR_MASK] = mask
        r[TR_CHOW:TR_CHOW + 3] = -1
        r[TR_FAN2] = fid[key2] if key2 is not None else -1
        for i, s in enumerate(chows):
            r[TR_CHOW + i] = s
        if counts is not None:
            r[TR_COUNTS:] = counts
        rows.append(r)

    def chow_pattern(key, starts, key2=None):
        cnt = np.zeros(34, dtype=np.int64)
        for s in starts:
            cnt[s:s + 3] += 1
        row(T_PATTERN, key, 3, (1 << 27) - 1 if key2 else 0, starts, cnt, key2)

    perms = [(a, b, c) for a in range(3) for b in range(3) for c in range(3)
             if len({a, b, c}) == 3] if not two else []
    for s in suits:
        chow_pattern("pure_straight", (9 * s, 9 * s + 3, 9 * s + 6))
    for a, b, c in perms:
        chow_pattern("mixed_straight", (9 * a, 9 * b + 3, 9 * c + 6))
    if not two:
        for r in range(7):
            chow_pattern("mixed_triple_chow", (r, 9 + r, 18 + r))
        for a, b, c in perms:
            for r in range(5):
                chow_pattern("mixed_shifted_chows", (9 * a + r, 9 * b + r + 1, 9 * c + r + 2))
                if ALL_CHOWS:
                    # the shifted chows (6) with All Chows (2): a common way to reach 8
                    chow_pattern("mixed_shifted_chows", (9 * a + r, 9 * b + r + 1,
                                                         9 * c + r + 2), "all_chows")
    for s in suits:
        for r in range(5):
            chow_pattern("pure_shifted_chows", (9 * s + r, 9 * s + r + 1, 9 * s + r + 2))
        for r in range(3):
            chow_pattern("pure_shifted_chows", (9 * s + r, 9 * s + r + 2, 9 * s + r + 4))
        for r in range(7):
            chow_pattern("pure_triple_chow", (9 * s + r,) * 3)
    honors = ((1 << 7) - 1) << 27
    for p in KNITTED_PERMS if not two else []:
        cnt = np.zeros(34, dtype=np.int64)
        for s in range(3):
            for j in range(3):
                cnt[9 * s + int(p[s]) + 3 * j] = 1
        if "knitted_straight" in fid and (1 << 4) & sum(1 << f for f in rs.forms):
            row(T_PATTERN, "knitted_straight", 3, 0, (), cnt)
        knit = sum(1 << t for t in range(34) if cnt[t])
        if "lesser_honors_and_knitted_tiles" in fid:
            row(T_HONKNIT, "lesser_honors_and_knitted_tiles", 0, knit | honors)
    for s in suits:
        suit = ((1 << 9) - 1) << (9 * s)
        row(T_FLUSH, "half_flush", 0, suit | honors)
        row(T_FLUSH, "full_flush", 0, suit)
    row(T_FLUSH, "all_honors", 0, honors)
    row(T_PUNGS, "all_pungs")
    if not two:
        row(T_TYPES, "all_types")
    if FORM_SEVEN_PAIRS in rs.forms:
        row(T_PAIRS, "seven_pairs")
    if FORM_THIRTEEN_ORPHANS in rs.forms:
        row(T_ORPHANS, "thirteen_orphans")
    win = next((k for k in ("win", "win_shape") if k in fid), None)
    row(T_PLAIN, win)
    shifted = {fid.get(k) for k in ("mixed_shifted_chows", "pure_shifted_chows")}
    # the few broad targets first, the many chow patterns last: a target whose missing
    # pattern tiles alone put it below PRUNE of the best value so far is skipped
    rows.sort(key=lambda r: (r[TR_KIND] == T_PATTERN, int(r[TR_COUNTS:].max()),
                             r[TR_FAN] in shifted))
    out = np.full(P_T0 + TROW * len(rows), -1, dtype=np.int64)
    out[:8] = 0
    out[P_NT] = len(rows)
    out[P_BETA] = round(BETA * 1000)
    out[P_DANGER] = round(DANGER * 1000)
    out[P_DANGER2] = round(DANGER_DEFEND * 1000)
    out[P_DMODEL] = DANGER_MODEL
    out[P_DGATE] = DANGER_GATE
    for slot, key in ((P_X_DRAGON, "dragon_pung"), (P_X_PREV, "prevalent_wind"),
                      (P_X_SEAT, "seat_wind"), (P_X_HONOR, "honor_pung"),
                      (P_X_CONC, "concealed_hand"), (P_X_WIN, None)):
        out[slot] = fid.get(key, -1) if key else -1
    if "concealed" in fid and out[P_X_CONC] < 0:
        out[P_X_CONC] = fid["concealed"]
    for i, r in enumerate(rows):
        out[P_T0 + TROW * i:P_T0 + TROW * (i + 1)] = r
    return out


@kernel
def fan_points(C, f):
    """The points of fan ``f`` in the engine context array ``C`` (0 when ``f`` < 0)."""
    if f < 0:
        return 0
    return C[C[X_FIELDS + 3] + f]


@kernel
def payoff(P, v):
    """What a win of ``v`` points pays the winner on a discard under the settlement
    parameters ``P`` (the engine's parameter block): MCR the points and every loser's
    seat payment; Taiwan base + unit x points; Tuidaohu and two-player base x 2 ** (fan -
    1), the fan capped."""
    r = P[C_RULES]
    if r == 0:
        return v + P[C_SEAT_PAY] * (P[C_PLAYERS] - 1)
    if r == 1:
        return P[C_BASE] + P[C_UNIT] * v
    capped = min(v, P[C_FAN_CAP])
    if capped < 1:
        return 0
    return P[C_BASE] * (1 << (capped - 1))


@kernel
def payoff_self(P, v):
    """What a self-drawn win of ``v`` points pays the winner under ``P`` (the settlement of
    :func:`payoff`, every other player paying): MCR each loser the points and its seat
    payment; Taiwan base + unit x points each; Tuidaohu and two-player base x 2 ** (fan -
    1) each, the fan capped."""
    n = P[C_PLAYERS] - 1
    if P[C_RULES] == 0:
        return (v + P[C_SEAT_PAY]) * n
    return payoff(P, v) * n       # the others: each loser pays what a discarder would


@kernel(inline="always")
def _cls(code, s, two, tab):
    """The shanten-table class of part ``s`` (0..3) with base-5 code ``code``."""
    if s == 3:
        return tab[code + HONOR_BASE, 0] & CLASS_MASK
    if two and s > 0:
        return CLASS_DISABLED
    return tab[code, 0] & CLASS_MASK


@kernel(inline="always")
def _reg(c0, c1, c2, c3, m, vec, ct):
    """Tiles a hand of part classes ``c0..c3`` needs for ``m`` sets and a pair (the
    regular form: three class-table lookups, :mod:`mjfast.kernels._shanten`)."""
    return (vec[ct[ct[ct[c0, c1], c2], c3]] >> (5 * (2 * m + 1))) & 31


@kernel
def _types_short(c, mt, nm):
    """All types: tiles short of a group in each of the five kinds (characters, dots,
    bamboo, winds, dragons): 0 for a meld or two tiles of the suit (a pair of one wind /
    dragon), 1 for one tile, 2 for none (added to the regular distance: an upper bound)."""
    short = 0
    for g in range(5):
        lo = 9 * g if g < 3 else (27 if g == 3 else 31)
        hi = lo + 9 if g < 3 else (31 if g == 3 else 34)
        have = 0
        for j in range(nm):
            if lo <= mt[j] < hi:
                have = 2
        for x in range(lo, hi):
            if g < 3:
                have = min(2, have + c[x])
            else:
                have = max(have, min(2, c[x]))
        short += 2 - have
    return short


@kernel
def _extras(params, C, c, mk, mt, mc, nm, seat, prevalent):
    """Points the hand already holds whatever the target: pungs of value (held or
    melded), the concealed-hand fan while no meld is exposed."""
    x = 0
    fd = fan_points(C, params[P_X_DRAGON])
    fh = fan_points(C, params[P_X_HONOR])
    for h in range(27, 34):
        has = c[h] >= 3
        for j in range(nm):
            if mk[j] >= 1 and mt[j] == h:
                has = True
        if has:
            if h >= 31:
                x += fd + fh
            else:
                if h == 27 + seat:
                    x += fan_points(C, params[P_X_SEAT]) + fh
                if h == 27 + prevalent:
                    x += fan_points(C, params[P_X_PREV])
                    if h != 27 + seat:
                        x += fh
    exposed = 0
    for j in range(nm):
        if mc[j] == 0:
            exposed += 1
    if exposed == 0:
        x += fan_points(C, params[P_X_CONC])
    return x


@kernel
def plan_values(c, mk, mt, mc, nm, vis, params, C, P, tab, vec, ct, cand, k, minimum,
                horizon, seat, prevalent, out):
    """``out[i]``: the plan value of discarding ``cand[i, 0]`` from ``c`` (i < k); with
    ``k == 0`` the value of ``c`` as it is in ``out[0]``. ``mk, mt, mc``: the exposed
    melds' kinds (0 chow, 1 pung, 2 kong), lowest tiles, concealed flags (``nm`` of them).
    ``C``: the engine context array (fan points), ``P`` its parameter block (minimum,
    settlement: :func:`payoff`). ``c`` is restored on return."""
    two = params[3]
    sets = params[1]
    nt = params[P_NT]
    kk = max(k, 1)
    best = np.zeros(kk, dtype=np.float64)
    total = np.zeros(kk, dtype=np.float64)
    rest = np.zeros(34, dtype=np.int64)
    need = np.zeros(34, dtype=np.int64)
    xtra = _extras(params, C, c, mk, mt, mc, nm, seat, prevalent)
    xconc = fan_points(C, params[P_X_CONC])
    for j in range(nm):
        if mc[j] == 0:
            xconc = 0
    beta = params[P_BETA] / 1000.0
    gbest = 0.0
    flex = FLEX if minimum > 0 else 0.0
    for ti in range(nt):
        b = P_T0 + TROW * ti
        kind = params[b + TR_KIND]
        v = fan_points(C, params[b + TR_FAN]) + xtra
        cmask = params[b + TR_MASK] if kind == T_PATTERN else 0
        if kind == T_PAIRS or kind == T_ORPHANS or kind == T_HONKNIT:
            v = fan_points(C, params[b + TR_FAN])
        elif cmask != 0:
            # all chows: no pung of value; the concealed-hand fan while nothing is exposed
            v = fan_points(C, params[b + TR_FAN]) + fan_points(C, params[b + TR_FAN2]) + xconc
        if v < minimum or v <= 0:
            continue
        pay = payoff(P, v)
        dead = False
        base_d = 0
        m = 0
        k0 = k1 = k2 = k3 = 0
        if kind == T_PATTERN:
            used = 0
            extra = 0
            for t in range(34):
                need[t] = params[b + TR_COUNTS + t]
            for j in range(nm):
                hit = False
                if mk[j] == 0:
                    for q in range(3):
                        if not hit and not (used >> q) & 1 and params[b + TR_CHOW + q] == mt[j]:
                            hit = True
                            used |= 1 << q
                            for x in range(mt[j], mt[j] + 3):
                                need[x] -= 1
                if not hit:
                    extra += 1
                    if cmask != 0 and mk[j] != 0:
                        dead = True
            m = sets - params[b + TR_SETS] - extra
            if m < 0 or dead:
                continue
            miss = 0
            for t in range(34):
                h = min(c[t], need[t])
                rest[t] = c[t] - h
                if cmask != 0 and not (cmask >> t) & 1:
                    rest[t] = 0
                if need[t] > c[t]:
                    miss += need[t] - c[t]
                    if need[t] - c[t] > 4 - c[t] - vis[t]:
                        dead = True
            if dead or pay * beta ** miss < PRUNE * gbest:
                continue
            (k0, k1, k2, k3), _n = hand_codes(rest)
            base_d = miss
        elif kind == T_FLUSH:
            mask = params[b + TR_MASK]
            for j in range(nm):
                if not (mask >> mt[j]) & 1:
                    dead = True
            if dead:
                continue
            for t in range(34):
                rest[t] = c[t] if (mask >> t) & 1 else 0
            (k0, k1, k2, k3), _n = hand_codes(rest)
            m = sets - nm
        elif kind == T_PUNGS:
            for j in range(nm):
                if mk[j] == 0:
                    dead = True
            if dead:
                continue
            m = sets - nm
        elif kind == T_PLAIN or kind == T_TYPES:
            (k0, k1, k2, k3), _n = hand_codes(c)
            m = sets - nm
        elif nm > 0:
            continue
        c0 = _cls(k0, 0, two, tab)
        c1 = _cls(k1, 1, two, tab)
        c2 = _cls(k2, 2, two, tab)
        c3 = _cls(k3, 3, two, tab)
        for i in range(kk):
            t = cand[i, 0] if k > 0 else -1
            if t >= 0:
                c[t] -= 1
            if kind == T_PATTERN or kind == T_FLUSH or kind == T_PLAIN or kind == T_TYPES:
                d = base_d
                if kind == T_TYPES:
                    d += _types_short(c, mt, nm)
                lose = False
                if t >= 0:
                    if kind == T_PATTERN:
                        if c[t] + 1 <= need[t]:
                            d += 1
                        elif cmask == 0 or (cmask >> t) & 1:
                            lose = True
                    elif kind == T_PLAIN or kind == T_TYPES or (params[b + TR_MASK] >> t) & 1:
                        lose = True
                if lose:
                    s = t // 9 if t < 27 else 3
                    if s == 0:
                        d += _reg(_cls(k0 - _PW[t], 0, two, tab), c1, c2, c3, m, vec, ct)
                    elif s == 1:
                        d += _reg(c0, _cls(k1 - _PW[t - 9], 1, two, tab), c2, c3, m, vec, ct)
                    elif s == 2:
                        d += _reg(c0, c1, _cls(k2 - _PW[t - 18], 2, two, tab), c3, m, vec, ct)
                    else:
                        d += _reg(c0, c1, c2, _cls(k3 - _PW[t - 27], 3, two, tab), m, vec, ct)
                else:
                    d += _reg(c0, c1, c2, c3, m, vec, ct)
            elif kind == T_PUNGS:
                npg = 0
                npr = 0
                for x in range(34):
                    if c[x] >= 3:
                        npg += 1
                    elif c[x] == 2:
                        npr += 1
                p1 = min(npg, m)
                r = m - p1
                q = npr + npg - p1
                if q >= r + 1:
                    d = r
                elif q >= 1:
                    d = 2 * r - q + 1
                else:
                    d = 2 * r + 1
            elif kind == T_PAIRS:
                pairs = 0
                for x in range(34):
                    pairs += c[x] // 2
                d = 7 - min(pairs, 7)
            elif kind == T_ORPHANS:
                kinds = 0
                pair = 0
                for x in ORPHANS:
                    if c[x] > 0:
                        kinds += 1
                    if c[x] > 1:
                        pair = 1
                d = 14 - kinds - pair
            else:
                mask = params[b + TR_MASK]
                kinds = 0
                for x in range(34):
                    if (mask >> x) & 1 and c[x] > 0:
                        kinds += 1
                d = 14 - min(kinds, 14)
            if t >= 0:
                c[t] += 1
            if d <= horizon + 1:
                w = pay * beta ** d
                total[i] += w
                if w > best[i]:
                    best[i] = w
                    gbest = max(gbest, w)
    for i in range(kk):
        out[i] = best[i] + flex * (total[i] - best[i])
