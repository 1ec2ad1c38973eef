"""The compiled built-in bots: ``efficiency`` and ``value`` (Numba).

Both choose among the engine's legal actions (``mjfast.engine``: ``legal_actions`` rows
``kind, tile, aux, target``) and never decide a rule of play themselves.

- **efficiency**: wins whenever the engine offers a win; otherwise discards to the lowest
  shanten, then the most live effective tiles (copies not in its hand, not discarded, not
  in exposed melds), ties broken by the counter-based RNG; makes a concealed / added kong
  when it does not raise the shanten; claims a pung, chow or exposed kong when the claim
  (with its best discard) lowers the shanten (a kong: when it does not raise it).
- **value**: as efficiency, except that when its best discard leaves the hand ready
  (shanten 0), it keeps, among the ready discards, the one whose live winning tiles are
  worth most: the number of live winning tiles whose win (scored by the engine's own win
  evaluation as a win on a discard) reaches the rule set's minimum, then the live-weighted
  total; in rule sets without a minimum the live-weighted total first. One ply, no search.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine._core import (K_CHOW, K_DISCARD, K_KONG_ADDED, K_KONG_CONCEALED,
                            K_KONG_EXPOSED, K_PUNG, K_WIN, win_value)
from ..engine._layout import ACT_PASS, HAND, H_LAST_PLAYER, H_LAST_TILE, MAX_FANS, VISIBLE
from ..kernels._config import JIT_OPTIONS
from ._eval import C_LIVE, C_SHANTEN, C_TILE, discard_options, eval_rows, set_visible, shanten_of
from ._rng import random64

BOT_EFFICIENCY = 0
BOT_VALUE = 1
BOT_PYTHON = -1          # decided outside the compiled loop (Python policy, external bot)
BUILTIN = {"efficiency": BOT_EFFICIENCY, "value": BOT_VALUE}


@njit(**JIT_OPTIONS)
def _hand(S, p, c):
    for t in range(34):
        c[t] = S[HAND + 34 * p + t]


@njit(**JIT_OPTIONS)
def _visible(S, bc):
    set_visible(bc, S[VISIBLE:VISIBLE + 34])


@njit(**JIT_OPTIONS)
def _pick(scores, k, key, ctr):
    """Index of the highest score in ``scores[:k]``, ties by the RNG word (key, ctr)."""
    best = scores[0]
    for i in range(1, k):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(k):
        if scores[i] == best:
            ties += 1
    r = np.int64(0)
    if ties > 1:
        r = np.int64((random64(key, ctr) >> np.uint64(33)) % np.uint64(ties))
    for i in range(k):
        if scores[i] == best:
            if r == 0:
                return i
            r -= 1
    return 0


@njit(**JIT_OPTIONS)
def _ready_value(S, ctx, bc, p, i, minimum, fans):
    """(legal live waits, live-weighted total) of candidate discard ``i`` (a ready hand):
    each winning tile scored by the engine as a discard win with ``cand[i]``'s tile out
    of the hand (the state is restored before returning)."""
    mask = bc[5]
    live = bc[6]
    cand = bc[7]
    d = cand[i, C_TILE]
    S[HAND + 34 * p + d] -= 1
    n_legal = 0
    weighted = 0
    for w in range(34):
        if mask[i, w] and live[i, w] > 0:
            total, legal, fl = win_value(S, ctx, p, w, False, False, fans)
            if total >= 0:
                if legal and total >= minimum:
                    n_legal += live[i, w]
                weighted += live[i, w] * total
    S[HAND + 34 * p + d] += 1
    return n_legal, weighted


@njit(**JIT_OPTIONS)
def decide_turn(S, ctx, bc, p, acts, n, bot, key, ctr, minimum, c, scores, fans, waits):
    """The action row (index into ``acts[:n]``) player ``p`` takes on its own turn.
    ``waits[p]`` receives the bit mask of the winning tiles of the hand left by a chosen
    discard (0 when not ready): the loop asks a player for claims only when it could act."""
    waits[p] = -1
    for i in range(n):
        if acts[i, 0] == K_WIN:
            return i
    _hand(S, p, c)
    _visible(S, bc)
    k = discard_options(bc, c)
    cand = bc[7]
    best = 99
    for i in range(k):
        if cand[i, C_SHANTEN] < best:
            best = cand[i, C_SHANTEN]
    # kongs that keep the shanten
    for i in range(n):
        kind = acts[i, 0]
        if kind == K_KONG_CONCEALED:
            t = acts[i, 1]
            c[t] -= 4
            s = shanten_of(bc, c)
            c[t] += 4
            if s <= best:
                return i
        elif kind == K_KONG_ADDED:
            t = acts[i, 1]
            for j in range(k):
                if cand[j, C_TILE] == t and cand[j, C_SHANTEN] == best:
                    return i
    # the discard
    for i in range(k):
        if cand[i, C_SHANTEN] == best:
            scores[i] = 1000 * 1000 + cand[i, C_LIVE]
        else:
            scores[i] = -1
    if bot == 1 and best == 0:
        for i in range(k):
            if cand[i, C_SHANTEN] == 0:
                nl, wt = _ready_value(S, ctx, bc, p, i, minimum, fans)
                if minimum > 0:
                    scores[i] = 1000 * 1000 + nl * 100000 + min(wt, 99999)
                else:
                    scores[i] = 1000 * 1000 + min(wt, 999999)
    j = _pick(scores, k, key, ctr)
    t = cand[j, C_TILE]
    wm = np.int64(0)
    if cand[j, C_SHANTEN] == 0:
        mask = bc[5]
        for w in range(34):
            if mask[j, w]:
                wm |= np.int64(1) << np.int64(w)
    waits[p] = wm
    for i in range(n):
        if acts[i, 0] == K_DISCARD and acts[i, 1] == t:
            return i
    return -1


@njit(**JIT_OPTIONS)
def decide_claim(S, ctx, bc, p, acts, n, bot, key, ctr, c):
    """The action row player ``p`` takes on another player's discard / added kong."""
    pass_i = -1
    for i in range(n):
        if acts[i, 0] == K_WIN:
            return i
        if acts[i, 0] == ACT_PASS:
            pass_i = i
    _hand(S, p, c)
    _visible(S, bc)
    s0 = shanten_of(bc, c)
    t = S[H_LAST_TILE]
    best_i = pass_i
    best_s = s0
    best_live = -1
    for i in range(n):
        kind = acts[i, 0]
        if kind == K_PUNG or kind == K_CHOW:
            if kind == K_PUNG:
                c[t] -= 2
            else:
                lo = acts[i, 2]
                for x in range(lo, lo + 3):
                    if x != t:
                        c[x] -= 1
            k = discard_options(bc, c)
            if kind == K_PUNG:
                c[t] += 2
            else:
                lo = acts[i, 2]
                for x in range(lo, lo + 3):
                    if x != t:
                        c[x] += 1
            cand = bc[7]
            s1 = 99
            lv = -1
            for j in range(k):
                if cand[j, C_SHANTEN] < s1 or (cand[j, C_SHANTEN] == s1 and cand[j, C_LIVE] > lv):
                    s1 = cand[j, C_SHANTEN]
                    lv = cand[j, C_LIVE]
            if s1 < best_s or (s1 == best_s and best_i != pass_i and lv > best_live):
                best_s = s1
                best_live = lv
                best_i = i
    for i in range(n):
        if acts[i, 0] == K_KONG_EXPOSED:
            c[t] -= 3
            s1 = shanten_of(bc, c)
            c[t] += 3
            if s1 <= s0 and s1 <= best_s:
                return i
    return best_i
