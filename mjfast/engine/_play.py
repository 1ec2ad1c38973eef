"""Compiled helpers for a play loop: legal actions, claim resolution and the forced next
event (deal rows, flowers, draws, exhaustive draw, kong payments, dealer change)."""
from __future__ import annotations

import numpy as np

from ..kernels import kernel
from ._core import (EF_INSTANT, EF_REPLACEMENT, K_CHOW, K_DEAL, K_DEALER_CHANGE,
                    K_DISCARD, K_DRAW, K_EXHAUSTIVE_DRAW, K_FLOWER, K_KONG_ADDED,
                    K_KONG_CONCEALED, K_KONG_EXPOSED, K_KONG_PAYMENT, K_PUNG, K_WIN,
                    _can_replace, _meld_at, _missed, could_win_p, spent_after, wall_left,
                    win_value)
from .layout import (ACT_PASS, H_CHOW, H_DEALER, H_DEALER_DONE, H_DEALT, H_DRAWN,
                      H_ENDED, H_FLOWER_ROB, H_HAND, H_HELD_FL, H_LAST_PLAYER, H_LAST_TILE,
                      H_MULTI_RON, H_N_WINS, H_NEXT_DEALER, H_NEXT_STREAK, H_NFLOWERS,
                      H_NMELDS, H_PENDING, H_PHASE, H_PLAYERS, H_RULES, H_TURN, HAND,
                      M_FLAGS, M_KIND, M_ORDER, M_TILE, MAX_ACTIONS, MAX_FANS, MELD_PAID,
                      PH_CLAIMED, PH_DEAL, PH_DISCARDED, PH_DRAWN, PH_ENDED, PH_REPLACE,
                      PH_ROB, RULES_TAIWAN)
from ..kernels import C_KONG_ADDED, C_KONG_CONCEALED, C_KONG_OPEN


@kernel(nrt=False)
def _put(out, n, kind, tile, aux, target):
    if n < MAX_ACTIONS:
        out[n, 0] = kind
        out[n, 1] = tile
        out[n, 2] = aux
        out[n, 3] = target
        return n + 1
    return n


@kernel
def legal_actions(S, ctx, p, out):
    """Write the decisions open to player ``p`` now into ``out`` (int[MAX_ACTIONS, 4]
    rows ``kind, tile, aux, target``; ``kind`` an EventKind or ACT_PASS) and return the
    row count (0: no decision for ``p``; forced events come from :func:`auto_step`).

    After ``p``'s draw: self-drawn win (complete, legal, not missed-locked), concealed
    and added kongs (when a replacement tile exists), a discard of each held kind.
    After a claim: the discards. On another player's discard: pass, win, and, while the
    wall is not spent, pung, exposed kong and (left player only, where allowed) chows.
    On an added kong: pass or rob it."""
    n, unchecked = legal_actions_p(S, ctx[0], p, out, ctx[2])
    if unchecked:
        n = confirm_wins(S, ctx, p, out, n)
    return n


@kernel(nrt=False)
def legal_actions_p(S, P, p, out, ws):
    """:func:`legal_actions` with the rule parameters ``P = ctx[0]`` only (cheaper to
    call per decision): a win row is written when the cheap completeness test passes,
    with ``aux`` = ``WIN_UNCHECKED``; returns ``(rows, unchecked)``, and when
    ``unchecked`` the caller must pass the rows through :func:`confirm_wins` (which
    scores them) before using them. ``ws``: the context's workspace (``ctx[2]``), the
    completeness test's scratch."""
    phase = S[H_PHASE]
    if (phase == PH_DRAWN or phase == PH_CLAIMED) and p == S[H_TURN]:
        return _legal_turn(S, P, p, out, phase, ws)
    if phase == PH_DISCARDED or phase == PH_ROB:
        return _legal_claims(S, P, p, out, phase, ws)
    return 0, False


WIN_UNCHECKED = -2


@kernel
def confirm_wins(S, ctx, p, out, n):
    """Score the unchecked win rows of :func:`legal_actions_p` (``out[:n]``): a legal win
    keeps its row (``aux`` back to -1), any other is removed. Returns the row count (0
    when only "pass" is left)."""
    phase = S[H_PHASE]
    fans = np.zeros(MAX_FANS, dtype=np.int64)
    m = 0
    for i in range(n):
        keep = True
        if out[i, 0] == K_WIN and out[i, 2] == WIN_UNCHECKED:
            own = phase == PH_DRAWN or phase == PH_CLAIMED
            total, legal, fl = win_value(S, ctx, p, out[i, 1], own, phase == PH_ROB, fans)
            keep = total >= 0 and legal
            out[i, 2] = -1
        if keep:
            if m != i:
                for f in range(4):
                    out[m, f] = out[i, f]
            m += 1
    if m == 1 and out[0, 0] == ACT_PASS:
        return 0
    return m


@kernel(nrt=False)
def _legal_turn(S, P, p, out, phase, ws):
    n = 0
    unchecked = False
    h = HAND + 34 * p
    if phase == PH_DRAWN:
        t = S[H_DRAWN]
        if t >= 0 and not _missed(S, p, t) and could_win_p(S, P, p, t, True, ws):
            n = _put(out, n, K_WIN, t, WIN_UNCHECKED, -1)
            unchecked = True
        if _can_replace(S, p):
            for x in range(34):
                if S[h + x] == 4:
                    n = _put(out, n, K_KONG_CONCEALED, x, -1, -1)
            for j in range(S[H_NMELDS + p]):
                m = _meld_at(p, j)
                x = S[m + M_TILE]
                if S[m + M_KIND] == 1 and S[h + x] >= 1:
                    n = _put(out, n, K_KONG_ADDED, x, -1, -1)
    for x in range(34):
        if S[h + x] > 0:
            n = _put(out, n, K_DISCARD, x, -1, -1)
    return n, unchecked


@kernel(nrt=False)
def _legal_claims(S, P, p, out, phase, ws):
    d = S[H_LAST_PLAYER]
    t = S[H_LAST_TILE]
    if p == d or t < 0:
        return 0, False
    unchecked = False
    h = HAND + 34 * p
    n = _put(out, 0, ACT_PASS, -1, -1, -1)
    if not _missed(S, p, t) and could_win_p(S, P, p, t, False, ws):
        n = _put(out, n, K_WIN, t, WIN_UNCHECKED, d)
        unchecked = True
    if phase == PH_DISCARDED and not spent_after(S, d):
        c = S[h + t]
        if c >= 2:
            n = _put(out, n, K_PUNG, t, -1, d)
        if c >= 3 and _can_replace(S, p):
            n = _put(out, n, K_KONG_EXPOSED, t, -1, d)
        if S[H_CHOW] == 1 and p == (d + 1) % S[H_PLAYERS] and t < 27:
            r = t % 9
            for lo in range(t - 2, t + 1):
                if lo < t - r or lo + 2 > t - r + 8:
                    continue
                ok = True
                for x in range(lo, lo + 3):
                    if x != t and S[h + x] <= 0:
                        ok = False
                if ok:
                    n = _put(out, n, K_CHOW, t, lo, d)
    if n == 1:
        return 0, False     # only "pass": no decision
    return n, unchecked


@kernel(nrt=False)
def _rank(kind):
    if kind == K_WIN:
        return 3
    if kind == K_PUNG or kind == K_KONG_EXPOSED:
        return 2
    if kind == K_CHOW:
        return 1
    return 0


@kernel(nrt=False)
def resolve_claims(S, kinds):
    """Which declared claims on the live discard / added kong execute: ``kinds[p]`` is
    the EventKind player ``p`` chose (ACT_PASS or -1 for none). Win > pung / kong >
    chow; several wins: all of them where the rules allow several rons (Taiwan), else
    head-bump (the nearest player after the discarder). Returns a bit mask of players
    (0: nobody claims); the others' claims are CLAIM_LOST."""
    n = S[H_PLAYERS]
    d = S[H_LAST_PLAYER]
    best = 0
    for p in range(n):
        if p != d and _rank(kinds[p]) > best:
            best = _rank(kinds[p])
    if best == 0:
        return 0
    mask = 0
    for k in range(1, n):
        p = (d + k) % n
        if _rank(kinds[p]) == best:
            mask |= 1 << p
            if best != 3 or S[H_MULTI_RON] != 1:
                break
    return mask


@kernel
def auto_step(S, ctx, out):
    """The next forced event, if any: writes ``kind, player, tile, aux, target, flags``
    into ``out`` (int[6]) and returns 1, or returns 0 when a player must decide (or the
    deal is over). Forced: DEAL rows (dealer first, a hand each, in turn), showing a held
    flower and its replacement DRAW, Taiwan's instant flower wins, the draw after an
    unclaimed discard / the replacement after a kong, the exhaustive draw, each kong's
    KONG_PAYMENT in the order made (rule sets with kong payments) and DEALER_CHANGE.
    Needs the wall (simulation); in PH_DISCARDED / PH_ROB call it only once every player
    passed."""
    return auto_step_p(S, ctx[0], out)


@kernel(nrt=False)
def auto_step_p(S, P, out):
    """:func:`auto_step` with the rule parameters ``P = ctx[0]`` only (cheaper to call
    per event)."""
    n = S[H_PLAYERS]
    phase = S[H_PHASE]
    for i in range(6):
        out[i] = -1
    out[5] = 0
    if phase == PH_ENDED:
        if P[C_KONG_OPEN] + P[C_KONG_ADDED] + P[C_KONG_CONCEALED] > 0:
            bo = 1 << 30
            bp = -1
            bt = -1
            for q in range(n):
                for j in range(S[H_NMELDS + q]):
                    m = _meld_at(q, j)
                    if (S[m + M_KIND] == 2 and (S[m + M_FLAGS] & MELD_PAID) == 0
                            and S[m + M_ORDER] < bo):
                        bo = S[m + M_ORDER]
                        bp = q
                        bt = S[m + M_TILE]
            if bp >= 0:
                out[0] = K_KONG_PAYMENT
                out[1] = bp
                out[2] = bt
                return 1
        if S[H_DEALER_DONE] == 0:
            out[0] = K_DEALER_CHANGE
            out[1] = S[H_NEXT_DEALER]
            out[3] = S[H_NEXT_STREAK]
            return 1
        return 0
    # Taiwan instant flower wins are always taken
    if S[H_RULES] == RULES_TAIWAN:
        if S[H_FLOWER_ROB] >= 0:
            for q in range(n):
                if S[H_NFLOWERS + q] == 7 and q != S[H_FLOWER_ROB]:
                    out[0] = K_WIN
                    out[1] = q
                    out[4] = S[H_FLOWER_ROB]
                    out[5] = EF_INSTANT
                    return 1
        for q in range(n):
            if S[H_NFLOWERS + q] == 8:
                out[0] = K_WIN
                out[1] = q
                out[5] = EF_INSTANT
                return 1
    if phase == PH_DEAL:
        d = S[H_DEALER]
        for k in range(n):
            q = (d + k) % n
            if S[H_DEALT + q] < S[H_HAND]:
                out[0] = K_DEAL
                out[1] = q
                return 1
        for k in range(n):
            q = (d + k) % n
            if S[H_PENDING + q] > 0:
                out[0] = K_DRAW
                out[1] = q
                out[5] = EF_REPLACEMENT
                return 1
            if S[H_HELD_FL + q] != 0:
                out[0] = K_FLOWER
                out[1] = q
                out[2] = 34 + _low_bit(S[H_HELD_FL + q])
                return 1
        out[0] = K_DRAW
        out[1] = d
        return 1
    if phase == PH_DRAWN:
        q = S[H_TURN]
        if S[H_HELD_FL + q] != 0:
            out[0] = K_FLOWER
            out[1] = q
            out[2] = 34 + _low_bit(S[H_HELD_FL + q])
            return 1
        return 0
    if phase == PH_REPLACE or phase == PH_ROB:
        q = S[H_TURN] if phase == PH_REPLACE else S[H_LAST_PLAYER]
        if wall_left(S, q) <= 0:
            if phase == PH_REPLACE:
                out[0] = K_EXHAUSTIVE_DRAW
                return 1
            return 0
        out[0] = K_DRAW
        out[1] = q
        out[5] = EF_REPLACEMENT
        return 1
    if phase == PH_DISCARDED:
        d = S[H_LAST_PLAYER]
        if spent_after(S, d):
            out[0] = K_EXHAUSTIVE_DRAW
            return 1
        out[0] = K_DRAW
        out[1] = (d + 1) % n
        return 1
    return 0


@kernel(nrt=False)
def _low_bit(m):
    for b in range(8):
        if (m >> b) & 1:
            return b
    return -1
