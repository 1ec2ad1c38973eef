"""The compiled play loop of one deal: engine forced events and legal actions -> bot
decisions -> claim resolution -> ``apply``, each event written straight into a
preallocated row of ``EV`` (and its fans into ``FN``).

``EV`` int32[max_events, EV_COLS] rows ``kind, player, tile, aux, target, flags, total,
score0..score3``; ``FN`` int32[max_fans, 3] rows ``event row, fan id, count``.
Every rule of play is the engine's (``mjfast.engine``); this module only chooses.
"""
from __future__ import annotations

import numpy as np

from ..engine.compiled import (END_ERROR, END_NONE, G_DEALER, G_END, G_ENTRANT, G_PREVALENT,
                               G_SIZE, G_STREAK, G_TOTAL, K_CHOW, K_CLAIM_LOST, K_DEAL,
                               K_DEALER_CHANGE, K_DRAW, K_KONG_PAYMENT, K_WIN, K_WIN_PASSED,
                               EF_LAST_TILE, apply, auto_step, deal_caps, game_next,
                               game_start, init_state, legal_actions,
                               resolve_claims, set_caps, situation_flags)
from ..engine.layout import (ACT_PASS, H_DRAWN, H_ENDED, H_NEXT_DEALER, H_NEXT_STREAK,
                             H_SCORES, HAND, H_LAST_DRAW, H_LAST_PAY, H_LAST_PLAYER,
                             H_LAST_TILE, H_N_WINS, H_PHASE, H_PLAYERS, H_TURN, MAX_ACTIONS,
                             MAX_FANS, PH_CLAIMED, PH_DISCARDED, PH_DRAWN, PH_ENDED, PH_ROB,
                             W_FANS, W_FLAGS, W_SCORES, W_TOTAL, WIN_FIELDS, WINS)
from ..kernels import kernel
from ._bots import NEED_VALUE, claim_choice, turn_choice, value_choice
from ._rng import STREAM_BOT, STREAM_WALL, make_key, shuffle_into

EV_COLS = 12
E_KIND, E_PLAYER, E_TILE, E_AUX, E_TARGET, E_FLAGS, E_TOTAL, E_SCORES = 0, 1, 2, 3, 4, 5, 6, 7
E_SIT = 11           # WIN rows: the scorer's situation flag bits (HandBatch flags)
# loop errors (beyond the engine's apply codes, which are returned as is)
L_FULL = 100         # event buffer full
L_STUCK = 101        # no forced event and nobody to decide
L_BOT = 102          # a bot chose no action
L_PYTHON = 103       # a seat needs a Python decision (not in the compiled loop)


@kernel
def _record(S, EV, FN, r, nf, kind, player, tile, aux, target, flags):
    """Write event row ``r`` after its ``apply``; returns the new fan count."""
    EV[r, E_KIND] = kind
    EV[r, E_PLAYER] = player
    EV[r, E_TILE] = tile
    EV[r, E_AUX] = aux
    EV[r, E_TARGET] = target
    EV[r, E_FLAGS] = flags
    EV[r, E_TOTAL] = -1
    EV[r, E_SIT] = 0
    for q in range(4):
        EV[r, E_SCORES + q] = 0
    if kind == K_WIN:
        base = WINS + (S[H_N_WINS] - 1) * WIN_FIELDS
        EV[r, E_TOTAL] = S[base + W_TOTAL]
        EV[r, E_FLAGS] = flags | S[base + W_FLAGS]
        for q in range(4):
            EV[r, E_SCORES + q] = S[base + W_SCORES + q]
        for f in range(MAX_FANS):
            cnt = S[base + W_FANS + f]
            if cnt != 0 and nf < FN.shape[0]:
                FN[nf, 0] = r
                FN[nf, 1] = f
                FN[nf, 2] = cnt
                nf += 1
    elif kind == K_KONG_PAYMENT:
        for q in range(4):
            EV[r, E_SCORES + q] = S[H_LAST_PAY + q]
    return nf


@kernel
def play_deal(S, ctx, bc, wall, wall_mode, dealer, prevalent, streak, seats, caps, bots, keys,
              minimum, EV, FN):
    """Play one deal from its wall to its DEALER_CHANGE with the built-in ``bots``
    (per player), ``caps`` the deal's chip caps (``deal_caps``). Returns ``(error,
    n_events, n_fans)``; error 0 when the deal ended."""
    init_state(S, ctx, dealer, prevalent, streak, seats, wall, wall_mode)
    set_caps(S, caps)
    n = S[H_PLAYERS]
    acts = np.zeros((MAX_ACTIONS, 4), dtype=np.int64)
    qacts = np.zeros((4, MAX_ACTIONS, 4), dtype=np.int64)
    nq = np.zeros(4, dtype=np.int64)
    choice = np.full(4, -1, dtype=np.int64)
    kinds = np.full(4, -1, dtype=np.int64)
    step = np.zeros(6, dtype=np.int64)
    ctr = np.zeros(4, dtype=np.int64)
    c = np.zeros(34, dtype=np.int64)
    scores = np.zeros(64, dtype=np.int64)
    fans = np.zeros(MAX_FANS, dtype=np.int64)
    sit = np.zeros(4, dtype=np.int64)
    waits = np.full(4, -1, dtype=np.int64)     # -1 unknown, else winning-tile bits
    r = 0
    nf = 0
    claims_done = False
    maxe = EV.shape[0]
    while True:
        if r + 8 > maxe:
            return L_FULL, r, nf
        phase = S[H_PHASE]
        # ---- claims on a live discard / added kong
        if (phase == PH_DISCARDED or phase == PH_ROB) and not claims_done:
            d = S[H_LAST_PLAYER]
            t = S[H_LAST_TILE]
            anyone = False
            for q in range(n):
                kinds[q] = -1
                choice[q] = -1
                nq[q] = 0
                if q == d:
                    continue
                if waits[q] >= 0 and bots[q] >= 0 and not (waits[q] >> t) & 1:
                    # nothing but a pung / kong / chow could be open to q: skip when its
                    # hand cannot make one (a shortcut; the engine decides otherwise)
                    if phase == PH_ROB or (S[HAND + 34 * q + t] < 2 and q != (d + 1) % n):
                        continue
                m = legal_actions(S, ctx, q, qacts[q])
                nq[q] = m
                if m > 0:
                    if bots[q] < 0:
                        return L_PYTHON, r, nf
                    i = claim_choice(S, bc, q, qacts[q], m, c)
                    ctr[q] += 1
                    if i < 0:
                        return L_BOT, r, nf
                    choice[q] = i
                    kinds[q] = qacts[q, i, 0]
                    if kinds[q] != ACT_PASS:
                        anyone = True
            # passed-up wins (Taiwan's missed-win rule)
            for q in range(n):
                if nq[q] > 0 and kinds[q] != K_WIN:
                    for j in range(nq[q]):
                        if qacts[q, j, 0] == K_WIN:
                            err = apply(S, ctx, K_WIN_PASSED, q, t, -1, d, 0)
                            if err != 0:
                                return err, r, nf
                            nf = _record(S, EV, FN, r, nf, K_WIN_PASSED, q, t, -1, d, 0)
                            r += 1
            claims_done = True
            if anyone:
                mask = resolve_claims(S, kinds)
                if mask != 0:
                    for q in range(n):
                        sit[q] = 0
                        if (mask >> q) & 1 and kinds[q] == K_WIN:
                            sit[q] = situation_flags(S, q, t, False, phase == PH_ROB)
                    for k in range(1, n):
                        q = (d + k) % n
                        if (mask >> q) & 1:
                            i = choice[q]
                            kind = qacts[q, i, 0]
                            err = apply(S, ctx, kind, q, qacts[q, i, 1], qacts[q, i, 2],
                                         d, 0)
                            if err != 0:
                                return err, r, nf
                            nf = _record(S, EV, FN, r, nf, kind, q, qacts[q, i, 1],
                                         qacts[q, i, 2], d, 0)
                            EV[r, E_SIT] = sit[q]
                            r += 1
                    for k in range(1, n):
                        q = (d + k) % n
                        if kinds[q] >= 0 and not (mask >> q) & 1:
                            lt = t
                            if kinds[q] == K_CHOW:
                                lt = qacts[q, choice[q], 2] + 1   # a lost chow: its middle tile
                            err = apply(S, ctx, K_CLAIM_LOST, q, lt, kinds[q], d, 0)
                            if err != 0:
                                return err, r, nf
                            nf = _record(S, EV, FN, r, nf, K_CLAIM_LOST, q, lt, kinds[q], d, 0)
                            r += 1
                    claims_done = False
                    continue
        # ---- forced events
        if auto_step(S, ctx, step):
            kind = step[0]
            p = step[1]
            err = apply(S, ctx, kind, p, step[2], step[3], step[4], step[5])
            if err != 0:
                return err, r, nf
            tile = step[2]
            flags = step[5]
            if kind == K_DEAL:
                tile = S[H_DRAWN]           # the dealt tile (the engine notes it)
            elif kind == K_DRAW:
                tile = S[H_DRAWN]
                if S[H_LAST_DRAW] == 1:
                    flags |= EF_LAST_TILE
            nf = _record(S, EV, FN, r, nf, kind, p, tile, step[3], step[4], flags)
            r += 1
            claims_done = False
            continue
        if phase == PH_ENDED:
            return 0, r, nf
        # ---- a player's own turn
        if phase == PH_DRAWN or phase == PH_CLAIMED:
            p = S[H_TURN]
            m = legal_actions(S, ctx, p, acts)
            if m == 0:
                return L_STUCK, r, nf
            if bots[p] < 0:
                return L_PYTHON, r, nf
            i, k = turn_choice(S, bc, p, acts, m, bots[p], keys[p], ctr[p], c, scores, waits)
            if i == NEED_VALUE:
                i = value_choice(S, ctx, bc, p, acts, m, k, keys[p], ctr[p], minimum, c, scores,
                                 fans, waits)
            ctr[p] += 1
            if i < 0:
                return L_BOT, r, nf
            kind = acts[i, 0]
            sit0 = 0
            if kind == K_WIN:
                sit0 = situation_flags(S, p, acts[i, 1], True, False)
            err = apply(S, ctx, kind, p, acts[i, 1], acts[i, 2], acts[i, 3], 0)
            if err != 0:
                return err, r, nf
            nf = _record(S, EV, FN, r, nf, kind, p, acts[i, 1], acts[i, 2], acts[i, 3], 0)
            EV[r, E_SIT] = sit0
            r += 1
            claims_done = False
            continue
        return L_STUCK, r, nf


# ---- games ------------------------------------------------------------------------------
M_JOB, M_DEAL, M_DEALER, M_PREVALENT, M_STREAK, M_ERR, M_EV0, M_EV1, M_FN0, M_FN1 = range(10)
M_ENDED, M_NWINS, M_SCORES, M_START = 10, 11, 12, 16
M_ENTRANT = 20       # 4 slots: the game's player (entrant) at each position
M_GAME_END = 24      # on a game's last deal: why it ended (mjfast.engine._structure END_*)
META_COLS = 25


@kernel
def play_jobs(S, ctx, bc, base, seed, jobs, job_bots, wall_mode, mode, length, chips,
              minimum, j0, EV, FN, META, WALLS, r0, nf0, d0):
    """Play jobs ``j0..`` (rows ``game, permutation, max deals, first dealer``) deal
    after deal, each deal's wall ``base`` shuffled by the key (seed, game, deal), the
    game structure (``mode``, ``length``, ``chips``: :mod:`mjfast.engine._structure`)
    choosing dealer, prevalent wind, streak, seating and the game's end. ``job_bots``
    are by entrant (the game's players). Stops early when a buffer could overflow.
    Returns ``(next job, deals written, rows, fan rows)``."""
    n = ctx[0][1]
    r = r0
    nf = nf0
    dd = d0
    wall = np.empty(base.shape[0], dtype=np.int8)
    seats = np.full(4, -1, dtype=np.int64)
    keys = np.zeros(4, dtype=np.uint64)
    bots = np.zeros(4, dtype=np.int64)
    G = np.zeros(G_SIZE, dtype=np.int64)
    pay = np.zeros(4, dtype=np.int64)
    caps = np.zeros(5, dtype=np.int64)
    j = j0
    while j < jobs.shape[0]:
        game = jobs[j, 0]
        perm = jobs[j, 1]
        nd = jobs[j, 2]
        if dd + nd > META.shape[0] or r + nd * 1024 > EV.shape[0] or nf + nd * 160 > FN.shape[0]:
            return j, dd, r, nf
        game_start(G, mode, n, jobs[j, 3], length, nd, chips)
        k = 0
        while G[G_END] == END_NONE:
            dealer = G[G_DEALER]
            prevalent = G[G_PREVALENT]
            streak = G[G_STREAK]
            for i in range(base.shape[0]):
                wall[i] = base[i]
            shuffle_into(wall, make_key(seed, game, k, STREAM_WALL, 0))
            for q in range(4):
                bots[q] = job_bots[j, G[G_ENTRANT + q]] if q < n else 0
                keys[q] = make_key(seed, game, k, STREAM_BOT, perm * 8 + q)
            deal_caps(G, caps)
            EVd = EV[r:]
            FNd = FN[nf:]
            err, ne, nfe = play_deal(S, ctx, bc, wall, wall_mode, dealer, prevalent, streak,
                                     seats, caps, bots, keys, minimum, EVd, FNd)
            for i in range(nfe):
                FN[nf + i, 0] += r
            META[dd, M_JOB] = j
            META[dd, M_DEAL] = k
            META[dd, M_DEALER] = dealer
            META[dd, M_PREVALENT] = prevalent
            META[dd, M_STREAK] = streak
            META[dd, M_ERR] = err
            META[dd, M_EV0] = r
            META[dd, M_EV1] = r + ne
            META[dd, M_FN0] = nf
            META[dd, M_FN1] = nf + nfe
            META[dd, M_ENDED] = S[H_ENDED]
            META[dd, M_NWINS] = S[H_N_WINS]
            for q in range(4):
                e = G[G_ENTRANT + q]
                META[dd, M_ENTRANT + q] = e
                META[dd, M_START + q] = G[G_TOTAL + e] if q < n else 0
                META[dd, M_SCORES + q] = S[H_SCORES + q]
                pay[q] = S[H_SCORES + q]
            for i in range(base.shape[0]):
                WALLS[dd, i] = wall[i]
            r += ne
            nf += nfe
            k += 1
            if err != 0:
                META[dd, M_GAME_END] = END_ERROR
                dd += 1
                break
            game_next(G, S[H_NEXT_DEALER], S[H_NEXT_STREAK], pay)
            META[dd, M_GAME_END] = G[G_END]
            dd += 1
        j += 1
    return j, dd, r, nf
