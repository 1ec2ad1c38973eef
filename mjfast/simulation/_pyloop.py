"""Python seats of the one play loop: policies and external bots.

Every deal is played by the compiled loop (:mod:`._loop`), whatever the seats. When a seat
whose bot is a Python policy or an external process must decide, the loop stops and
returns; :class:`PythonSeats` answers each stop and the loop is called again, resuming
exactly where it stopped (built-in seats keep deciding in compiled code, with the same
keys and counters as in a game without a Python seat):

- ``J_DEAL_START`` (a job with a Python seat; the deal is set up, no event yet): the
  policies' ``start_deal(game, player)``, by position; the loop is asked to stop after
  every event when some seat of the job has ``observe``;
- ``L_DECIDE``: ``policy(view, actions)`` for the player the loop names, the legal actions
  being the rows the loop left in its workspace; the chosen row goes back into it;
- ``L_EVENT``: ``observe(kind, player, tile, aux, target)`` of every policy, by position,
  with the event row just written (so an observer sees each event in order, with the
  state right after it, as the engine applied it);
- ``J_DEAL_END``: the deal's :class:`~mjfast.engine.Game` keeps a copy of its final state
  and rows; ``J_JOB_END``: the policies' ``close()``.

Policy interface (documented in docs/simulation.md): a policy is a callable
``policy(view, actions) -> int | Action`` choosing one of the engine's legal actions
(:class:`mjfast.engine.Action` rows ``kind, tile, aux, target``; ``kind`` -1 = pass), with
optional methods ``start_deal(game, player)``, ``observe(kind, player, tile, aux, target)``
(after every event) and ``close()``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..datasets import EventKind as K
from ..engine import Action, Game
from ..engine import layout as EL
from ..engine.compiled import G_DEALER, G_ENTRANT, G_PREVALENT, G_STREAK
from ..errors import ArgumentError
from ..kernels import C_MINIMUM
from . import _loop as L


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


class _LoopGame(Game):
    """The :class:`~mjfast.engine.Game` a policy sees during a deal: its state ``S`` is
    the loop's (live), its ``events`` the rows the loop wrote so far. At the deal's end
    it keeps copies of both (:meth:`detach`)."""

    def attach(self, S, EV, r0: int, W) -> None:
        self.S = S
        self._ev, self._r0, self._W = EV, r0, W
        self._n = None                   # rows: live (W[LS_R]) until detached
        self._synced = 0
        self._wins = 0

    def detach(self) -> None:
        n = int(self._W[L.LS_R])
        self.S = self.S.copy()
        self._ev = self._ev[self._r0:self._r0 + n].copy()
        self._r0, self._n, self._W = 0, n, None

    def _sync(self) -> None:
        """Add the rows the loop wrote since the last call to the event builder."""
        n = int(self._W[L.LS_R]) if self._n is None else self._n
        for i in range(self._synced, n):
            row = self._ev[self._r0 + i]
            kind = int(row[L.E_KIND])
            scores = fans = None
            if kind == K.WIN:
                w = EL.WINS + self._wins * EL.WIN_FIELDS
                self._wins += 1
                fans = self._fan_list(self.S[w + EL.W_FANS: w + EL.W_FANS + EL.MAX_FANS])
            if kind in (K.WIN, K.KONG_PAYMENT):
                scores = [int(x) for x in row[L.E_SCORES:L.E_SCORES + self.players]]
            self.builder.add(kind, int(row[L.E_PLAYER]), int(row[L.E_TILE]),
                             int(row[L.E_AUX]), int(row[L.E_TARGET]), int(row[L.E_FLAGS]),
                             int(row[L.E_TOTAL]), scores, fans)
        self._synced = n

    @property
    def events(self):
        self._sync()
        return self.builder.build()


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


class _CompiledSeat:
    """A built-in bot answering through the Python path (``PythonSeats(every_seat=True)``,
    a check of the loop's stops): the compiled choice, with the loop's keys and counters."""

    def __init__(self, code: int):
        self.code = code


class PythonSeats:
    """Answers the play loop's stops for the Python seats of ``plan``'s jobs ``jobs``
    (``plan.jobs[job_idx]``). ``every_seat``: the built-in seats too are asked through
    the stops, and the loop stops after every event (the loop then returns at each
    decision and event; the tables must be the same)."""

    def __init__(self, plan, job_idx, every_seat: bool = False):
        from ._bots import BUILTIN
        self.plan, self.job_idx, self.every_seat = plan, job_idx, every_seat
        self.builtin = BUILTIN
        self.job = -1
        self.entrant_pols: list = []
        self.pols: list = []
        self.game: _LoopGame | None = None

    def codes(self) -> np.ndarray:
        """Bot codes by job and entrant for :func:`~._loop.play_jobs`."""
        from ._bots import BOT_PYTHON
        rows = []
        for j in self.job_idx:
            bots = self.plan.job_bots[j]
            row = [BOT_PYTHON if self.every_seat or not isinstance(b, str) or b not in self.builtin
                   else self.builtin[b] for b in bots]
            rows.append(row + [0] * (4 - len(row)))
        return np.array(rows, dtype=np.int64).reshape(-1, 4)

    def __call__(self, status: int, S, W, A, Q, EV, ctx, bc) -> None:
        if status == L.L_EVENT:
            self._event(W, EV)
        elif status == L.L_DECIDE:
            self._decide(S, W, A, Q, ctx, bc)
        elif status == L.J_DEAL_START:
            self._deal_start(S, W, EV)
        elif status == L.J_DEAL_END:
            self.game.detach()
        elif status == L.J_JOB_END:
            for p in self.entrant_pols:
                if p is not None and hasattr(p, "close"):
                    p.close()
        else:
            raise RuntimeError(f"the play loop stopped with status {status}")

    def _deal_start(self, S, W, EV) -> None:
        plan = self.plan
        j = int(W[L.JS_J])
        if j != self.job:
            self.job = j
            bots = plan.job_bots[self.job_idx[j]]
            self.entrant_pols = [
                (_CompiledSeat(self.builtin[b]) if self.every_seat else None)
                if isinstance(b, str) and b in self.builtin else _policy(b) for b in bots]
        G = W[L.W_G:]
        n = len(self.entrant_pols)
        self.pols = [self.entrant_pols[int(G[G_ENTRANT + p])] for p in range(n)]
        g = _LoopGame(plan.rules, plan.variant, dealer=int(G[G_DEALER]),
                      prevalent=int(G[G_PREVALENT]), streak=int(G[G_STREAK]),
                      wall_mode=plan.wall or "standard")
        g.attach(S, EV, int(W[L.JS_R]), W)
        self.game = g
        for p, pol in enumerate(self.pols):
            if pol is not None and hasattr(pol, "start_deal"):
                pol.start_deal(g, p)
        W[L.LS_OBSERVE] = int(self.every_seat or any(
            pol is not None and hasattr(pol, "observe") for pol in self.pols))

    def _event(self, W, EV) -> None:
        row = EV[int(W[L.JS_R]) + int(W[L.LS_R]) - 1]
        kind, player, tile, aux, target = (int(x) for x in row[L.E_KIND:L.E_TARGET + 1])
        for pol in self.pols:
            if pol is not None and hasattr(pol, "observe"):
                pol.observe(kind, player, tile, aux, target)

    def _decide(self, S, W, A, Q, ctx, bc) -> None:
        p = int(W[L.LS_WHO])
        claim = int(W[L.LS_STAGE]) == L.ST_ASK
        if claim:
            rows = Q[p, :int(W[L.LS_NQ + p])]
        else:
            rows = A[:int(W[L.LS_M])]
        pol = self.pols[p]
        if isinstance(pol, _CompiledSeat):
            W[L.LS_ANSWER] = self._compiled_choice(pol, S, W, A, Q, ctx, bc, p, claim)
            return
        acts = [Action(*(int(x) for x in a)) for a in rows]
        W[L.LS_ANSWER] = _choose(pol, self.game, p, acts)

    def _compiled_choice(self, pol, S, W, A, Q, ctx, bc, p, claim) -> int:
        from ._bots import decide_claim, decide_turn
        from ._rng import STREAM_BOT, make_key
        game, perm = (int(x) for x in self.plan.jobs[self.job_idx[int(W[L.JS_J])], :2])
        key = np.uint64(make_key(np.uint64(self.plan.seed), game, int(W[L.JS_K]), STREAM_BOT,
                                 perm * 8 + p))
        ctr = int(W[L.LS_CTR + p])
        c = np.zeros(34, dtype=np.int64)
        if claim:
            return int(decide_claim(S, ctx, bc, p, Q[p], W[L.LS_NQ + p], pol.code, key, ctr,
                                    c))
        waits = W[L.LS_WAITS:L.LS_WAITS + 4]
        return int(decide_turn(S, ctx, bc, p, A, W[L.LS_M], pol.code, key, ctr,
                               int(ctx[0][C_MINIMUM]), c, np.zeros(64, dtype=np.int64),
                               np.zeros(EL.MAX_FANS, dtype=np.int64), waits))


def play_jobs_python(plan, job_idx):
    """``plan``'s jobs ``job_idx`` with every decision and every event handed to Python
    (built-in seats answering by their compiled choice): the same tables as
    ``play_shard`` (a check that the loop resumes exactly where it stopped)."""
    from ._simulate import play_shard
    return play_shard(plan, job_idx, every_seat_in_python=True)
