"""The play loop, compiled: engine forced events and legal actions -> bot decisions ->
claim resolution -> ``apply``, each event written straight into a preallocated row of
``EV`` (and its fans into ``FN``). It is the one description of how a deal is played.

``EV`` int32[max_events, EV_COLS] rows ``kind, player, tile, aux, target, flags, total,
score0..score3``; ``FN`` int32[max_fans, 3] rows ``event row, fan id, count``.
Every rule of play is the engine's (``mjfast.engine``); this module only chooses.

**Resumable.** Everything the loop must remember between two calls lives in one int64
workspace ``W`` (:func:`new_workspace`; slots ``LS_*`` for the deal, ``JS_*`` for the jobs,
then the game structure, the chip caps and the seats' bot codes) and two action blocks:
``A`` (int64[MAX_ACTIONS, 4], the turn player's legal actions) and ``Q`` (int64[4,
MAX_ACTIONS, 4], each player's claims).
Built-in seats decide in compiled code. When a seat whose bot code is ``BOT_PYTHON`` (a
Python policy, an external bot) must decide, :func:`play_deal` stops with ``L_DECIDE``:
``W[LS_WHO]`` is the player, ``W[LS_STAGE]`` says a claim (``ST_ASK``: the actions are
``Q[who, :W[LS_NQ + who]]``) or its own turn (``ST_TURN``: ``A[:W[LS_M]]``);
the caller writes the chosen row into ``W[LS_ANSWER]`` and calls again, and the loop goes on
exactly where it stopped. With ``W[LS_OBSERVE]`` set it also stops after every event row
(``L_EVENT``), so observers see each event with the state right after it.
:func:`play_jobs` stops in the same way (it passes these on), and for a job with a Python
seat also at a deal's start (``J_DEAL_START``: the state is dealt-in, no event yet), a deal's
end (``J_DEAL_END``) and the job's end (``J_JOB_END``); a game without a Python seat plays
every deal in one call. :mod:`._pyloop` answers these stops for the policies.
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
from ._bots import (BOT_PLANNER, NEED_PLAN, NEED_VALUE, claim_choice, planner_claim,
                    planner_turn, turn_choice, value_choice)
from ._rng import STREAM_BOT, STREAM_WALL, make_key, shuffle_into

EV_COLS = 12
E_KIND, E_PLAYER, E_TILE, E_AUX, E_TARGET, E_FLAGS, E_TOTAL, E_SCORES = 0, 1, 2, 3, 4, 5, 6, 7
E_SIT = 11           # WIN rows: the scorer's situation flag bits (HandBatch flags)
# play_deal's stops (beyond the engine's apply codes, which are returned as is; 0 = ended)
L_FULL = 100         # event buffer full
L_STUCK = 101        # no forced event and nobody to decide
L_BOT = 102          # a bot chose no action
L_DECIDE = 103       # a Python seat must decide: W[LS_WHO], W[LS_STAGE]; answer W[LS_ANSWER]
L_EVENT = 104        # an event row was written (W[LS_OBSERVE] set): row JS_R + LS_R - 1
# play_jobs' stops (and L_DECIDE / L_EVENT passed on)
J_DONE = 0           # every job played: W[JS_DD] deals, W[JS_R] rows, W[JS_NF] fan rows
J_FULL = 110         # the buffers may not hold the next job: grow them and call again
J_DEAL_START = 111   # a Python job's deal is set up in S (no event yet)
J_DEAL_END = 112     # a Python job's deal ended (its META row written: W[JS_DD] - 1)
J_JOB_END = 113      # a Python job's game ended (W[JS_J] - 1)

# where play_deal is (W[LS_STAGE])
ST_TOP = 0           # the top of a step: a claim window opens, or ST_FORCED
ST_ASK = 1           # asking the players for claims, cursor W[LS_Q]
ST_PASSED = 2        # WIN_PASSED rows, cursor W[LS_Q], W[LS_J]
ST_APPLY = 3         # the executing claims, cursor W[LS_Q] (offset from the discarder)
ST_LOST = 4          # CLAIM_LOST rows, cursor W[LS_Q]
ST_FORCED = 5        # a forced event, the deal's end, or the turn player's decision
ST_TURN = 6          # the turn player's chosen action (row W[LS_ANSWER] of acts)
# the workspace: the deal's slots
LS_STAGE, LS_PENDING, LS_ANSWER, LS_WHO, LS_OBSERVE, LS_CLAIMS_DONE, LS_PHASE = range(7)
LS_D, LS_T, LS_Q, LS_J, LS_ANYONE, LS_MASK, LS_M, LS_R, LS_NF = range(7, 16)
LS_CHOICE, LS_KINDS, LS_NQ, LS_SIT, LS_WAITS, LS_CTR = 16, 20, 24, 28, 32, 36   # 4 each
# the jobs' slots
JS_J, JS_K, JS_DD, JS_R, JS_NF, JS_AT = 40, 41, 42, 43, 44, 45
AT_JOB, AT_DEAL, AT_PLAY = 0, 1, 2      # JS_AT: a new job, a new deal, inside a deal
W_G = 48                                 # the game structure (G_SIZE)
W_CAPS = W_G + G_SIZE                    # the deal's chip caps (5)
W_BOTS = W_CAPS + 5                      # the bot code at each position (4)
W_SIZE = W_BOTS + 4


def new_workspace():
    """``(W, A, Q)`` zeroed: play_jobs starts at job 0."""
    return (np.zeros(W_SIZE, dtype=np.int64), np.zeros((MAX_ACTIONS, 4), dtype=np.int64),
            np.zeros((4, MAX_ACTIONS, 4), dtype=np.int64))


@kernel(nrt=False)
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
def begin_deal(S, ctx, W, wall, wall_mode, dealer, prevalent, streak, seats, caps):
    """Set up a deal in ``S`` (from its wall, before any event) and reset the deal's slots
    of ``W`` (``W[LS_OBSERVE]`` is kept)."""
    init_state(S, ctx, dealer, prevalent, streak, seats, wall, wall_mode)
    set_caps(S, caps)
    for i in range(LS_CHOICE + 16):
        if i != LS_OBSERVE:
            W[i] = 0
    for q in range(4):
        W[LS_WAITS + q] = -1             # -1 unknown, else winning-tile bits
        W[LS_CTR + q] = 0
    W[LS_STAGE] = ST_TOP


@kernel
def play_deal(S, ctx, bc, bots, keys, minimum, EV, FN, W, A, Q):
    """Play the deal set up by :func:`begin_deal` from where ``W`` says it stopped, with
    the seats' ``bots`` (codes; ``BOT_PYTHON`` seats are asked through ``L_DECIDE``).
    Returns ``(status, n_events, n_fans)`` (the deal's rows so far): 0 when the deal
    ended, an engine error code, ``L_FULL`` / ``L_STUCK`` / ``L_BOT``, or a stop to
    resume from: ``L_DECIDE``, ``L_EVENT`` (module docstring)."""
    n = S[H_PLAYERS]
    acts = A
    qacts = Q
    choice = W[LS_CHOICE:LS_CHOICE + 4]
    kinds = W[LS_KINDS:LS_KINDS + 4]
    nq = W[LS_NQ:LS_NQ + 4]
    sit = W[LS_SIT:LS_SIT + 4]
    waits = W[LS_WAITS:LS_WAITS + 4]     # -1 unknown, else winning-tile bits
    ctr = W[LS_CTR:LS_CTR + 4]
    step = np.zeros(6, dtype=np.int64)
    c = np.zeros(34, dtype=np.int64)
    scores = np.zeros(64, dtype=np.int64)
    fans = np.zeros(MAX_FANS, dtype=np.int64)
    stage = W[LS_STAGE]
    r = W[LS_R]
    nf = W[LS_NF]
    claims_done = W[LS_CLAIMS_DONE] != 0
    phase = W[LS_PHASE]
    d = W[LS_D]
    t = W[LS_T]
    q = W[LS_Q]
    j = W[LS_J]
    anyone = W[LS_ANYONE] != 0
    mask = W[LS_MASK]
    obs = W[LS_OBSERVE] != 0
    maxe = EV.shape[0]
    status = -1
    while True:
        # each pass makes one step: a stage's bookkeeping (then ``continue``), or one
        # event chosen below and applied, recorded and announced at the end (the top
        # of a step and the claims asked fall through to the stage they lead to)
        if stage == ST_TOP:
            if r + 8 > maxe:
                status = L_FULL
                break
            phase = S[H_PHASE]
            stage = ST_FORCED
            if (phase == PH_DISCARDED or phase == PH_ROB) and not claims_done:
                # ---- claims on a live discard / added kong
                d = S[H_LAST_PLAYER]
                t = S[H_LAST_TILE]
                anyone = False
                for x in range(n):
                    kinds[x] = -1
                    choice[x] = -1
                    nq[x] = 0
                q = 0
                stage = ST_ASK
        if stage == ST_ASK:
            while q < n:
                if W[LS_PENDING] != 0:           # resumed: a Python seat's answer
                    W[LS_PENDING] = 0
                    i = W[LS_ANSWER]
                else:
                    if q == d:
                        q += 1
                        continue
                    if waits[q] >= 0 and bots[q] >= 0 and not (waits[q] >> t) & 1:
                        # nothing but a pung / kong / chow could be open to q: skip when
                        # its hand cannot make one (a shortcut; the engine decides otherwise)
                        if phase == PH_ROB or (S[HAND + 34 * q + t] < 2 and q != (d + 1) % n):
                            q += 1
                            continue
                    m = legal_actions(S, ctx, q, qacts[q])
                    nq[q] = m
                    if m == 0:
                        q += 1
                        continue
                    if bots[q] < 0:
                        W[LS_PENDING] = 1
                        W[LS_WHO] = q
                        status = L_DECIDE
                        break
                    if bots[q] >= BOT_PLANNER:
                        i = planner_claim(S, ctx, bc, q, qacts[q], m, minimum, c)
                    else:
                        i = claim_choice(S, bc, q, qacts[q], m, c)
                ctr[q] += 1
                if i < 0:
                    status = L_BOT
                    break
                choice[q] = i
                kinds[q] = qacts[q, i, 0]
                if kinds[q] != ACT_PASS:
                    anyone = True
                q += 1
            if status >= 0:
                break
            stage = ST_PASSED
            q = 0
            j = 0
        if stage == ST_PASSED:
            # a legal win not taken: WIN_PASSED (Taiwan's missed-win rule)
            found = False
            while q < n:
                if nq[q] > 0 and kinds[q] != K_WIN:
                    while j < nq[q]:
                        j += 1
                        if qacts[q, j - 1, 0] == K_WIN:
                            found = True
                            break
                    if found:
                        break
                q += 1
                j = 0
            if not found:
                claims_done = True
                stage = ST_FORCED
                if anyone:
                    mask = resolve_claims(S, kinds)
                    if mask != 0:
                        for x in range(n):
                            sit[x] = 0
                            if (mask >> x) & 1 and kinds[x] == K_WIN:
                                sit[x] = situation_flags(S, x, t, False, phase == PH_ROB)
                        stage = ST_APPLY
                        q = 1
                continue
            kind, p, tile, aux, target, flags, sv = K_WIN_PASSED, q, t, -1, d, 0, 0
        elif stage == ST_APPLY or stage == ST_LOST:
            # the executing claims (every WIN first, in turn order from the discarder),
            # then CLAIM_LOST for the others
            found = False
            x = 0
            while q < n:
                x = (d + q) % n
                q += 1
                if ((mask >> x) & 1) == (1 if stage == ST_APPLY else 0) and kinds[x] >= 0:
                    found = True
                    break
            if not found:
                q = 1
                if stage == ST_APPLY:
                    stage = ST_LOST
                else:
                    claims_done = False
                    stage = ST_TOP
                continue
            i = choice[x]
            p = x
            target = d
            flags = 0
            if stage == ST_APPLY:
                kind, tile, aux, sv = qacts[x, i, 0], qacts[x, i, 1], qacts[x, i, 2], sit[x]
            else:
                kind, tile, aux, sv = K_CLAIM_LOST, t, kinds[x], 0
                if kinds[x] == K_CHOW:
                    tile = qacts[x, i, 2] + 1     # a lost chow: its middle tile
        elif stage == ST_FORCED:
            if auto_step(S, ctx, step):
                # ---- a forced event
                kind, p, tile, aux, target, flags, sv = (step[0], step[1], step[2], step[3],
                                                         step[4], step[5], 0)
                claims_done = False
                stage = ST_TOP
            else:
                if phase == PH_ENDED:
                    status = 0
                    break
                if phase != PH_DRAWN and phase != PH_CLAIMED:
                    status = L_STUCK
                    break
                # ---- a player's own turn
                p = S[H_TURN]
                m = legal_actions(S, ctx, p, acts)
                if m == 0:
                    status = L_STUCK
                    break
                W[LS_M] = m
                stage = ST_TURN
                if bots[p] < 0:
                    W[LS_PENDING] = 1
                    W[LS_WHO] = p
                    status = L_DECIDE
                    break
                i, k = turn_choice(S, bc, p, acts, m, bots[p], keys[p], ctr[p], c, scores,
                                   waits)
                if i == NEED_VALUE:
                    i = value_choice(S, ctx, bc, p, acts, m, k, keys[p], ctr[p], minimum, c,
                                     scores, fans, waits)
                elif i == NEED_PLAN:
                    i = planner_turn(S, ctx, bc, p, acts, m, bots[p], keys[p], ctr[p],
                                     minimum, c, scores, fans, waits)
                W[LS_ANSWER] = i
                continue
        else:
            # ---- ST_TURN: the turn player's action, chosen in compiled code or by Python
            p = S[H_TURN]
            W[LS_PENDING] = 0
            i = W[LS_ANSWER]
            ctr[p] += 1
            if i < 0:
                status = L_BOT
                break
            kind, tile, aux, target, flags, sv = acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3], 0, 0
            if kind == K_WIN:
                sv = situation_flags(S, p, tile, True, False)
            claims_done = False
            stage = ST_TOP
        # ---- the event: validated and folded by the engine, then written
        err = apply(S, ctx, kind, p, tile, aux, target, flags)
        if err != 0:
            status = err
            break
        if kind == K_DEAL:
            tile = S[H_DRAWN]                   # the dealt tile (the engine notes it)
        elif kind == K_DRAW:
            tile = S[H_DRAWN]
            if S[H_LAST_DRAW] == 1:
                flags |= EF_LAST_TILE
        nf = _record(S, EV, FN, r, nf, kind, p, tile, aux, target, flags)
        EV[r, E_SIT] = sv
        r += 1
        if obs:
            status = L_EVENT
            break
    W[LS_STAGE] = stage
    W[LS_R] = r
    W[LS_NF] = nf
    W[LS_CLAIMS_DONE] = 1 if claims_done else 0
    W[LS_PHASE] = phase
    W[LS_D] = d
    W[LS_T] = t
    W[LS_Q] = q
    W[LS_J] = j
    W[LS_ANYONE] = 1 if anyone else 0
    W[LS_MASK] = mask
    return status, r, nf


# ---- games ------------------------------------------------------------------------------
M_JOB, M_DEAL, M_DEALER, M_PREVALENT, M_STREAK, M_ERR, M_EV0, M_EV1, M_FN0, M_FN1 = range(10)
M_ENDED, M_NWINS, M_SCORES, M_START = 10, 11, 12, 16
M_ENTRANT = 20       # 4 slots: the game's player (entrant) at each position
M_GAME_END = 24      # on a game's last deal: why it ended (mjfast.engine._structure END_*)
META_COLS = 25


@kernel
def play_jobs(S, ctx, bc, base, seed, jobs, job_bots, wall_mode, mode, length, chips,
              minimum, EV, FN, META, WALLS, W, A, Q, wall):
    """Play jobs (rows ``game, permutation, max deals, first dealer``) deal after deal
    from where ``W`` says (``W[JS_J]`` the job, 0 in a new workspace), each deal's wall
    ``base`` shuffled by the key (seed, game, deal) into ``wall``, the game structure
    (``mode``, ``length``, ``chips``: :mod:`mjfast.engine._structure`) choosing dealer,
    prevalent wind, streak, seating and the game's end. ``job_bots`` are bot codes by
    entrant (the game's players). Returns ``J_DONE`` when every job is played, ``J_FULL``
    before a job the buffers may not hold, or a stop to resume from (module docstring);
    the counts are in ``W`` (``JS_DD`` deals, ``JS_R`` rows, ``JS_NF`` fan rows). ``W``,
    ``A``, ``Q``: the workspace (:func:`new_workspace`), ``wall`` int8 scratch of
    ``base``'s length."""
    n = ctx[0][1]
    seats = np.full(4, -1, dtype=np.int64)
    keys = np.zeros(4, dtype=np.uint64)
    G = W[W_G:W_G + G_SIZE]
    caps = W[W_CAPS:W_CAPS + 5]
    bots = W[W_BOTS:W_BOTS + 4]
    pay = np.zeros(4, dtype=np.int64)
    j = W[JS_J]
    k = W[JS_K]
    dd = W[JS_DD]
    r = W[JS_R]
    nf = W[JS_NF]
    at = W[JS_AT]
    status = J_DONE
    while j < jobs.shape[0]:
        game = jobs[j, 0]
        perm = jobs[j, 1]
        nd = jobs[j, 2]
        py = False
        for e in range(n):
            if job_bots[j, e] < 0:
                py = True
        if at == AT_JOB:
            if dd + nd > META.shape[0] or r + nd * 1024 > EV.shape[0] or nf + nd * 160 > FN.shape[0]:
                status = J_FULL
                break
            game_start(G, mode, n, jobs[j, 3], length, nd, chips)
            k = 0
            at = AT_DEAL
        if at == AT_DEAL:
            if G[G_END] != END_NONE:
                j += 1
                at = AT_JOB
                if py:
                    status = J_JOB_END
                    break
                continue
            for i in range(base.shape[0]):
                wall[i] = base[i]
            shuffle_into(wall, make_key(seed, game, k, STREAM_WALL, 0))
            for q in range(4):
                bots[q] = job_bots[j, G[G_ENTRANT + q]] if q < n else 0
            deal_caps(G, caps)
            begin_deal(S, ctx, W, wall, wall_mode, G[G_DEALER], G[G_PREVALENT], G[G_STREAK],
                       seats, caps)
            at = AT_PLAY
            if py:
                status = J_DEAL_START
                break
        for q in range(4):
            keys[q] = make_key(seed, game, k, STREAM_BOT, perm * 8 + q)
        err, ne, nfe = play_deal(S, ctx, bc, bots, keys, minimum, EV[r:], FN[nf:], W, A, Q)
        if err == L_DECIDE or err == L_EVENT:
            status = err
            break
        for i in range(nfe):
            FN[nf + i, 0] += r
        META[dd, M_JOB] = j
        META[dd, M_DEAL] = k
        META[dd, M_DEALER] = G[G_DEALER]
        META[dd, M_PREVALENT] = G[G_PREVALENT]
        META[dd, M_STREAK] = G[G_STREAK]
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
            G[G_END] = END_ERROR
        else:
            game_next(G, S[H_NEXT_DEALER], S[H_NEXT_STREAK], pay)
            META[dd, M_GAME_END] = G[G_END]
        dd += 1
        at = AT_DEAL
        if py:
            status = J_DEAL_END
            break
    W[JS_J] = j
    W[JS_K] = k
    W[JS_DD] = dd
    W[JS_R] = r
    W[JS_NF] = nf
    W[JS_AT] = at
    return status
