"""The Python play loop: the compiled loop's steps (:mod:`._loop`) driven from Python, for
games with a Python policy or an external bot at some seat. Built-in seats still decide in
compiled code (same keys and counters, so they play as in the compiled loop).

Policy interface (documented in docs/simulation.md): a policy is a callable
``policy(view, actions) -> int | Action`` choosing one of the engine's legal actions
(:class:`mjfast.engine.Action` rows ``kind, tile, aux, target``; ``kind`` -1 = pass), with
optional methods ``start_deal(game, player)``, ``observe(kind, player, tile, aux, target)``
(after every event) and ``close()``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..datasets._events import EventKind as K
from ..engine import Action, Game
from ..engine import layout as EL
from ..errors import ArgumentError


@dataclass
class PolicyView:
    """What a Python policy sees: the :class:`~mjfast.engine.Game` (the whole state; a
    fair policy reads only its own hand and the public record) and its player."""
    game: Game
    player: int

    @property
    def phase(self) -> str:
        return self.game.phase

    @property
    def hand(self) -> dict:
        return self.game.hand(self.player)

    @property
    def last_tile(self) -> int:
        return int(self.game.S[EL.H_LAST_TILE])

    @property
    def last_player(self) -> int:
        return int(self.game.S[EL.H_LAST_PLAYER])


def _policy(b):
    from ._external import BotzoneBot
    if isinstance(b, str) and b.startswith("cmd:"):
        return BotzoneBot(b[4:])
    if callable(b):
        return b
    raise ArgumentError(repr(b), None, "a Python policy must be callable (view, actions) -> int")


def play_jobs_python(plan, job_idx):
    """Play ``plan``'s jobs ``job_idx`` in Python; returns :class:`ShardResult`."""
    from . import _loop as L
    from ._bots import BUILTIN, decide_claim, decide_turn
    from ._rng import STREAM_BOT, make_key, make_wall
    from ._simulate import _worker, build_tables
    from ..engine._structure import END_ERROR, G_END, GAME_LENGTH, GameStructure
    ctx, bc, _, base = _worker(plan.rules, plan.variant, plan.wall)
    jobs = plan.jobs[job_idx]
    n = int(ctx[0][1])
    minimum = int(ctx[0][7])
    EVs, FNs, METAs, WALLs = [], [], [], []
    r_total = nf_total = 0
    c = np.zeros(34, dtype=np.int64)
    scores = np.zeros(64, dtype=np.int64)
    fans = np.zeros(EL.MAX_FANS, dtype=np.int64)
    for jj, j in enumerate(job_idx):
        game, perm, nd, dealer = (int(x) for x in plan.jobs[j])
        entrant_bots = plan.job_bots[j]
        entrant_pols = [None if isinstance(b, str) and b in BUILTIN else _policy(b)
                        for b in entrant_bots]
        entrant_codes = [BUILTIN.get(b, -1) if isinstance(b, str) else -1 for b in entrant_bots]
        gs = GameStructure(plan.rules, first_dealer=dealer, max_deals=nd,
                           chips=plan.chips, length=GAME_LENGTH[plan.rules])
        k = 0
        while not gs.ended:
            dealer, prevalent, streak = gs.dealer, gs.prevalent, gs.streak
            ent = gs.entrants
            pols = [entrant_pols[e] for e in ent]
            codes = [entrant_codes[e] for e in ent]
            wall = make_wall(plan.rules, plan.seed, game, k,
                             flowers=False if plan.wall == "botzone" else None)
            keys = np.array([make_key(plan.seed, game, k, STREAM_BOT, perm * 8 + q)
                             for q in range(n)], dtype=np.uint64)
            g = Game(plan.rules, plan.variant, wall=wall, dealer=dealer, prevalent=prevalent,
                     streak=streak, wall_mode=plan.wall or "standard", chips=gs.caps())
            err, sit = _play_one(g, ctx, bc, n, pols, codes, keys, minimum, c, scores, fans,
                                 decide_turn, decide_claim)
            ev = g.events
            m = len(ev)
            EV = np.zeros((m, L.EV_COLS), dtype=np.int32)
            EV[:, L.E_KIND] = ev.kind
            EV[:, L.E_PLAYER] = ev.player
            EV[:, L.E_TILE] = ev.tile
            EV[:, L.E_AUX] = ev.aux
            EV[:, L.E_TARGET] = ev.target
            EV[:, L.E_FLAGS] = ev.flags
            EV[:, L.E_TOTAL] = ev.total
            EV[:, L.E_SCORES:L.E_SCORES + n] = ev.scores
            for row, v in sit.items():
                EV[row, L.E_SIT] = v
            lens = np.diff(ev.fan_offsets)
            FN = np.zeros((int(lens.sum()), 3), dtype=np.int32)
            FN[:, 0] = np.repeat(np.arange(m), lens) + r_total
            FN[:, 1] = ev.fan_id
            FN[:, 2] = ev.fan_count
            S = g.S
            meta = np.zeros(L.META_COLS, dtype=np.int64)
            meta[[L.M_JOB, L.M_DEAL, L.M_DEALER, L.M_PREVALENT, L.M_STREAK, L.M_ERR]] = \
                (jj, k, dealer, prevalent, streak, err)
            meta[[L.M_EV0, L.M_EV1, L.M_FN0, L.M_FN1]] = (r_total, r_total + m, nf_total,
                                                          nf_total + len(FN))
            meta[L.M_ENDED] = S[EL.H_ENDED]
            meta[L.M_NWINS] = S[EL.H_N_WINS]
            tot = gs.totals
            meta[L.M_START:L.M_START + n] = [tot[e] for e in ent]
            meta[L.M_ENTRANT:L.M_ENTRANT + n] = ent
            meta[L.M_SCORES:L.M_SCORES + 4] = S[EL.H_SCORES:EL.H_SCORES + 4]
            EVs.append(EV); FNs.append(FN); METAs.append(meta); WALLs.append(np.asarray(wall, np.int8))
            r_total += m
            nf_total += len(FN)
            k += 1
            if err:
                meta[L.M_GAME_END] = END_ERROR
                break
            gs.advance(int(S[EL.H_NEXT_DEALER]), int(S[EL.H_NEXT_STREAK]),
                       S[EL.H_SCORES:EL.H_SCORES + n])
            meta[L.M_GAME_END] = int(gs.G[G_END])
        for p in entrant_pols:
            if p is not None and hasattr(p, "close"):
                p.close()
    EV = np.concatenate(EVs) if EVs else np.zeros((0, L.EV_COLS), np.int32)
    FN = np.concatenate(FNs) if FNs else np.zeros((0, 3), np.int32)
    return build_tables(plan, job_idx, EV, FN, np.array(METAs).reshape(-1, L.META_COLS),
                        np.array(WALLs).reshape(len(WALLs), -1))


def _choose(pol, g, p, acts):
    res = pol(PolicyView(g, p), acts)
    if isinstance(res, Action):
        for i, a in enumerate(acts):
            if tuple(a) == tuple(res):
                return i
        raise ArgumentError(repr(res), None, "the policy chose an action that is not legal")
    i = int(res)
    if not 0 <= i < len(acts):
        raise ArgumentError(str(res), None, f"action index out of range 0..{len(acts) - 1}")
    return i


def _play_one(g, ctx, bc, n, pols, codes, keys, minimum, c, scores, fans, decide_turn,
              decide_claim):
    """One deal on ``g``; returns (error code, {event row: situation flags of a win})."""
    from ..engine.compiled import auto_step, situation_flags
    S = g.S
    sit: dict[int, int] = {}
    ctr = [0] * n
    for p, pol in enumerate(pols):
        if pol is not None and hasattr(pol, "start_deal"):
            pol.start_deal(g, p)
    step = np.zeros(6, dtype=np.int64)
    waits = np.full(4, -1, dtype=np.int64)
    arr = np.zeros((EL.MAX_ACTIONS, 4), dtype=np.int64)

    def apply(kind, p, tile, aux, target, flags=0):
        seq = g.apply(kind, p, tile, aux, target, flags)
        row = g.builder._rows[-1]
        for pol in pols:
            if pol is not None and hasattr(pol, "observe"):
                pol.observe(int(row[2]), int(row[3]), int(row[4]), int(row[5]), int(row[6]))
        return seq

    def decide(p, acts, claim):
        if pols[p] is not None:
            return _choose(pols[p], g, p, acts)
        for i, a in enumerate(acts):
            arr[i] = tuple(a)
        if claim:
            i = decide_claim(S, ctx, bc, p, arr, len(acts), codes[p], keys[p], ctr[p], c)
        else:
            # argument types as in the compiled loop (no second specialisation)
            i = decide_turn(S, ctx, bc, np.int32(p), arr, len(acts), codes[p], keys[p], ctr[p],
                            minimum, c, scores, fans, waits)
        ctr[p] += 1
        return int(i)

    claims_done = False
    for _ in range(100_000):
        phase = int(S[EL.H_PHASE])
        if phase in (EL.PH_DISCARDED, EL.PH_ROB) and not claims_done:
            d, t = int(S[EL.H_LAST_PLAYER]), int(S[EL.H_LAST_TILE])
            acts = {q: g.legal_actions(q) for q in range(n) if q != d}
            choice, kinds = {}, [-1] * 4
            for q, a in acts.items():
                if a:
                    i = decide(q, a, True)
                    if pols[q] is None:
                        pass
                    choice[q] = i
                    kinds[q] = a[i].kind
            for q, a in acts.items():
                if a and kinds[q] != K.WIN and any(x.kind == K.WIN for x in a):
                    apply(K.WIN_PASSED, q, t, -1, d)
            claims_done = True
            if any(k >= 0 for k in kinds):
                winners = g.resolve_claims(kinds)
                if winners:
                    flags = {q: int(situation_flags(S, q, t, False, phase == EL.PH_ROB))
                             for q in winners if kinds[q] == K.WIN}
                    for k in range(1, n):
                        q = (d + k) % n
                        if q in winners:
                            a = acts[q][choice[q]]
                            seq = apply(a.kind, q, a.tile, a.aux, d)
                            if q in flags:
                                sit[seq] = flags[q]
                    for k in range(1, n):
                        q = (d + k) % n
                        if kinds[q] >= 0 and q not in winners:
                            a = acts[q][choice[q]]
                            lt = a.aux + 1 if a.kind == K.CHOW else t
                            apply(K.CLAIM_LOST, q, lt, a.kind, d)
                    claims_done = False
                    continue
        if auto_step(S, ctx, step):
            kind, p, tile, aux, target, flags = (int(x) for x in step)
            apply(kind, p, tile, aux, target, flags)
            claims_done = False
            continue
        if phase == EL.PH_ENDED:
            return 0, sit
        if phase in (EL.PH_DRAWN, EL.PH_CLAIMED):
            p = int(S[EL.H_TURN])
            acts = g.legal_actions(p)
            if not acts:
                return 101, sit
            i = decide(p, acts, False)
            a = acts[i]
            fl = int(situation_flags(S, p, a.tile, True, False)) if a.kind == K.WIN else None
            seq = apply(a.kind, p, a.tile, a.aux, a.target)
            if fl is not None:
                sit[seq] = fl
            claims_done = False
            continue
        return 101, sit
    return 100, sit
