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

The compiled loop calls :func:`turn_choice` / :func:`claim_choice` (no scoring context:
a tuple of many arrays is costly to pass per decision) and, for a ``value`` bot with a
ready discard, :func:`value_choice`. :func:`decide_turn` / :func:`decide_claim` are the
same choices in one call (the Python loop's entry points).

The helpers that only read and write arrays their caller owns are compiled without
reference counting (``kernel(nrt=False)``, as are the shanten rows they call): Numba
otherwise increments and decrements the count of every array argument and tuple element
on every call, which was about a third of an ``efficiency`` decision's time (simulation
21-38% less CPU per deal, every rule set and bot; docs/simulation.md).
"""
from __future__ import annotations

import numpy as np

from ..kernels import C_BASE, C_MINIMUM, C_RULES, C_SEAT_PAY
from ..engine.compiled import (K_CHOW, K_DISCARD, K_KONG_ADDED, K_KONG_CONCEALED,
                               K_KONG_EXPOSED, K_PUNG, K_WIN, win_value)
from ..engine.compiled import wall_left
from ..engine.layout import (ACT_PASS, HAND, H_LAST_TILE, H_NMELDS, H_PLAYERS, H_PREVALENT,
                             H_SEATS, M_FLAGS, M_KIND, M_TILE, MAX_MELDS, MELD_CONCEALED,
                             MELD_FIELDS, MELDS, VISIBLE, WALL_BOTZONE, H_WALL_MODE,
                             H_NDISC, MAX_RIVER, RIVER)
from ..engine.layout import H_FIRST_DONE, H_KONG_FLAG, H_LAST_DRAW
from ..kernels import kernel
from ._eval import C_LIVE, C_SHANTEN, C_TILE, discard_options, shanten_of
from ._planner import (FED_TOTAL, FEEDQ, FEEDQ_MELDS, FEEDQ_RIVER, P_BETA, P_DANGER,
                       P_DANGER2, P_DGATE, P_DMODEL, payoff, plan_values)
from ._planner import payoff_self
from ._rng import random64

BOT_EFFICIENCY = 0
BOT_VALUE = 1
BOT_PLANNER = 2
BOT_PLANNER_DEFEND = 3   # the planner with its own defence weight (slot P_DANGER2)
BOT_PYTHON = -1          # decided outside the compiled loop (Python policy, external bot)
BUILTIN = {"efficiency": BOT_EFFICIENCY, "value": BOT_VALUE, "planner": BOT_PLANNER,
           "planner_defend": BOT_PLANNER_DEFEND}
NEED_VALUE = -2          # turn_choice: a value bot's ready discards must be ranked
NEED_PLAN = -3           # turn_choice: a planner decides (:func:`planner_turn`)


@kernel(nrt=False)
def _hand(S, p, c):
    for t in range(34):
        c[t] = S[HAND + 34 * p + t]


@kernel(nrt=False)
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


@kernel(nrt=False)
def _options(S, bc, p, c):
    """Discard candidates of ``p``'s hand (complete size) into ``bc``; returns their count."""
    params, tab, vec, ct, opt, FD, R, cand, emask = bc
    _hand(S, p, c)
    return discard_options(c, S[VISIBLE:VISIBLE + 34], params, tab, vec, ct, opt, FD, R,
                           cand, emask)


@kernel(nrt=False)
def _shanten(bc, c):
    params, tab, vec, ct, opt, FD, R, cand, emask = bc
    return shanten_of(c, params, tab, vec, ct, FD)


@kernel(nrt=False)
def _lowest_shanten(cand, k):
    best = 99
    for i in range(k):
        if cand[i, C_SHANTEN] < best:
            best = cand[i, C_SHANTEN]
    return best


@kernel(nrt=False)
def _kong_keeping(bc, acts, n, c, k, best):
    """The row of a concealed or added kong that keeps the shanten ``best`` (the lowest
    of the ``k`` discard candidates in ``bc``), or -1."""
    cand = bc[7]
    for i in range(n):
        kind = acts[i, 0]
        if kind == K_KONG_CONCEALED:
            t = acts[i, 1]
            c[t] -= 4
            s = _shanten(bc, c)
            c[t] += 4
            if s <= best:
                return i
        elif kind == K_KONG_ADDED:
            t = acts[i, 1]
            for j in range(k):
                if cand[j, C_TILE] == t and cand[j, C_SHANTEN] == best:
                    return i
    return -1


@kernel(nrt=False)
def _finish(bc, p, acts, n, k, scores, key, ctr, waits):
    """The discard of the best score (ties by the RNG); ``waits[p]`` its winning tiles."""
    cand = bc[7]
    j = _pick(scores, k, key, ctr)
    t = cand[j, C_TILE]
    wm = np.int64(0)
    if cand[j, C_SHANTEN] == 0:
        wm = bc[8][j]
    waits[p] = wm
    for i in range(n):
        if acts[i, 0] == K_DISCARD and acts[i, 1] == t:
            return i
    return -1


@kernel(nrt=False)
def turn_choice(S, bc, p, acts, n, bot, key, ctr, c, scores, waits):
    """Player ``p``'s own turn: ``(row, k)``, ``row`` the action (index into
    ``acts[:n]``), or ``(NEED_VALUE, k)`` when a value bot must rank its ready discards
    (:func:`value_choice`; the ``k`` candidates are left in ``bc``). ``waits[p]``
    receives the bit mask of the winning tiles of the hand left by a chosen discard (0
    when not ready): the loop asks a player for claims only when it could act."""
    waits[p] = -1
    for i in range(n):
        if acts[i, 0] == K_WIN:
            return i, 0
    if bot >= BOT_PLANNER:
        return NEED_PLAN, 0
    k = _options(S, bc, p, c)
    cand = bc[7]
    best = _lowest_shanten(cand, k)
    kong = _kong_keeping(bc, acts, n, c, k, best)
    if kong >= 0:
        return kong, k
    # the discard
    for i in range(k):
        if cand[i, C_SHANTEN] == best:
            scores[i] = 1000 * 1000 + cand[i, C_LIVE]
        else:
            scores[i] = -1
    if bot == 1 and best == 0:
        return NEED_VALUE, k
    return _finish(bc, p, acts, n, k, scores, key, ctr, waits), k


@kernel
def _ready_value(S, ctx, p, d, eff, c, minimum, fans):
    """(legal live waits, live-weighted total) of discarding ``d`` (a ready hand, winning
    tiles ``eff``): each winning tile scored by the engine as a discard win with ``d`` out
    of the hand (the state and ``c`` are restored before returning)."""
    S[HAND + 34 * p + d] -= 1
    c[d] -= 1
    n_legal = 0
    weighted = 0
    for w in range(34):
        if (eff >> w) & 1:
            lv = 4 - c[w] - S[VISIBLE + w]
            if lv > 0:
                total, legal, fl = win_value(S, ctx, p, w, False, False, fans)
                if total >= 0:
                    if legal and total >= minimum:
                        n_legal += lv
                    weighted += lv * total
    c[d] += 1
    S[HAND + 34 * p + d] += 1
    return n_legal, weighted


@kernel
def value_choice(S, ctx, bc, p, acts, n, k, key, ctr, minimum, c, scores, fans, waits):
    """A value bot's discard among ``k`` candidates when its best discard leaves it ready
    (after :func:`turn_choice` returned ``NEED_VALUE``)."""
    cand = bc[7]
    emask = bc[8]
    for i in range(k):
        if cand[i, C_SHANTEN] == 0:
            nl, wt = _ready_value(S, ctx, p, cand[i, C_TILE], emask[i], c, minimum, fans)
            if minimum > 0:
                scores[i] = 1000 * 1000 + nl * 100000 + min(wt, 99999)
            else:
                scores[i] = 1000 * 1000 + min(wt, 999999)
    return _finish(bc, p, acts, n, k, scores, key, ctr, waits)


@kernel(nrt=False)
def _win_or_pass(acts, n):
    """A claim's offered rows: ``(win, pass)``, the first win row (-1 when none; then
    ``pass`` is the last pass row, -1 when none)."""
    pass_i = -1
    for i in range(n):
        if acts[i, 0] == K_WIN:
            return i, pass_i
        if acts[i, 0] == ACT_PASS:
            pass_i = i
    return -1, pass_i


@kernel(nrt=False)
def claim_choice(S, bc, p, acts, n, c):
    """The action row player ``p`` takes on another player's discard / added kong."""
    win_i, pass_i = _win_or_pass(acts, n)
    if win_i >= 0:
        return win_i
    _hand(S, p, c)
    s0 = _shanten(bc, c)
    t = S[H_LAST_TILE]
    best_i = pass_i
    best_s = s0
    best_live = -1
    params, tab, vec, ct, opt, FD, R, cand, emask = bc
    vis = S[VISIBLE:VISIBLE + 34]
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
            k = discard_options(c, vis, params, tab, vec, ct, opt, FD, R, cand, emask)
            if kind == K_PUNG:
                c[t] += 2
            else:
                lo = acts[i, 2]
                for x in range(lo, lo + 3):
                    if x != t:
                        c[x] += 1
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
            s1 = _shanten(bc, c)
            c[t] += 3
            if s1 <= s0 and s1 <= best_s:
                return i
    return best_i


@kernel
def decide_turn(S, ctx, bc, p, acts, n, bot, key, ctr, minimum, c, scores, fans, waits):
    """:func:`turn_choice` then, where needed, :func:`value_choice` (one call)."""
    i, k = turn_choice(S, bc, p, acts, n, bot, key, ctr, c, scores, waits)
    if i == NEED_VALUE:
        i = value_choice(S, ctx, bc, p, acts, n, k, key, ctr, minimum, c, scores, fans, waits)
    elif i == NEED_PLAN:
        i = planner_turn(S, ctx, bc, p, acts, n, bot, key, ctr, minimum, c, scores, fans,
                         waits)
    return i


@kernel
def decide_claim(S, ctx, bc, p, acts, n, bot, key, ctr, c):
    """:func:`claim_choice` (:func:`planner_claim` for a planner) with the Python loop's
    arguments."""
    if bot >= BOT_PLANNER:
        return planner_claim(S, ctx, bc, p, acts, n, ctx[0][C_MINIMUM], c)
    return claim_choice(S, bc, p, acts, n, c)


# ---- planner --------------------------------------------------------------------------
@kernel
def _melds(S, p, mk, mt, mc):
    """``p``'s melds into ``mk`` (kind), ``mt`` (lowest tile), ``mc`` (1: concealed
    kong); returns their count."""
    nm = S[H_NMELDS + p]
    for j in range(nm):
        m = MELDS + (p * MAX_MELDS + j) * MELD_FIELDS
        mk[j] = S[m + M_KIND]
        mt[j] = S[m + M_TILE]
        mc[j] = 1 if (S[m + M_FLAGS] & MELD_CONCEALED) != 0 else 0
    return nm


@kernel
def _horizon(S, p):
    """The draws ``p`` can still expect (its Botzone segment; else the wall's share)."""
    if S[H_WALL_MODE] == WALL_BOTZONE:
        return wall_left(S, p)
    return wall_left(S, p) // S[H_PLAYERS]


@kernel
def _ready_legal(S, ctx, p, d, eff, c, minimum, fans):
    """Live-weighted expected payment of the legal wins of the ready hand left by
    discarding ``d`` (winning tiles ``eff``). A live winning tile arrives by the player's
    own draw with chance 1 / players (none when it has no draw left), else on a discard
    (the uniform-arrival assumption: every player as likely to deliver it); each way is
    scored by the engine (a self-drawn win with the tile in the hand, a discard win
    without), counted only when legal and at least the minimum, and paid by the rule
    set's settlement for that way (:func:`payoff_self` / :func:`payoff`). The win is
    scored as a later one: not on this turn's (kong replacement, last) draw, this first
    turn over. The state and ``c`` are restored before returning."""
    n = S[H_PLAYERS]
    q_self = 1.0 / n if _horizon(S, p) > 0 else 0.0
    S[HAND + 34 * p + d] -= 1
    c[d] -= 1
    kong_flag = S[H_KONG_FLAG]
    last_draw = S[H_LAST_DRAW]
    first_done = S[H_FIRST_DONE + p]
    S[H_KONG_FLAG] = 0
    S[H_LAST_DRAW] = 0
    S[H_FIRST_DONE + p] = 1
    weighted = 0.0
    for w in range(34):
        if (eff >> w) & 1:
            lv = 4 - c[w] - S[VISIBLE + w]
            if lv > 0:
                pay = 0.0
                total, legal, fl = win_value(S, ctx, p, w, False, False, fans)
                if total > 0 and legal and total >= minimum:
                    pay += (1.0 - q_self) * payoff(ctx[0], total)
                if q_self > 0:
                    S[HAND + 34 * p + w] += 1
                    total, legal, fl = win_value(S, ctx, p, w, True, False, fans)
                    S[HAND + 34 * p + w] -= 1
                    if total > 0 and legal and total >= minimum:
                        pay += q_self * payoff_self(ctx[0], total)
                weighted += lv * pay
    S[H_FIRST_DONE + p] = first_done
    S[H_LAST_DRAW] = last_draw
    S[H_KONG_FLAG] = kong_flag
    c[d] += 1
    S[HAND + 34 * p + d] += 1
    return weighted


@kernel
def _plan(S, ctx, bc, p, c, cand, k, minimum, mk, mt, mc, nm, out):
    """:func:`plan_values` for player ``p``'s hand ``c`` and melds (``k`` candidates of
    ``cand``; ``k == 0``: the hand as it is)."""
    params, tab, vec, ct, opt, FD, R, cnd, emask = bc
    plan_values(c, mk, mt, mc, nm, S[VISIBLE:VISIBLE + 34], params, ctx[1], ctx[0], tab, vec,
                ct, cand, k, minimum, _horizon(S, p), S[H_SEATS + p], S[H_PREVALENT], out)


@kernel
def planner_turn(S, ctx, bc, p, acts, n, bot, key, ctr, minimum, c, scores, fans, waits):
    """A planner's own turn: a win when offered; a kong that keeps the shanten; else the
    discard of the highest plan value (:mod:`._planner`; a ready discard also by the
    engine's exact value of its legal waits), then the lower shanten and more live
    effective tiles; without any plan, as ``efficiency``. ``bot``: ``planner`` weighs the
    danger by slot ``P_DANGER``, ``planner_defend`` by ``P_DANGER2``."""
    waits[p] = -1
    for i in range(n):
        if acts[i, 0] == K_WIN:
            return i
    k = _options(S, bc, p, c)
    cand = bc[7]
    emask = bc[8]
    best = _lowest_shanten(cand, k)
    kong = _kong_keeping(bc, acts, n, c, k, best)
    if kong >= 0:
        return kong
    mk = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    mt = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    mc = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    nm = _melds(S, p, mk, mt, mc)
    vals = np.zeros(k, dtype=np.float64)
    _plan(S, ctx, bc, p, c, cand, k, minimum, mk, mt, mc, nm, vals)
    for i in range(k):
        if cand[i, C_SHANTEN] == 0:
            # a ready hand: the engine's exact value of its live legal waits (a live copy
            # weighs a quarter of a target one tile away); ready without a legal wait,
            # its targets are at least one exchange further
            lw = _ready_legal(S, ctx, p, cand[i, C_TILE], emask[i], c, minimum, fans)
            if lw > 0:
                vals[i] = max(vals[i], lw * bc[0][P_BETA] / 4000.0)
            else:
                vals[i] *= bc[0][P_BETA] / 1000.0
    plain = True                 # no plan: as efficiency (but for the danger)
    for i in range(k):
        if vals[i] > 0:
            plain = False
    weight = bc[0][P_DANGER] if bot == BOT_PLANNER else bc[0][P_DANGER2]
    gate = bc[0][P_DGATE]
    if weight > 0 and (best >= gate if gate >= 0 else best < -gate):
        if bc[0][P_DMODEL] == 0:
            _danger(S, ctx, p, c, cand, k, minimum, weight, vals)
        else:
            _danger_opp(S, ctx, p, cand, k, minimum, weight, vals)
    vmax = -1e30
    vmin = 1e30
    for i in range(k):
        vmax = max(vmax, vals[i])
        vmin = min(vmin, vals[i])
    for i in range(k):
        lv = max(cand[i, C_LIVE], 0)
        rel = 0
        if vmax > vmin:
            rel = np.int64((vals[i] - vmin) / (vmax - vmin) * 10000.0)
        if plain:
            sh = 1 if cand[i, C_SHANTEN] == best else 0
            scores[i] = (sh * 1000 + (min(lv, 999) if sh else 0)) * 10001 + rel
        else:
            scores[i] = (rel * 100 + (9 - min(cand[i, C_SHANTEN], 9))) * 1000 + min(lv, 999)
    return _finish(bc, p, acts, n, k, scores, key, ctr, waits)


@kernel
def _danger(S, ctx, p, c, cand, k, minimum, bc_danger, vals):
    """Take from each candidate's value the points it may lose by feeding a win, from
    what every player sees: an opponent's chance of being ready grows with its discards
    and exposed melds; a tile completes a ready hand with a small chance, none for an
    honor whose every other copy is in sight, less for a tile the opponent discarded
    itself; a win fed costs about the minimum and a seat payment."""
    n = S[H_PLAYERS]
    loss = payoff(ctx[0], minimum + 4) / max(n - 1, 1) * bc_danger / 1000.0
    for q in range(n):
        if q == p:
            continue
        ready = min(0.9, 0.04 * S[H_NDISC + q] + 0.12 * S[H_NMELDS + q])
        if ready <= 0:
            continue
        nd = min(S[H_NDISC + q], MAX_RIVER)
        for i in range(k):
            t = cand[i, C_TILE]
            w = 0.06 if t < 27 else 0.03
            if t >= 27 and 4 - c[t] - S[VISIBLE + t] <= 0:
                w = 0.0
            for j in range(nd):
                if (S[RIVER + MAX_RIVER * q + j] & 63) == t:
                    w *= 0.3
                    break
            vals[i] -= ready * w * loss


@kernel
def _fed_loss(P, minimum, bc_danger):
    """What the discarder pays for a typical fed win (the minimum + ``FED_TOTAL`` points;
    MCR: the points and its seat payment), times the weight (thousandths)."""
    v = minimum + FED_TOTAL
    loss = payoff(P, v)
    if P[C_RULES] == 0:
        loss = v + P[C_SEAT_PAY]
    return loss * bc_danger / 1000.0


@kernel
def _danger_opp(S, ctx, p, cand, k, minimum, bc_danger, vals):
    """The danger model measured per opponent: take from each candidate's value, summed over
    the opponents, the chance that it feeds that opponent's win (``FEEDQ``: by the tile's
    type and the opponent's discards, times ``FEEDQ_MELDS`` by its exposed melds and
    ``FEEDQ_RIVER`` when the tile is in its river) times what the discarder pays."""
    n = S[H_PLAYERS]
    loss = _fed_loss(ctx[0], minimum, bc_danger)
    for q in range(n):
        if q == p:
            continue
        nd = min(S[H_NDISC + q], MAX_RIVER)
        col = min(S[H_NDISC + q] // 3, FEEDQ.shape[1] - 1)
        ne = 0
        for j in range(S[H_NMELDS + q]):
            m = MELDS + (q * MAX_MELDS + j) * MELD_FIELDS
            if (S[m + M_FLAGS] & MELD_CONCEALED) == 0:
                ne += 1
        ne = min(ne, FEEDQ_MELDS.shape[1] - 1)
        for i in range(k):
            t = cand[i, C_TILE]
            ty = 2 if t >= 27 else (1 if t % 9 == 0 or t % 9 == 8 else 0)
            w = FEEDQ[ty, col] * FEEDQ_MELDS[ty, ne]
            for j in range(nd):
                if (S[RIVER + MAX_RIVER * q + j] & 63) == t:
                    w *= FEEDQ_RIVER[ty]
                    break
            vals[i] -= w * loss


@kernel
def planner_claim(S, ctx, bc, p, acts, n, minimum, c):
    """A planner on another player's discard / added kong: a win when offered; a pung or
    chow when the plan value after it (and its best discard) beats the hand's as it is; an
    exposed kong when it does not lower the plan value (or, without a plan, the shanten)."""
    win_i, pass_i = _win_or_pass(acts, n)
    if win_i >= 0:
        return win_i
    _hand(S, p, c)
    t = S[H_LAST_TILE]
    params, tab, vec, ct, opt, FD, R, cand, emask = bc
    vis = S[VISIBLE:VISIBLE + 34]
    mk = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    mt = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    mc = np.zeros(MAX_MELDS + 1, dtype=np.int64)
    nm = _melds(S, p, mk, mt, mc)
    vals = np.zeros(R.shape[0], dtype=np.float64)
    _plan(S, ctx, bc, p, c, cand, 0, minimum, mk, mt, mc, nm, vals)
    v0 = vals[0]
    best_i = pass_i
    best_v = v0
    for i in range(n):
        kind = acts[i, 0]
        if kind == K_PUNG or kind == K_CHOW or kind == K_KONG_EXPOSED:
            lo = acts[i, 2] if kind == K_CHOW else t
            if kind == K_PUNG:
                c[t] -= 2
            elif kind == K_KONG_EXPOSED:
                c[t] -= 3
            else:
                for x in range(lo, lo + 3):
                    if x != t:
                        c[x] -= 1
            mk[nm] = 0 if kind == K_CHOW else (1 if kind == K_PUNG else 2)
            mt[nm] = lo
            mc[nm] = 0
            k = 0
            if kind != K_KONG_EXPOSED:
                k = discard_options(c, vis, params, tab, vec, ct, opt, FD, R, cand, emask)
            _plan(S, ctx, bc, p, c, cand, k, minimum, mk, mt, mc, nm + 1, vals)
            v1 = 0.0
            for j in range(max(k, 1)):
                v1 = max(v1, vals[j])
            if kind == K_PUNG:
                c[t] += 2
            elif kind == K_KONG_EXPOSED:
                c[t] += 3
            else:
                for x in range(lo, lo + 3):
                    if x != t:
                        c[x] += 1
            if kind == K_KONG_EXPOSED:
                if v1 > 0 and v1 >= v0:
                    return i
            elif v1 > best_v:
                best_v = v1
                best_i = i
    if best_i != pass_i and claim_choice(S, bc, p, acts, n, c) == pass_i:
        return pass_i            # a claim must also bring the hand closer (its shanten)
    return best_i
