"""Compiled folds of a chunk of deals through the engine's ``apply`` (no rule of play here:
the engine validates and folds every event; these loops only take snapshots of its state).

Pass 1 (:func:`fold_snapshots`): every deal is folded; a rejected event stops its deal
(error code and row kept). Before each DISCARD the decision is snapshot (hand, melds,
visible tiles); each time a player's hand reaches a waiting size (dealt, after a discard,
after a kong) it is snapshot for the win-chance pass, and every event row points at each
player's current waiting snapshot. With a known wall, a logged draw that differs from the
wall is noted (a discrepancy) and the deal goes on with the logged tiles.

Between the passes the waiting snapshots' winning tiles are found in batch (``waits``).

Pass 2 (:func:`fold_results`): the good deals are folded again; at every tile on offer (a
draw for the drawer, a discard or an added kong for the others) a player whose hand it
completes (or for whom the log gives a ``canHu`` value) is evaluated by the engine's
``win_value`` (every situation flag from the state); every WIN's recorded result is read
from the state.
"""
from __future__ import annotations

import numpy as np

from ..engine.compiled import (K_DEAL, K_DRAW, K_DISCARD, K_CHOW, K_PUNG, K_KONG_EXPOSED,
                               K_KONG_CONCEALED, K_KONG_ADDED, K_WIN, EF_LAST_TILE, apply,
                               init_state, win_value)
from ..engine.layout import (H_DRAWN, H_ENDED, H_LAST_DRAW, H_N_WINS, H_NDISC, H_NFLOWERS,
                              H_NMELDS, H_PLAYERS, H_PREVALENT, H_SCORES, H_SEATS, H_SEG,
                              H_WALL_KNOWN, H_WALL_MODE, HAND, M_CLAIMED, M_FLAGS, M_KIND,
                              M_TILE, MAX_FANS, MAX_MELDS, MELD_ADDED, MELD_CONCEALED,
                              MELD_FIELDS, MELDS, OK, STATE_SIZE, VISIBLE, W_FANS, W_FLAGS,
                              W_FROM, W_LEGAL, W_PLAYER, W_SCORES, W_TILE, W_TOTAL, WALL,
                              WALL_BOTZONE, WIN_FIELDS, WINS)
from ..kernels import kernel

CAN_NONE = -4


@kernel
def _hand_size(S, p):
    s = 0
    for t in range(34):
        s += S[HAND + 34 * p + t]
    return s


@kernel
def _snap_wait(S, p, snaps, ns, cur):
    """Record player p's hand as a waiting snapshot when its size is 3k+1."""
    if _hand_size(S, p) % 3 != 1:
        return ns
    for t in range(34):
        snaps[ns, t] = S[HAND + 34 * p + t]
    cur[p] = ns
    return ns + 1


@kernel
def _expected_draw(S, p):
    """The wall tile the next draw of p takes (Botzone wall), -1 when unknown."""
    if S[H_WALL_KNOWN] != 1 or S[H_WALL_MODE] != WALL_BOTZONE:
        return -1
    k = S[H_SEG + p]
    if k <= 0:
        return -1
    return S[WALL + 34 * p + k - 1]


@kernel
def fold_snapshots(ctx, kind, player, tile, aux, target, flags, starts, dealer, prevalent,
                   streak, seats_in, walls, wall_len, wall_mode,
                   err, err_row, wall_bad,
                   dec_row, dec_counts, dec_melds, dec_nmelds, dec_flowers, dec_seat,
                   dec_prev, dec_own, dec_vis, dec_turn,
                   snaps, snap_of):
    """Pass 1 over every deal (see the module docstring). Returns (decisions, snapshots)."""
    S = np.zeros(STATE_SIZE, dtype=np.int32)
    seats = np.full(4, -1, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int8)
    cur = np.full(4, -1, dtype=np.int64)
    nd = 0
    ns = 0
    n_deals = starts.shape[0] - 1
    for d in range(n_deals):
        a, b = starts[d], starts[d + 1]
        for q in range(4):
            seats[q] = seats_in[d, q]
        if wall_len[d] > 0:
            init_state(S, ctx, dealer[d], prevalent[d], streak[d], seats,
                       walls[d, :wall_len[d]], wall_mode[d])
        else:
            init_state(S, ctx, dealer[d], prevalent[d], streak[d], seats, empty, wall_mode[d])
        n = S[H_PLAYERS]
        for q in range(4):
            cur[q] = -1
        dealt = False
        err[d] = OK
        err_row[d] = -1
        for r in range(a, b):
            k = kind[r]
            p = player[r]
            t = tile[r]
            if not dealt and k != K_DEAL:
                dealt = True
                for q in range(n):
                    ns = _snap_wait(S, q, snaps, ns, cur)
            for q in range(4):
                snap_of[r, q] = cur[q]
            if (k == K_DRAW or k == K_DEAL) and t >= 0 and p >= 0:
                e = _expected_draw(S, p)
                if e >= 0 and e != t:
                    wall_bad[r] = e
                    S[H_WALL_KNOWN] = 0
            if k == K_DISCARD and p >= 0 and p < n:
                i = nd
                dec_row[i] = r
                for x in range(34):
                    dec_counts[i, x] = S[HAND + 34 * p + x]
                    dec_own[i, x] = 0
                    dec_vis[i, x] = S[VISIBLE + x]
                nm = S[H_NMELDS + p]
                dec_nmelds[i] = nm
                for j in range(MAX_MELDS):
                    if j < nm:
                        m = MELDS + (p * MAX_MELDS + j) * MELD_FIELDS
                        mk = S[m + M_KIND]
                        mt = S[m + M_TILE]
                        mf = S[m + M_FLAGS] & (MELD_CONCEALED | MELD_ADDED)
                        dec_melds[i, j, 0] = mk
                        dec_melds[i, j, 1] = mt
                        dec_melds[i, j, 2] = mf
                        dec_melds[i, j, 3] = S[m + M_CLAIMED]
                        hidden = (mf & MELD_CONCEALED) != 0
                        if mk == 0:
                            for x in range(mt, mt + 3):
                                dec_own[i, x] += 1
                                dec_vis[i, x] -= 1
                        else:
                            c = 3 if mk == 1 else 4
                            dec_own[i, mt] += c
                            if not hidden:
                                dec_vis[i, mt] -= c
                    else:
                        dec_melds[i, j, 0] = -1
                        dec_melds[i, j, 1] = 0
                        dec_melds[i, j, 2] = 0
                        dec_melds[i, j, 3] = 0
                dec_flowers[i] = S[H_NFLOWERS + p]
                dec_seat[i] = S[H_SEATS + p]
                dec_prev[i] = S[H_PREVALENT]
                dec_turn[i] = S[H_NDISC + p] + 1
            e = apply(S, ctx, k, p, t, aux[r], target[r], flags[r])
            if e != OK:
                err[d] = e
                err_row[d] = r
                break
            if k == K_DISCARD:
                nd += 1
                ns = _snap_wait(S, p, snaps, ns, cur)
            elif k == K_KONG_CONCEALED or k == K_KONG_ADDED or k == K_KONG_EXPOSED:
                ns = _snap_wait(S, p, snaps, ns, cur)
        if err[d] == OK and S[H_ENDED] == 0:
            err[d] = -1            # the events end before the deal does
            err_row[d] = b - 1
    return nd, ns


@kernel
def _chance(S, ctx, r, q, t, self_drawn, robbing, logged, fans, n, c_row, c_player,
            c_tile, c_self, c_total, c_legal, c_flags, c_logged):
    total, legal, fl = win_value(S, ctx, q, t, self_drawn, robbing, fans)
    c_row[n] = r
    c_player[n] = q
    c_tile[n] = t
    c_self[n] = self_drawn
    c_total[n] = total
    c_legal[n] = legal
    c_flags[n] = fl
    c_logged[n] = logged
    return n + 1


@kernel
def fold_results(ctx, kind, player, tile, aux, target, flags, starts, dealer, prevalent,
                 streak, seats_in, walls, wall_len, wall_mode, good, snap_of, wins_mask, can_hu,
                 out_flags,
                 c_row, c_player, c_tile, c_self, c_total, c_legal, c_flags, c_logged,
                 w_row, w_player, w_tile, w_from, w_evflags, w_total, w_legal, w_sit,
                 w_scores, w_fans,
                 d_scores, d_seats, d_ended):
    """Pass 2 over the good deals (see the module docstring). Returns (chances, wins)."""
    S = np.zeros(STATE_SIZE, dtype=np.int32)
    seats = np.full(4, -1, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int8)
    fans = np.zeros(MAX_FANS, dtype=np.int64)
    nc = 0
    nw = 0
    n_deals = starts.shape[0] - 1
    for d in range(n_deals):
        if not good[d]:
            continue
        a, b = starts[d], starts[d + 1]
        for q in range(4):
            seats[q] = seats_in[d, q]
        if wall_len[d] > 0:
            init_state(S, ctx, dealer[d], prevalent[d], streak[d], seats,
                       walls[d, :wall_len[d]], wall_mode[d])
        else:
            init_state(S, ctx, dealer[d], prevalent[d], streak[d], seats, empty, wall_mode[d])
        n = S[H_PLAYERS]
        sit_next = -1
        for r in range(a, b):
            k = kind[r]
            p = player[r]
            t = tile[r]
            if (k == K_DRAW or k == K_DEAL) and t >= 0 and p >= 0:
                e = _expected_draw(S, p)
                if e >= 0 and e != t:
                    S[H_WALL_KNOWN] = 0
            if k == K_WIN:
                # the win's situation bits (state before the win is recorded)
                sd = target[r] < 0
                wt = S[H_DRAWN] if sd else t
                _, _, sit_next = win_value(S, ctx, p, wt, sd, (flags[r] & 2) != 0, fans)
            apply(S, ctx, k, p, t, aux[r], target[r], flags[r])
            fl = flags[r]
            if k == K_DRAW:
                if S[H_LAST_DRAW] == 1:
                    fl |= EF_LAST_TILE
                t2 = S[H_DRAWN]
                if t2 >= 0 and t2 < 34:
                    sn = snap_of[r, p]
                    lg = can_hu[r, p]
                    if (sn >= 0 and wins_mask[sn, t2]) or lg >= 0:
                        nc = _chance(S, ctx, r, p, t2, True, False, lg, fans, nc, c_row,
                                     c_player, c_tile, c_self, c_total, c_legal, c_flags,
                                     c_logged)
            elif k == K_DISCARD or k == K_KONG_ADDED:
                for q in range(n):
                    if q == p:
                        continue
                    sn = snap_of[r, q]
                    lg = can_hu[r, q]
                    if (sn >= 0 and t >= 0 and t < 34 and wins_mask[sn, t]) or lg >= 0:
                        nc = _chance(S, ctx, r, q, t, False, k == K_KONG_ADDED, lg, fans,
                                     nc, c_row, c_player, c_tile, c_self, c_total, c_legal,
                                     c_flags, c_logged)
            elif k == K_WIN:
                w = S[H_N_WINS] - 1
                base = WINS + w * WIN_FIELDS
                w_row[nw] = r
                w_player[nw] = S[base + W_PLAYER]
                w_tile[nw] = S[base + W_TILE]
                w_from[nw] = S[base + W_FROM]
                w_evflags[nw] = S[base + W_FLAGS]
                fl |= S[base + W_FLAGS]
                w_total[nw] = S[base + W_TOTAL]
                w_legal[nw] = S[base + W_LEGAL] != 0
                w_sit[nw] = sit_next
                for q in range(4):
                    w_scores[nw, q] = S[base + W_SCORES + q]
                for f in range(MAX_FANS):
                    w_fans[nw, f] = S[base + W_FANS + f]
                nw += 1
            out_flags[r] = fl
        for q in range(4):
            d_scores[d, q] = S[H_SCORES + q]
            d_seats[d, q] = S[H_SEATS + q]
        d_ended[d] = S[H_ENDED]
    return nc, nw
