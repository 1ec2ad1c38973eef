"""Brute-force references for shanten and waits, and the table kernels checked against them.

The reference works straight from the definition (docs/shanten.md): the distance of a hand
``H`` to a form is ``min |W - H|`` over the complete hands ``W`` of that form with at most
four copies of a tile; shanten = distance - 1. It shares nothing with the table code:

- regular form: a depth-first search over the tiles 1m..P that builds ``W`` tile by tile
  (pungs, the pair, chows opened at this tile, chows carried from the two tiles before),
  spending a budget of added tiles, with iterative deepening (budget 0, 1, 2, ...);
- seven pairs (+ Taiwan's triplet): a DP over the tiles choosing 0/2/(3)/4 copies;
- thirteen orphans, honors-and-knitted, knitted straight: every ``W`` enumerated.

Waits: every draw is tried (a tile the hand holds four of cannot be drawn); a draw is a
wait when the reference distance drops. Ready hands are checked a second time with the
decomposer kernel (``divisions``): a wait is exactly a draw that completes the hand.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from numba import njit

from mjfast.kernels._decompose import DIV_COLS, MAX_DIVISIONS, divisions
from mjfast.rules.registry import FORM_NAMES, get_rules
from mjfast._shanten import shanten, waits
from mjfast import random_hands as mjfast_random_hands

INF = 99
PERMS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])


# ---------------------------------------------------------------------------------
# reference
# ---------------------------------------------------------------------------------
@njit  # no cache: Numba cannot reload a cached self-recursive function
def _dfs(h, suffix, allowed, i, a, b, sets, pair, budget, memo, stamp, draw, cap):
    """Is there a W (sets + pair, <= 4 copies) from tile i on within ``budget`` additions?
    a: chows opened at i-2 (need tile i), b: chows opened at i-1 (need i and i+1).

    ``memo[key] = (hand stamp, largest budget known to fail, draw)``: a failure depends only
    on the counts from tile i on, so one found while trying draw D (``h`` has one more tile
    D, -1 = no draw) also holds for another draw below i when D is below i too."""
    if i == 34:
        return sets == 0 and pair == 0 and a == 0 and b == 0
    # the tiles still to place, less the tiles held from here on, must be added
    if 3 * sets + 2 * pair + a + 2 * b - suffix[i] > budget:
        return False
    key = (((i * 5 + a) * 5 + b) * 6 + sets) * 2 + pair
    if (memo[key, 0] == stamp and budget <= memo[key, 1]
            and (memo[key, 2] == draw or (i > memo[key, 2] and i > draw))):
        return False
    can_chow = i < 27 and i % 9 <= 6
    for pung in range(2):
        if pung > sets:
            break
        for pr in range(pair + 1):
            max_new = sets - pung if can_chow else 0
            for nc in range(max_new + 1):
                wi = a + b + nc + 3 * pung + 2 * pr
                if wi > cap:
                    break
                if wi > 0 and not allowed[i]:
                    break
                cost = wi - h[i] if wi > h[i] else 0
                if cost > budget:
                    break
                if _dfs(h, suffix, allowed, i + 1, b, nc, sets - pung - nc, pair - pr,
                        budget - cost, memo, stamp, draw, cap):
                    return True
    memo[key, 0] = stamp
    memo[key, 1] = budget
    memo[key, 2] = draw
    return False


@njit
def _regular_exists(h, allowed, sets, budget, memo, stamp, draw=-1, cap=4):
    if budget < 0:
        return False
    suffix = np.zeros(35, dtype=np.int64)
    for i in range(33, -1, -1):
        suffix[i] = suffix[i + 1] + h[i]
    return _dfs(h, suffix, allowed, 0, 0, 0, sets, 1, budget, memo, stamp, draw, cap)


@njit(cache=True)
def _pairs_dist(h, allowed, triplet):
    """Seven pairs (triplet=False) or Taiwan seven pairs + one triplet: DP over tiles."""
    dp = np.full((8, 2), INF, dtype=np.int64)
    dp[0, 0] = 0
    for i in range(34):
        if not allowed[i]:
            continue
        nd = np.full((8, 2), INF, dtype=np.int64)
        for p in range(8):
            for t in range(2):
                if dp[p, t] >= INF:
                    continue
                for w in (0, 2, 3, 4):
                    if w == 3 and (not triplet or t == 1):
                        continue
                    np_ = p + (w // 2 if w != 3 else 0)
                    nt = t + (1 if w == 3 else 0)
                    if np_ > 7:
                        continue
                    cost = w - h[i] if w > h[i] else 0
                    if dp[p, t] + cost < nd[np_, nt]:
                        nd[np_, nt] = dp[p, t] + cost
        dp = nd
    return dp[7, 1] if triplet else dp[7, 0]


@njit(cache=True)
def _cost(w, h):
    c = 0
    for i in range(34):
        if w[i] > 4:
            return INF
        if w[i] > h[i]:
            c += w[i] - h[i]
    return c


@njit(cache=True)
def _orphans_dist(h):
    best = INF
    w = np.zeros(34, dtype=np.int64)
    for d in range(13):
        w[:] = 0
        for k in range(13):
            w[ORPHANS[k]] = 1
        w[ORPHANS[d]] = 2
        best = min(best, _cost(w, h))
    return best


@njit(cache=True)
def _knit_tiles(p, out):
    k = 0
    for s in range(3):
        g = PERMS[p, s]
        for j in range(3):
            out[k] = 9 * s + g + 3 * j
            k += 1


@njit(cache=True)
def _honors_knitted_dist(h):
    best = INF
    tiles = np.zeros(16, dtype=np.int64)
    w = np.zeros(34, dtype=np.int64)
    for p in range(6):
        _knit_tiles(p, tiles)
        for k in range(7):
            tiles[9 + k] = 27 + k
        for x in range(16):
            for y in range(x + 1, 16):
                w[:] = 0
                for k in range(16):
                    if k != x and k != y:
                        w[tiles[k]] = 1
                best = min(best, _cost(w, h))
    return best


@njit(cache=True)
def _knitted_straight_dist(h, n_sets, bound):
    """min over W = 9 knitted tiles + n_sets (0 or 1) sets + a pair of |W - h|, every W
    enumerated (branch and bound: results at or above ``bound`` come back as ``bound``).
    The cost is counted on the tiles the pair and the set touch."""
    best = bound
    tiles = np.zeros(9, dtype=np.int64)
    kw = np.zeros(34, dtype=np.int64)
    w = np.zeros(34, dtype=np.int64)
    touched = np.zeros(4, dtype=np.int64)
    for p in range(6):
        _knit_tiles(p, tiles)
        kw[:] = 0
        for k in range(9):
            kw[tiles[k]] = 1
        base = _cost(kw, h)
        if base >= best:
            continue
        w[:] = kw
        for pair in range(34):
            w[pair] += 2
            pc = base + max(0, w[pair] - h[pair]) - max(0, kw[pair] - h[pair])
            if w[pair] <= 4 and pc < best:
                for st in range(34 + 21 if n_sets == 1 else 1):
                    nt = 0
                    if n_sets == 1:
                        if st < 34:
                            w[st] += 3
                            touched[nt] = st
                            nt += 1
                        else:
                            q = st - 34
                            b0 = 9 * (q // 7) + q % 7
                            for j in range(3):
                                w[b0 + j] += 1
                                touched[nt] = b0 + j
                                nt += 1
                    c = pc
                    ok = True
                    for x in range(nt):
                        tx = touched[x]
                        if w[tx] > 4:
                            ok = False
                        before = kw[tx] + (2 if tx == pair else 0)
                        c += max(0, w[tx] - h[tx]) - max(0, before - h[tx])
                    if ok and c < best:
                        best = c
                    for x in range(nt):
                        w[touched[x]] -= 1 if st >= 34 else 3
            w[pair] -= 2
    return best


@njit
def _form_dist(h, allowed, form, m, sets_max, memo, stamp, limit, draw, bound):
    """Reference distance of one form (INF when the row cannot reach it); the regular
    form is searched with iterative deepening up to ``limit``."""
    if form == 0:
        for budget in range(limit + 1):
            if _regular_exists(h, allowed, m, budget, memo, stamp[0], draw):
                return budget
        return INF
    if form == 4:
        if m >= sets_max - 1:
            return _knitted_straight_dist(h, m - (sets_max - 1), bound)
        return INF
    if m != sets_max:
        return INF
    if form == 1:
        return _pairs_dist(h, allowed, False)
    if form == 5:
        return _pairs_dist(h, allowed, True)
    if form == 2:
        return _orphans_dist(h)
    if form == 3:
        return _honors_knitted_dist(h)
    return INF


@njit(nogil=True)
def _ref_batch(hands, allowed, form_mask, sets_max, with_waits, out_sh, out_forms, out_mask):
    """Reference shanten (+ per-form values, + every-draw waits) of each row."""
    memo = np.zeros((34 * 5 * 5 * 6 * 2, 3), dtype=np.int64)
    stamp = np.zeros(1, dtype=np.int64)
    h = np.zeros(34, dtype=np.int64)
    fd = np.full(6, INF, dtype=np.int64)
    for r in range(hands.shape[0]):
        for i in range(34):
            h[i] = hands[r, i]
        n = h.sum()
        m = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
        d = INF
        stamp[0] += 1
        for f in range(6):
            fd[f] = INF
            if form_mask & (1 << f):
                fd[f] = _form_dist(h, allowed, f, m, sets_max, memo, stamp, 19, -1, INF)
                d = min(d, fd[f])
            out_forms[r, f] = fd[f] - 1 if fd[f] < INF else 127
        out_sh[r] = d - 1
        if not with_waits:
            continue
        for t in range(33, -1, -1):      # descending: failures past t are shared
            out_mask[r, t] = False
            if h[t] >= 4 or not allowed[t]:
                continue
            h[t] += 1
            for f in range(6):
                # a draw lowers a form's distance by at most one, so only the forms at
                # the minimum can lower the shanten
                if fd[f] == d:
                    if f == 0:
                        ok = _regular_exists(h, allowed, m, d - 1, memo, stamp[0], t)
                    else:
                        ok = _form_dist(h, allowed, f, m, sets_max, memo, stamp, 0, t, d) < d
                    if ok:
                        out_mask[r, t] = True
                        break
            h[t] -= 1


def ref_batch(hands: np.ndarray, rules: str, with_waits: bool = True):
    """(shanten (N,), per-form (N, 6) with 127 = unreachable, waits mask (N, 34))."""
    rs = get_rules(rules)
    n = len(hands)
    sh = np.zeros(n, dtype=np.int64)
    forms = np.zeros((n, 6), dtype=np.int64)
    mask = np.zeros((n, 34), dtype=np.bool_)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    fm = sum(1 << f for f in rs.forms)
    # two threads (the search releases the GIL): CI machines have two cores
    half = n // 2
    _ref_batch(hands[:1], rs.kind_mask, fm, rs.sets, with_waits, sh[:1], forms[:1], mask[:1])
    with ThreadPoolExecutor(2) as ex:
        futs = [ex.submit(_ref_batch, hands[lo:hi], rs.kind_mask, fm, rs.sets, with_waits,
                          sh[lo:hi], forms[lo:hi], mask[lo:hi])
                for lo, hi in ((0, half), (half, n))]
        for f in futs:
            f.result()
    return sh, forms, mask


# ---------------------------------------------------------------------------------
# samples
# ---------------------------------------------------------------------------------
@njit(nogil=True)
def _regular_dist_batch(hands, allowed, cap, out):
    memo = np.zeros((34 * 5 * 5 * 6 * 2, 3), dtype=np.int64)
    stamp = np.zeros(1, dtype=np.int64)
    h = np.zeros(34, dtype=np.int64)
    for r in range(hands.shape[0]):
        for i in range(34):
            h[i] = hands[r, i]
        n = h.sum()
        m = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
        budget = 0
        stamp[0] += 1
        while True:
            if _regular_exists(h, allowed, m, budget, memo, stamp[0], -1, cap):
                break
            budget += 1
        out[r] = budget - 1


def ref_regular_shanten(hands: np.ndarray, rules: str = "mcr", cap: int = 4) -> np.ndarray:
    """Reference regular-form shanten with at most ``cap`` copies of a tile in W
    (cap > 4 gives the count the MahjongGB calculator makes, a fifth copy allowed)."""
    out = np.zeros(len(hands), dtype=np.int64)
    _regular_dist_batch(np.ascontiguousarray(hands, dtype=np.int64), get_rules(rules).kind_mask,
                        cap, out)
    return out


def random_hands(rng, rules: str, n_tiles: int, n: int, dense: bool = False) -> np.ndarray:
    """n hands of n_tiles drawn from the rule set's wall (the library's
    ``random_hands(kind="wall")``, seeded from ``rng``). ``dense``: drawn from a few kinds
    only, which makes fours, ready hands and crowded suits common: a deliberately
    different input distribution for this brute-force differential test."""
    if not dense:
        seed = int(rng.integers(0, 2**63))
        return mjfast_random_hands(n, rules, "wall", seed=seed, tiles=n_tiles).counts
    rs = get_rules(rules)
    kinds = np.array(rs.kinds)
    out = np.zeros((n, 34), dtype=np.uint8)
    for r in range(n):
        k = rng.choice(kinds, size=rng.integers(max(4, (n_tiles + 3) // 4), 12), replace=False)
        tiles = rng.choice(np.repeat(k, 4), size=n_tiles, replace=False)
        np.add.at(out[r], tiles, 1)
    return out


def _sizes(rules: str) -> list[int]:
    rs = get_rules(rules)
    return [rs.hand_size - 3 * k for k in range(rs.sets + 1)]


CASES = [(r, n) for r in ("mcr", "tuidaohu", "two_player", "taiwan") for n in _sizes(r)]


def _n_samples(n_tiles: int) -> int:
    """20k per rule set and hand size (``MJFAST_BRUTE_N`` overrides, for quick local runs)."""
    return int(os.environ.get("MJFAST_BRUTE_N", 20000))


# ---------------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("rules,n_tiles", CASES)
def test_shanten_and_waits_vs_bruteforce(rules, n_tiles):
    rng = np.random.default_rng(1000 + 31 * n_tiles + len(rules))
    n = _n_samples(n_tiles)
    hands = np.concatenate([random_hands(rng, rules, n_tiles, n // 2),
                            random_hands(rng, rules, n_tiles, n - n // 2, dense=True)])
    got = waits(hands, rules=rules)
    sh, _, mask = ref_batch(hands, rules)
    bad_sh = np.flatnonzero(sh != got.shanten)
    bad_w = np.flatnonzero((mask != got.mask).any(axis=1))
    assert bad_sh.size == 0, [(hands[i].tolist(), sh[i], got.shanten[i]) for i in bad_sh[:3]]
    assert bad_w.size == 0, [(hands[i].tolist(), np.flatnonzero(mask[i]).tolist(),
                              np.flatnonzero(got.mask[i]).tolist()) for i in bad_w[:3]]


@pytest.mark.slow
@pytest.mark.parametrize("rules,n_tiles", CASES)
def test_complete_size_shanten_vs_bruteforce(rules, n_tiles):
    """14-tile (17 Taiwan, and fewer with melds) rows: shanten and every form."""
    rng = np.random.default_rng(2000 + 31 * n_tiles + len(rules))
    n = _n_samples(n_tiles) // 4
    hands = np.concatenate([random_hands(rng, rules, n_tiles + 1, n // 2),
                            random_hands(rng, rules, n_tiles + 1, n - n // 2, dense=True)])
    got = shanten(hands, rules=rules, forms=True)
    sh, forms, _ = ref_batch(hands, rules, with_waits=False)
    assert np.array_equal(got["shanten"], sh)
    rs = get_rules(rules)
    for f in rs.forms:
        bad = np.flatnonzero(got[FORM_NAMES[f]] != forms[:, f])
        assert bad.size == 0, (FORM_NAMES[f], [hands[i].tolist() for i in bad[:3]])


@pytest.mark.slow
@pytest.mark.parametrize("rules,n_tiles", CASES)
def test_ready_hands_waits_are_completing_draws(rules, n_tiles):
    """Every wait of a ready hand completes it (decomposer), and nothing else does."""
    rng = np.random.default_rng(3000 + n_tiles)
    rs = get_rules(rules)
    mask_forms = sum(1 << f for f in rs.forms)
    hands = random_hands(rng, rules, n_tiles, 6000, dense=True)
    got = waits(hands, rules=rules)
    ready = np.flatnonzero(got.shanten == 0)
    assert len(ready) > 50
    out = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    for i in ready:
        h = hands[i].astype(np.int64)
        for t in range(34):
            if not rs.kind_mask[t] or h[t] >= 4:
                assert not got.mask[i, t]
                continue
            h[t] += 1
            complete = divisions(h, mask_forms, out) > 0
            h[t] -= 1
            assert complete == got.mask[i, t], (hands[i].tolist(), t)
