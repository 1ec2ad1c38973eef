"""The compiled rules of play: state init, ``apply`` (validate + fold one event), win
evaluation, legal actions, claim resolution and the forced next event (``auto_step``).

All functions are Numba ``njit`` and take the state ``S`` (int32[STATE_SIZE], layout in
:mod:`mjfast.engine.layout`) and the scoring context ``ctx`` (:func:`make_context`).
"""
from __future__ import annotations

import numpy as np

from ..datasets import (K_DEAL, K_DRAW, K_FLOWER, K_DISCARD, K_CHOW, K_PUNG,
                                K_KONG_EXPOSED, K_KONG_CONCEALED, K_KONG_ADDED,
                                K_CLAIM_LOST, K_WIN_PASSED, K_WIN, K_EXHAUSTIVE_DRAW,
                                K_KONG_PAYMENT, K_DEALER_CHANGE, EF_REPLACEMENT,
                                EF_ROBBING, EF_FALSE_WIN, EF_HIDDEN, EF_LAST_TILE,
                                EF_INSTANT)
from ..kernels import kernel
from .layout import *  # noqa: F401,F403  (offsets and codes are compile-time constants)
from .layout import (ACT_FIELDS, ACT_PASS, E_BAD_MELD, E_CHOW_LEFT, E_DEAL, E_DEALER,
                      E_ENDED, E_FIFTH, E_FLOWER, E_HEAD_BUMP, E_KIND, E_KONG,
                      E_KONG_PAYMENT, E_MELDS, E_MISSED_WIN, E_NO_CHOW, E_NO_DISCARD,
                      E_NOT_COMPLETE, E_NOT_EXHAUSTED, E_NOT_HELD, E_PHASE, E_PLAYER,
                      E_RIVER, E_TARGET, E_TILE, E_WALL, H_BACK, H_CALLS, H_CAP, H_CAP_ON, H_CHOW,
                      H_DEAD, H_DEALER, H_DEALER_DONE, H_DEALT, H_DRAWN, H_DRAWS,
                      H_ENDED, H_FIRST_DONE, H_FLOWER_MASK, H_FLOWER_ROB, H_FLOWERS,
                      H_FRONT, H_HAND, H_HELD_FL, H_KONG_FLAG, H_LAST_DRAW, H_LAST_FLAGS,
                      H_LAST_PAY, H_LAST_PLAYER, H_LAST_TILE, H_MISSED_RULE, H_MULTI_RON,
                      H_N_DISCARDS, H_N_EVENTS, H_N_KONGS, H_N_WINS, H_NDISC,
                      H_NEXT_DEALER, H_NEXT_STREAK, H_NFLOWERS, H_NMELDS, H_PENDING,
                      H_PHASE, H_PLAYERS, H_PREVALENT, H_RULES, H_SCORES, H_SEATS, H_SEG,
                      H_STREAK, H_TURN, H_WALL_KNOWN, H_WALL_MODE, H_WALL_SIZE,
                      H_WIN_FROM, H_WIN_TILE, HAND, M_CLAIMED, M_FLAGS, M_FROM, M_KIND,
                      M_ORDER, M_TILE, MAX_ACTIONS, MAX_MELDS, MAX_RIVER, MAX_WINS,
                      MELD_ADDED, MELD_CONCEALED, MELD_FIELDS, MELD_PAID, MELDS, MISSED,
                      OK, PH_CLAIMED, PH_DEAL, PH_DISCARDED, PH_DRAWN, PH_ENDED,
                      PH_REPLACE, PH_ROB, RIVER, RIVER_CLAIMED, RULES_TAIWAN, SEEN,
                      STATE_SIZE, VISIBLE, W_FANS, W_FLAGS, W_FROM, W_LEGAL, W_PLAYER,
                      W_SCORES, W_TILE, W_TOTAL, WALL, WALL_BOTZONE, WIN_FIELDS, WINS,
                      MAX_FANS)
from ..kernels import maybe_complete as _maybe_complete
from ..kernels import (R_COUNTS, R_DEALER, R_DISCARDER, R_FLAGS, R_FLOWERS, R_MELDS,
                       R_N_MELDS, R_PREVALENT, R_SEAT, R_STREAK, R_TABLE_DISCARDS, R_WIN,
                       ROW_SIZE)
from ..kernels import (C_CHOW, C_DEAD, C_DEALER_REPEAT, C_EIGHT_FL_ID, C_FLOWERS,
                       C_FORM_MASK, C_HAND, C_KIND_MASK, C_MISSED_RULE, C_MULTI_RON,
                       C_PLAYERS, C_RULES, C_SEVEN_FL_ID, C_WALL_SIZE, settle_flower_win)
from ..hand import (FIRST_TURN as F_FIRST_TURN, FOURTH_TILE as F_FOURTH_TILE,
                    KONG_REPLACEMENT as F_KONG_REPLACEMENT, LAST_TILE as F_LAST_TILE,
                    ROBBING_KONG as F_ROBBING_KONG, SELF_DRAWN as F_SELF_DRAWN)
from ._score import score_hand, settle_kong_in_deal, settle_win_in_deal



# ---------------------------------------------------------------------------------------
# state
# ---------------------------------------------------------------------------------------
@kernel
def init_state(S, ctx, dealer, prevalent, streak, seats, wall, wall_mode):
    """Reset ``S`` for a new deal. ``seats`` int[players] seat winds (None: use
    ``(p - dealer) % players`` by passing an array of -1); ``wall`` int8/int[n] the wall
    in draw order (n = the rule set's wall size, or 136 for the Botzone wall), or an
    empty array when the wall is unknown (replay mode)."""
    P = ctx[0]
    for i in range(STATE_SIZE):
        S[i] = 0
    n = P[C_PLAYERS]
    S[H_RULES] = P[C_RULES]
    S[H_PLAYERS] = n
    S[H_HAND] = P[C_HAND]
    S[H_FLOWERS] = P[C_FLOWERS]
    S[H_DEAD] = P[C_DEAD] if wall_mode != WALL_BOTZONE else 0
    S[H_CHOW] = P[C_CHOW]
    S[H_WALL_MODE] = wall_mode
    S[H_MULTI_RON] = P[C_MULTI_RON]
    S[H_MISSED_RULE] = P[C_MISSED_RULE]
    size = P[C_WALL_SIZE] if wall_mode != WALL_BOTZONE else 34 * n
    S[H_WALL_SIZE] = size
    S[H_DEALER] = dealer
    S[H_PREVALENT] = prevalent
    S[H_STREAK] = streak
    S[H_PHASE] = PH_DEAL
    S[H_TURN] = dealer
    S[H_LAST_TILE] = -1
    S[H_LAST_PLAYER] = -1
    S[H_DRAWN] = -1
    S[H_FRONT] = 0
    S[H_BACK] = size
    for p in range(4):
        S[H_SEG + p] = 34 if (wall_mode == WALL_BOTZONE and p < n) else 0
        s = seats[p] if p < seats.shape[0] else -1
        S[H_SEATS + p] = s if s >= 0 else (p - dealer) % n
    S[H_WALL_KNOWN] = 1 if wall.shape[0] >= size else 0
    for i in range(size):
        S[WALL + i] = wall[i] if S[H_WALL_KNOWN] == 1 else -1
    S[H_NEXT_DEALER] = -1
    S[H_NEXT_STREAK] = -1
    S[H_WIN_TILE] = -1
    S[H_WIN_FROM] = -1
    S[H_FLOWER_ROB] = -1


@kernel
def set_caps(S, caps):
    """This deal's chip caps (``caps`` int64[5]: on, then one cap per player; see
    ``deal_caps``) into the deal state, after :func:`init_state`."""
    S[H_CAP_ON] = caps[0]
    for q in range(4):
        S[H_CAP + q] = caps[1 + q] if caps[0] != 0 else 0


@kernel(nrt=False)
def _tile_ok(S, P, t):
    if t < 0:
        return False
    if t < 34:
        return ((P[C_KIND_MASK] >> t) & 1) == 1
    return t < 42 and S[H_FLOWERS] == 1


@kernel(nrt=False)
def wall_left(S, p):
    """Tiles player ``p`` could still draw (Botzone: its segment; else the shared wall
    minus the dead wall)."""
    if S[H_WALL_MODE] == WALL_BOTZONE:
        return S[H_SEG + p]
    return S[H_BACK] - S[H_FRONT] - S[H_DEAD]


@kernel(nrt=False)
def spent_after(S, p):
    """The wall is spent for the player after ``p`` (the one who acted last): the deal
    is drawn if nobody claims; a win now is on the last tile."""
    n = S[H_PLAYERS]
    return wall_left(S, (p + 1) % n) <= 0


@kernel(nrt=False)
def _take(S, p, replacement):
    """Index of the wall tile the next draw of ``p`` takes (advances the wall), -1 when
    there is none."""
    if S[H_WALL_MODE] == WALL_BOTZONE:
        if S[H_SEG + p] <= 0:
            return -1
        S[H_SEG + p] -= 1
        return 34 * p + S[H_SEG + p]
    if S[H_BACK] - S[H_FRONT] - S[H_DEAD] <= 0 and S[H_PHASE] != PH_DEAL:
        return -1
    if S[H_BACK] <= S[H_FRONT]:
        return -1
    if replacement:
        S[H_BACK] -= 1
        return S[H_BACK]
    i = S[H_FRONT]
    S[H_FRONT] += 1
    return i


@kernel(nrt=False)
def _receive(S, P, p, tile, replacement):
    """Take the next wall tile for ``p`` (``tile`` = the logged tile or -1); returns
    (error, tile)."""
    i = _take(S, p, replacement)
    if i < 0:
        return E_WALL, -1
    if S[H_WALL_KNOWN] == 1:
        w = S[WALL + i]
        if tile >= 0 and tile != w:
            return E_WALL, -1
        tile = w
    if not _tile_ok(S, P, tile):
        return E_TILE, -1
    lim = 4 if tile < 34 else 1
    if S[SEEN + tile] >= lim:
        return E_FIFTH, -1
    S[SEEN + tile] += 1
    if tile >= 34:
        S[H_HELD_FL + p] |= 1 << (tile - 34)
    else:
        S[HAND + 34 * p + tile] += 1
    return OK, tile


@kernel(nrt=False)
def _meld_at(p, j):
    return MELDS + (p * MAX_MELDS + j) * MELD_FIELDS


@kernel(nrt=False)
def _add_meld(S, p, kind, tile, flags, claimed, frm):
    j = S[H_NMELDS + p]
    if j >= MAX_MELDS:
        return E_MELDS
    m = _meld_at(p, j)
    S[m + M_KIND] = kind
    S[m + M_TILE] = tile
    S[m + M_FLAGS] = flags
    S[m + M_CLAIMED] = claimed
    S[m + M_FROM] = frm
    S[m + M_ORDER] = S[H_N_EVENTS]
    S[H_NMELDS + p] = j + 1
    return OK


@kernel(nrt=False)
def _offset(S, claimer, discarder):
    """HandBatch ``claimed_from``: 1 = the previous player (left), 2 across, 3 next."""
    if S[H_PLAYERS] == 2:
        return 1
    return (claimer - discarder) % 4


@kernel(nrt=False)
def _mark_claimed(S, d):
    k = S[H_NDISC + d]
    if k > 0:
        S[RIVER + d * MAX_RIVER + k - 1] |= RIVER_CLAIMED


@kernel(nrt=False)
def _call_made(S, p):
    S[H_CALLS] += 1
    S[H_FIRST_DONE + p] = 1


@kernel(nrt=False)
def _can_replace(S, p):
    """A kong by ``p`` would have a replacement tile."""
    return wall_left(S, p) > 0


@kernel(nrt=False)
def next_dealer(S, ctx):
    """(dealer, streak) of the next deal from the ended deal in ``S``."""
    return _next_dealer(S, ctx[0])


@kernel(nrt=False)
def _next_dealer(S, P):
    n = S[H_PLAYERS]
    d = S[H_DEALER]
    if P[C_DEALER_REPEAT] == 0:
        return (d + 1) % n, 0
    if S[H_ENDED] == 2:
        return d, S[H_STREAK]
    for w in range(S[H_N_WINS]):
        if S[WINS + w * WIN_FIELDS + W_PLAYER] == d:
            return d, S[H_STREAK] + 1
    return (d + 1) % n, 0


# ---------------------------------------------------------------------------------------
# win evaluation
# ---------------------------------------------------------------------------------------
@kernel(nrt=False)
def situation_flags(S, p, tile, self_drawn, robbing):
    """The HandBatch situation bits of a win by ``p`` on ``tile`` now."""
    fl = 0
    if self_drawn:
        fl |= F_SELF_DRAWN
    others = S[VISIBLE + tile] - (0 if self_drawn else 1)
    if others >= 3:
        fl |= F_FOURTH_TILE
    if self_drawn:
        if S[H_LAST_DRAW] == 1:
            fl |= F_LAST_TILE
        if S[H_KONG_FLAG] == 1:
            fl |= F_KONG_REPLACEMENT
    elif robbing:
        fl |= F_ROBBING_KONG
    elif spent_after(S, S[H_LAST_PLAYER]):
        fl |= F_LAST_TILE
    if S[H_CALLS] == 0 and S[H_FIRST_DONE + p] == 0:
        fl |= F_FIRST_TURN
    return fl


@kernel
def maybe_complete(c, nm, form_mask):
    """The cheap completeness test of ``mjfast.kernels`` (exact for the regular form and
    the pairs forms, a presence test for MCR's special forms) with its own scratch."""
    tmp = np.empty(9, dtype=np.int64)
    return _maybe_complete(c, nm, form_mask, tmp)


@kernel
def could_win(S, ctx, p, tile, self_drawn):
    """The cheap test of :func:`maybe_complete` on ``p``'s hand (plus ``tile`` unless
    self-drawn), read from the state into the context's workspace (``ctx[2]``)."""
    return could_win_p(S, ctx[0], p, tile, self_drawn, ctx[2])


@kernel(nrt=False)
def could_win_p(S, P, p, tile, self_drawn, ws):
    """:func:`could_win` with the rule parameters ``P = ctx[0]`` (cheaper to pass than
    the whole context) and ``ws`` int64 scratch of at least 43 words: the scorer's
    workspace (``ctx[2]``), free while this test runs -- no scoring is under way -- so
    that the test, run for every draw and for every player on every discard,
    allocates nothing."""
    if tile < 0 or tile >= 34:
        return False
    c = ws[:34]
    for t in range(34):
        c[t] = S[HAND + 34 * p + t]
    if not self_drawn:
        c[tile] += 1
    if c[tile] <= 0 or c[tile] > 4:
        return False
    return _maybe_complete(c, S[H_NMELDS + p], P[C_FORM_MASK], ws[34:43])


@kernel
def win_value(S, ctx, p, tile, self_drawn, robbing, out_fans):
    """Score a win by ``p`` on ``tile`` (self-drawn: the tile is already in the hand;
    otherwise the discard / robbed tile is added). Writes fan counts by fan id into
    ``out_fans`` (int64[MAX_FANS]); returns ``(total, legal, flags)``; total -1 when the
    hand is not complete."""
    if tile < 0 or tile >= 34:
        return -1, False, 0
    cnt = S[HAND + 34 * p + tile] + (0 if self_drawn else 1)
    if cnt <= 0 or cnt > 4:
        return -1, False, 0
    if not could_win_p(S, ctx[0], p, tile, self_drawn, ctx[2]):
        for f in range(out_fans.shape[0]):
            out_fans[f] = 0
        return -1, False, situation_flags(S, p, tile, self_drawn, robbing)
    row = np.zeros(ROW_SIZE, dtype=np.int64)
    for t in range(34):
        row[R_COUNTS + t] = S[HAND + 34 * p + t]
    if not self_drawn:
        row[R_COUNTS + tile] += 1
    nm = S[H_NMELDS + p]
    for j in range(nm):
        m = _meld_at(p, j)
        row[R_MELDS + 4 * j] = S[m + M_KIND]
        row[R_MELDS + 4 * j + 1] = S[m + M_TILE]
        row[R_MELDS + 4 * j + 2] = S[m + M_FLAGS] & (MELD_CONCEALED | MELD_ADDED)
        row[R_MELDS + 4 * j + 3] = S[m + M_CLAIMED]
    for j in range(nm, 5):
        row[R_MELDS + 4 * j] = -1
    fl = situation_flags(S, p, tile, self_drawn, robbing)
    disc = -1
    if not self_drawn and S[H_LAST_PLAYER] >= 0:
        disc = S[H_SEATS + S[H_LAST_PLAYER]]
    row[R_N_MELDS] = nm
    row[R_WIN] = tile
    row[R_FLAGS] = fl
    row[R_SEAT] = S[H_SEATS + p]
    row[R_PREVALENT] = S[H_PREVALENT]
    row[R_DEALER] = S[H_SEATS + S[H_DEALER]]
    row[R_DISCARDER] = disc
    row[R_STREAK] = S[H_STREAK]
    row[R_TABLE_DISCARDS] = S[H_N_DISCARDS] if S[H_RULES] == RULES_TAIWAN else -1
    row[R_FLOWERS] = S[H_NFLOWERS + p]
    total, legal = score_hand(ctx, row, out_fans)
    return total, legal, fl


@kernel(nrt=False)
def _missed(S, p, tile):
    return S[H_MISSED_RULE] == 1 and tile >= 0 and tile < 34 and S[MISSED + 34 * p + tile] == 1


@kernel
def _record_win(S, ctx, p, tile, frm, total, legal, flags, fans, instant_payer, instant):
    w = S[H_N_WINS]
    if w >= MAX_WINS:
        return E_HEAD_BUMP
    base = WINS + w * WIN_FIELDS
    pay = np.zeros(4, dtype=np.int64)
    if instant:
        total = settle_flower_win(ctx[0], p, instant_payer, pay)
        legal = True
    else:
        settle_win_in_deal(S, ctx, p, frm < 0, frm, total, legal, S[H_DEALER], S[H_STREAK], pay)
    S[base + W_PLAYER] = p
    S[base + W_TILE] = tile
    S[base + W_FROM] = frm
    S[base + W_FLAGS] = flags
    S[base + W_TOTAL] = total
    S[base + W_LEGAL] = 1 if legal else 0
    for q in range(4):
        S[base + W_SCORES + q] = pay[q]
        S[H_SCORES + q] += pay[q]
        S[H_LAST_PAY + q] = pay[q]
    for f in range(MAX_FANS):
        S[base + W_FANS + f] = fans[f]
    S[H_N_WINS] = w + 1
    S[H_ENDED] = 1
    S[H_PHASE] = PH_ENDED
    S[H_WIN_TILE] = tile
    S[H_WIN_FROM] = frm
    nd, ns = next_dealer(S, ctx)
    S[H_NEXT_DEALER] = nd
    S[H_NEXT_STREAK] = ns
    return OK


# ---------------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------------
@kernel
def apply(S, ctx, kind, player, tile, aux, target, flags):
    """Validate one event against the rules of play and fold it into ``S``. Returns 0
    (legal) or an error code (``ERROR_MESSAGES``); on an error ``S`` may be partly
    changed (the caller quarantines the deal)."""
    err = _apply(S, ctx, kind, player, tile, aux, target, flags)
    if err == OK:
        S[H_N_EVENTS] += 1
    return err


@kernel(nrt=False)
def apply_light(S, P, kind, player, tile, aux, target, flags):
    """:func:`apply` for every kind but WIN and KONG_PAYMENT (those score or settle and
    need the whole context), with the rule parameters ``P = ctx[0]`` only: the same
    checks and state changes, cheaper to call per event (a play loop calls ``apply`` for
    those two kinds). Those two kinds give ``E_KIND`` here, the state untouched."""
    if kind == K_WIN or kind == K_KONG_PAYMENT:
        return E_KIND
    err = _apply_light(S, P, kind, player, tile, aux, target, flags)
    if err == OK:
        S[H_N_EVENTS] += 1
    return err


@kernel(nrt=False)
def _pre(S, kind, player, tile):
    """The checks every event passes first (the pending flower robbery is cleared)."""
    n = S[H_PLAYERS]
    phase = S[H_PHASE]
    S[H_FLOWER_ROB] = -1
    if kind < 0 or kind > K_DEALER_CHANGE:
        return E_KIND
    if kind != K_EXHAUSTIVE_DRAW and (player < 0 or player >= n):
        return E_PLAYER
    if tile < -1 or tile >= 42:
        return E_TILE
    if phase == PH_ENDED and not (kind == K_WIN or kind == K_KONG_PAYMENT
                                  or kind == K_DEALER_CHANGE or kind == K_CLAIM_LOST
                                  or kind == K_WIN_PASSED):
        return E_ENDED
    return OK


@kernel
def _apply(S, ctx, kind, player, tile, aux, target, flags):
    if kind != K_WIN and kind != K_KONG_PAYMENT:
        return _apply_light(S, ctx[0], kind, player, tile, aux, target, flags)
    phase = S[H_PHASE]
    rob_from = S[H_FLOWER_ROB]
    err = _pre(S, kind, player, tile)
    if err != OK:
        return err
    p = player
    if kind == K_WIN:
        fans = np.zeros(MAX_FANS, dtype=np.int64)
        if (flags & EF_INSTANT) != 0:
            if S[H_RULES] != RULES_TAIWAN or phase == PH_ENDED:
                return E_PHASE
            if S[H_NFLOWERS + p] == 8:
                fans[ctx[0][C_EIGHT_FL_ID]] = 1
                return _record_win(S, ctx, p, tile, -1, 0, True, EF_INSTANT, fans, -1, True)
            if S[H_NFLOWERS + p] == 7 and rob_from >= 0 and (target < 0 or target == rob_from):
                # the eighth flower goes to the robber
                fans[ctx[0][C_SEVEN_FL_ID]] = 1
                S[H_NFLOWERS + rob_from] -= 1
                S[H_NFLOWERS + p] += 1
                return _record_win(S, ctx, p, tile, rob_from, 0, True, EF_INSTANT, fans,
                                   rob_from, True)
            return E_NOT_COMPLETE
        if phase == PH_DRAWN:
            if p != S[H_TURN]:
                return E_PLAYER
            if target >= 0:
                return E_TARGET
            t = S[H_DRAWN]
            if t < 0 or (tile >= 0 and tile != t):
                return E_PHASE if t < 0 else E_TILE
            if _missed(S, p, t):
                return E_MISSED_WIN
            total, legal, fl = win_value(S, ctx, p, t, True, False, fans)
            return _finish_win(S, ctx, p, t, -1, total, legal, fl, fans, False)
        robbing = phase == PH_ROB
        if phase == PH_ENDED:
            if S[H_WIN_FROM] < 0 or S[H_N_WINS] == 0:
                return E_ENDED
            if S[H_MULTI_RON] != 1:
                return E_HEAD_BUMP
            for w in range(S[H_N_WINS]):
                if S[WINS + w * WIN_FIELDS + W_PLAYER] == p:
                    return E_PLAYER
            t = S[H_WIN_TILE]
            d = S[H_WIN_FROM]
            robbing = (S[WINS + W_FLAGS] & EF_ROBBING) != 0
        elif phase == PH_DISCARDED or phase == PH_ROB:
            t = S[H_LAST_TILE]
            d = S[H_LAST_PLAYER]
        else:
            return E_NO_DISCARD
        if p == d:
            return E_PLAYER
        if target >= 0 and target != d:
            return E_TARGET
        if tile >= 0 and tile != t:
            return E_TILE
        if _missed(S, p, t):
            return E_MISSED_WIN
        total, legal, fl = win_value(S, ctx, p, t, False, robbing, fans)
        return _finish_win(S, ctx, p, t, d, total, legal, fl, fans, robbing)

    if kind == K_KONG_PAYMENT:
        found = -1
        for j in range(S[H_NMELDS + p]):
            m = _meld_at(p, j)
            if (S[m + M_KIND] == 2 and (tile < 0 or S[m + M_TILE] == tile)
                    and (S[m + M_FLAGS] & MELD_PAID) == 0):
                found = m
                break
        if found < 0:
            return E_KONG_PAYMENT
        pay = np.zeros(4, dtype=np.int64)
        fl = S[found + M_FLAGS]
        kk = 2 if (fl & MELD_CONCEALED) != 0 else (1 if (fl & MELD_ADDED) != 0 else 0)
        settle_kong_in_deal(S, ctx, p, kk, S[found + M_FROM], pay)
        S[found + M_FLAGS] = fl | MELD_PAID
        for q in range(4):
            S[H_SCORES + q] += pay[q]
            S[H_LAST_PAY + q] = pay[q]
        return OK

    return E_KIND


@kernel(nrt=False)
def _apply_light(S, P, kind, player, tile, aux, target, flags):
    n = S[H_PLAYERS]
    phase = S[H_PHASE]
    err = _pre(S, kind, player, tile)
    if err != OK:
        return err
    p = player
    if kind == K_DEAL:
        if phase != PH_DEAL:
            return E_DEAL
        if S[H_DEALT + p] >= S[H_HAND]:
            return E_DEAL
        err, t = _receive(S, P, p, tile, False)
        if err != OK:
            return err
        S[H_DEALT + p] += 1
        S[H_DRAWN] = t
        return OK

    if kind == K_DRAW:
        repl = (flags & EF_REPLACEMENT) != 0
        if phase == PH_DEAL:
            if S[H_PENDING + p] > 0:
                repl = True
            if repl:
                if S[H_PENDING + p] <= 0:
                    return E_PHASE
                err, t = _receive(S, P, p, tile, True)
                if err != OK:
                    return err
                S[H_PENDING + p] -= 1
                S[H_DRAWN] = t
                return OK
            for q in range(n):
                if S[H_DEALT + q] != S[H_HAND] or S[H_PENDING + q] > 0:
                    return E_DEAL
            if p != S[H_DEALER]:
                return E_PLAYER
            S[H_KONG_FLAG] = 0
        elif phase == PH_DISCARDED:
            if p != (S[H_LAST_PLAYER] + 1) % n:
                return E_PLAYER
            if repl:
                return E_PHASE
            S[H_KONG_FLAG] = 0
        elif phase == PH_REPLACE or phase == PH_ROB:
            if p != S[H_TURN] and not (phase == PH_ROB and p == S[H_LAST_PLAYER]):
                return E_PLAYER
            repl = True
            if S[H_PENDING + p] > 0:
                S[H_PENDING + p] -= 1           # a flower's replacement: kong flag kept
            else:
                S[H_KONG_FLAG] = 1
                if phase == PH_ROB:
                    S[H_LAST_TILE] = -1
        else:
            return E_PHASE
        err, t = _receive(S, P, p, tile, repl)
        if err != OK:
            return err
        S[H_DRAWS + p] += 1
        S[H_DRAWN] = t
        S[H_TURN] = p
        S[H_PHASE] = PH_DRAWN
        S[H_LAST_DRAW] = 1 if spent_after(S, p) else 0
        return OK

    if kind == K_FLOWER:
        if S[H_FLOWERS] != 1 or tile < 34:
            return E_FLOWER
        bit = 1 << (tile - 34)
        if (S[H_HELD_FL + p] & bit) == 0:
            return E_FLOWER
        if phase == PH_DEAL:
            pass
        elif phase == PH_DRAWN:
            if p != S[H_TURN]:
                return E_PLAYER
            S[H_PHASE] = PH_REPLACE
        elif phase == PH_REPLACE and p == S[H_TURN] and S[H_PENDING + p] > 0:
            pass
        else:
            return E_PHASE
        S[H_HELD_FL + p] &= ~bit
        S[H_FLOWER_MASK + p] |= bit
        S[H_NFLOWERS + p] += 1
        S[H_PENDING + p] += 1
        if tile == S[H_DRAWN]:
            S[H_DRAWN] = -1
        # Taiwan: a player holding seven flowers may rob this eighth one
        for q in range(n):
            if q != p and S[H_NFLOWERS + q] == 7 and S[H_NFLOWERS + p] == 1:
                S[H_FLOWER_ROB] = p
        return OK

    if kind == K_DISCARD:
        if phase != PH_DRAWN and phase != PH_CLAIMED:
            return E_PHASE
        if p != S[H_TURN]:
            return E_PLAYER
        if tile < 0 or tile >= 34:
            return E_TILE
        h = HAND + 34 * p + tile
        if S[h] <= 0:
            return E_NOT_HELD
        k = S[H_NDISC + p]
        if k >= MAX_RIVER:
            return E_RIVER
        S[h] -= 1
        S[RIVER + p * MAX_RIVER + k] = tile
        S[H_NDISC + p] = k + 1
        S[VISIBLE + tile] += 1
        S[H_N_DISCARDS] += 1
        S[H_FIRST_DONE + p] = 1
        if S[H_MISSED_RULE] == 1:
            for t in range(34):
                S[MISSED + 34 * p + t] = 0
        S[H_LAST_TILE] = tile
        S[H_LAST_PLAYER] = p
        S[H_DRAWN] = -1
        S[H_KONG_FLAG] = 0
        S[H_PHASE] = PH_DISCARDED
        return OK

    if kind == K_CHOW or kind == K_PUNG or kind == K_KONG_EXPOSED:
        if phase != PH_DISCARDED:
            return E_NO_DISCARD
        d = S[H_LAST_PLAYER]
        t = S[H_LAST_TILE]
        if target >= 0 and target != d:
            return E_TARGET
        if p == d:
            return E_PLAYER
        if tile >= 0 and tile != t:
            return E_BAD_MELD
        h = HAND + 34 * p
        if kind == K_CHOW:
            if S[H_CHOW] != 1:
                return E_NO_CHOW
            if p != (d + 1) % n:
                return E_CHOW_LEFT
            lo = aux
            if lo < 0 or lo >= 27 or lo % 9 > 6 or t < lo or t > lo + 2:
                return E_BAD_MELD
            for x in range(lo, lo + 3):
                if x != t and S[h + x] <= 0:
                    return E_BAD_MELD
            if S[H_NMELDS + p] >= MAX_MELDS:
                return E_MELDS
            for x in range(lo, lo + 3):
                if x != t:
                    S[h + x] -= 1
                    S[VISIBLE + x] += 1
            _add_meld(S, p, 0, lo, 0, t - lo + 1, d)
            S[H_PHASE] = PH_CLAIMED
        elif kind == K_PUNG:
            if S[h + t] < 2:
                return E_BAD_MELD
            if S[H_NMELDS + p] >= MAX_MELDS:
                return E_MELDS
            S[h + t] -= 2
            S[VISIBLE + t] += 2
            _add_meld(S, p, 1, t, 0, _offset(S, p, d), d)
            S[H_PHASE] = PH_CLAIMED
        else:
            if S[h + t] < 3:
                return E_BAD_MELD
            if S[H_NMELDS + p] >= MAX_MELDS:
                return E_MELDS
            S[h + t] -= 3
            S[VISIBLE + t] += 3
            _add_meld(S, p, 2, t, 0, _offset(S, p, d), d)
            S[H_N_KONGS] += 1
            S[H_PHASE] = PH_REPLACE
        _mark_claimed(S, d)
        _call_made(S, p)
        S[H_TURN] = p
        S[H_DRAWN] = -1
        S[H_KONG_FLAG] = 0
        return OK

    if kind == K_KONG_CONCEALED or kind == K_KONG_ADDED:
        if phase != PH_DRAWN:
            return E_PHASE
        if p != S[H_TURN]:
            return E_PLAYER
        h = HAND + 34 * p
        t = tile
        if kind == K_KONG_CONCEALED:
            if t < 0:      # hidden in the record: the only kind held four times
                for x in range(34):
                    if S[h + x] == 4:
                        t = x
            if t < 0 or t >= 34 or S[h + t] != 4:
                return E_KONG
            if S[H_NMELDS + p] >= MAX_MELDS:
                return E_MELDS
            S[h + t] = 0
            _add_meld(S, p, 2, t, MELD_CONCEALED, 0, -1)
            S[H_N_KONGS] += 1
            S[H_PHASE] = PH_REPLACE
        else:
            if t < 0 or t >= 34 or S[h + t] < 1:
                return E_KONG
            found = -1
            for j in range(S[H_NMELDS + p]):
                m = _meld_at(p, j)
                if S[m + M_KIND] == 1 and S[m + M_TILE] == t:
                    found = m
            if found < 0:
                return E_KONG
            S[h + t] -= 1
            S[found + M_KIND] = 2
            S[found + M_FLAGS] |= MELD_ADDED
            S[found + M_ORDER] = S[H_N_EVENTS]
            S[VISIBLE + t] += 1
            S[H_N_KONGS] += 1
            S[H_LAST_TILE] = t
            S[H_LAST_PLAYER] = p
            S[H_PHASE] = PH_ROB
        _call_made(S, p)
        S[H_DRAWN] = -1
        return OK

    if kind == K_CLAIM_LOST:
        if phase == PH_DEAL:
            return E_PHASE
        return OK

    if kind == K_WIN_PASSED:
        if phase == PH_DEAL:
            return E_PHASE
        t = tile
        if t < 0:
            t = S[H_DRAWN] if (phase == PH_DRAWN and p == S[H_TURN]) else S[H_LAST_TILE]
        if S[H_MISSED_RULE] == 1 and t >= 0 and t < 34:
            S[MISSED + 34 * p + t] = 1
        return OK

    if kind == K_EXHAUSTIVE_DRAW:
        if phase == PH_DISCARDED:
            if not spent_after(S, S[H_LAST_PLAYER]):
                return E_NOT_EXHAUSTED
        elif phase == PH_REPLACE:       # a replacement owed and nothing left to draw
            if wall_left(S, S[H_TURN]) > 0:
                return E_NOT_EXHAUSTED
        else:
            return E_PHASE
        S[H_ENDED] = 2
        S[H_PHASE] = PH_ENDED
        nd, ns = _next_dealer(S, P)
        S[H_NEXT_DEALER] = nd
        S[H_NEXT_STREAK] = ns
        return OK

    if kind == K_DEALER_CHANGE:
        if phase != PH_ENDED:
            return E_PHASE
        if p != S[H_NEXT_DEALER] or (aux >= 0 and aux != S[H_NEXT_STREAK]):
            return E_DEALER
        S[H_DEALER_DONE] = 1
        return OK
    return E_KIND


@kernel
def _finish_win(S, ctx, p, t, d, total, legal, fl, fans, robbing):
    """Record a regular win (``d`` -1 self-draw): incomplete hands are errors, except in
    MCR where a declared win that is not legal (incomplete or under 8) is a false win."""
    ev_flags = 0
    if robbing:
        ev_flags |= EF_ROBBING
    if total < 0:
        if ctx[0][C_RULES] != 0:
            return E_NOT_COMPLETE
        total = 0
        legal = False
    if not legal:
        ev_flags |= EF_FALSE_WIN
    if (fl & F_LAST_TILE) != 0:
        ev_flags |= EF_LAST_TILE
    first = S[H_N_WINS] == 0
    err = _record_win(S, ctx, p, t, d, total, legal, ev_flags, fans, -1, False)
    if err != OK:
        return err
    S[H_LAST_FLAGS] = ev_flags
    if first and d >= 0:
        if robbing:     # the robbed added kong reverts to a pung
            for j in range(S[H_NMELDS + d]):
                m = _meld_at(d, j)
                if S[m + M_KIND] == 2 and S[m + M_TILE] == t and (S[m + M_FLAGS] & MELD_ADDED) != 0:
                    S[m + M_KIND] = 1
                    S[m + M_FLAGS] &= ~MELD_ADDED
            S[H_N_KONGS] -= 1
            S[VISIBLE + t] -= 1
        else:
            _mark_claimed(S, d)
    if d >= 0:
        S[HAND + 34 * p + t] += 1
    return OK
