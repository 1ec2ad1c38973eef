"""Python face of the compiled engine: :class:`Game` (one deal, stepped event by event)
and :func:`fold` (events -> final states and results)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..datasets import EventBuilder, EventFlag, EventKind, Events
from ..errors import InputError
from . import layout as L
from .compiled import apply as _apply, init_state as _init, win_value as _win_value
from .compiled import auto_step as _auto, legal_actions as _legal, resolve_claims as _resolve
from ..kernels import C_PLAYERS, C_WALL_SIZE
from . import _score as _S
from ._score import fan_table, make_context
from ._structure import GameStructure


class EngineError(InputError):
    """An event the rules of play reject; ``code`` is the engine's error code."""

    def __init__(self, text, position, reason, code: int = 0):
        super().__init__(text, position, reason)
        self.code = code


WALL_MODES = {"standard": L.WALL_STANDARD, None: L.WALL_STANDARD, "botzone": L.WALL_BOTZONE}


def error_message(code: int) -> str:
    return L.ERROR_MESSAGES.get(int(code), f"error {code}")


@dataclass
class Action:
    kind: int
    tile: int = -1
    aux: int = -1
    target: int = -1

    def __iter__(self):
        return iter((self.kind, self.tile, self.aux, self.target))


class Game:
    """One deal on the compiled engine.

    ``Game(rules, variant=None, wall=None, dealer=0, prevalent=0, streak=0, seats=None,
    wall_mode="standard"|"botzone", deal_id="deal", chips=None, structure=None)``.
    ``wall``: tile ids in draw order (standard: the whole wall, dealing from the front,
    replacements from the back; botzone: 34 per player, each segment drawn from its
    end); None = unknown (replay: every DEAL / DRAW must carry its tile). ``chips``: the
    most each player may pay in this deal (two-player chip cap), None = none.
    ``structure`` (:class:`~mjfast.engine.GameStructure`): the game this deal belongs
    to; it gives dealer, prevalent wind, streak and chip caps, and :meth:`next_deal`
    steps it.
    """

    def __init__(self, rules: str = "mcr", variant: str | None = None, wall=None,
                 dealer: int = 0, prevalent: int = 0, streak: int = 0, seats=None,
                 wall_mode: str | None = "standard", deal_id: str = "deal", chips=None,
                 structure: GameStructure | None = None):
        from ..rules.registry import get_rules
        self.rules = get_rules(rules).name
        self.variant = variant
        self.ctx = make_context(self.rules, variant)
        self.players = int(self.ctx[0][C_PLAYERS])
        self.structure = structure
        if structure is not None:
            if structure.ended:
                raise EngineError("structure", structure.deal_index,
                                  f"the game has ended ({structure.end})")
            dealer, prevalent, streak = structure.dealer, structure.prevalent, structure.streak
            if chips is None:
                chips = structure.caps()
        if chips is not None:
            if len(chips) != self.players or any(int(c) < 0 for c in chips):
                raise EngineError(f"chips={list(chips)!r}"[:80], None,
                                  f"one non-negative cap per player ({self.players})")
            chips = [int(c) for c in chips]
        if wall_mode not in WALL_MODES:
            raise EngineError(str(wall_mode), None, "wall_mode is 'standard' or 'botzone'")
        self.wall_mode = WALL_MODES[wall_mode]
        self.S = np.zeros(L.STATE_SIZE, dtype=np.int32)
        if wall is not None:
            raw = np.asarray(wall).ravel()
            if raw.size and (not np.issubdtype(raw.dtype, np.integer) or raw.min() < 0
                             or raw.max() >= 42):
                raise EngineError("wall", None, "wall tiles must be tile ids 0..41")
        # int8, the play loop's wall dtype: one compiled version of init_state
        w = np.zeros(0, dtype=np.int8) if wall is None else raw.astype(np.int8)
        if wall is not None:
            need = 34 * self.players if self.wall_mode == L.WALL_BOTZONE else int(self.ctx[0][C_WALL_SIZE])
            if len(w) != need:
                raise EngineError(f"wall of {len(w)} tiles", None,
                                  f"{self.rules} needs {need} tiles in the wall")
            counts = np.bincount(w, minlength=42)
            if (counts[:34] > 4).any() or (counts[34:] > 1).any():
                raise EngineError("wall", int(np.argmax(counts > 4)), "a tile more than 4 times")
        s = np.full(4, -1, dtype=np.int64)
        if seats is not None:
            s[:len(seats)] = seats
        _init(self.S, self.ctx, int(dealer), int(prevalent), int(streak), s, w, self.wall_mode)
        _S.set_chips(self.S, chips)
        self._start_index = structure.deal_index if structure is not None else 0
        self.builder = EventBuilder(self.players)
        self.builder.start_deal(deal_id)
        self._fans = np.zeros(L.MAX_FANS, dtype=np.int64)

    # ---- state views ---------------------------------------------------------------
    def _h(self, off: int, p: int = 0) -> int:
        return int(self.S[off + p])

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[self._h(L.H_PHASE)]

    @property
    def ended(self) -> bool:
        return self._h(L.H_ENDED) != 0

    def hand(self, player: int) -> dict[str, Any]:
        """Concealed tiles (sorted ids), melds, flowers shown and held, river."""
        p = int(player)
        counts = self.S[L.HAND + 34 * p: L.HAND + 34 * p + 34]
        concealed = [t for t in range(34) for _ in range(int(counts[t]))]
        melds = []
        for j in range(self._h(L.H_NMELDS, p)):
            m = L.MELDS + (p * L.MAX_MELDS + j) * L.MELD_FIELDS
            kind, tile, fl, cl, frm = (int(x) for x in self.S[m:m + 5])
            melds.append({"kind": ("chow", "pung", "kong")[kind], "tile": tile,
                          "concealed": bool(fl & L.MELD_CONCEALED),
                          "added": bool(fl & L.MELD_ADDED), "claimed": cl, "from": frm})
        fl = self._h(L.H_FLOWER_MASK, p)
        held = self._h(L.H_HELD_FL, p)
        river = [int(x) for x in self.S[L.RIVER + p * L.MAX_RIVER:
                                         L.RIVER + p * L.MAX_RIVER + self._h(L.H_NDISC, p)]]
        return {"concealed": concealed, "melds": melds,
                "flowers": [34 + b for b in range(8) if fl >> b & 1],
                "held_flowers": [34 + b for b in range(8) if held >> b & 1],
                "river": [t & 63 for t in river],
                "river_claimed": [bool(t & L.RIVER_CLAIMED) for t in river]}

    def wall_left(self, player: int | None = None) -> int:
        from .compiled import wall_left
        p = self._h(L.H_TURN) if player is None else int(player)
        return int(wall_left(self.S, p))

    # ---- stepping ------------------------------------------------------------------
    def apply(self, kind, player=-1, tile=-1, aux=-1, target=-1, flags=0) -> int:
        """Apply one event (an EventKind and its columns, or a tuple / mapping of them);
        raises :class:`EngineError` when the rules reject it. Returns the event's seq."""
        if isinstance(kind, dict):
            e = kind
            kind, player, tile = e["kind"], e.get("player", -1), e.get("tile", -1)
            aux, target, flags = e.get("aux", -1), e.get("target", -1), e.get("flags", 0)
        elif isinstance(kind, (tuple, list, np.ndarray)):
            kind, player, tile, aux, target, flags = (list(kind) + [-1, -1, -1, -1, 0])[:6]
        kind, player, tile, aux, target, flags = (int(kind), int(player), int(tile),
                                                  int(aux), int(target), int(flags))
        seq = self._h(L.H_N_EVENTS)
        was_wins = self._h(L.H_N_WINS)
        err = int(_apply(self.S, self.ctx, kind, player, tile, aux, target, flags))
        if err:
            name = EventKind(kind).name if 0 <= kind <= 14 else str(kind)
            raise EngineError(f"{name} player={player} tile={tile}", seq, error_message(err),
                              code=err)
        rec_tile, rec_flags, total, scores, fans = tile, flags, -1, None, None
        if kind in (EventKind.DEAL, EventKind.DRAW) and tile < 0:
            rec_tile = self._h(L.H_DRAWN)
        if kind == EventKind.DRAW:
            if self._h(L.H_LAST_DRAW):
                rec_flags |= int(EventFlag.LAST_TILE)
        if kind == EventKind.WIN and self._h(L.H_N_WINS) > was_wins:
            w = L.WINS + was_wins * L.WIN_FIELDS
            rec_tile = int(self.S[w + L.W_TILE])
            target = int(self.S[w + L.W_FROM])
            rec_flags = int(self.S[w + L.W_FLAGS]) | (flags & int(EventFlag.INSTANT))
            total = int(self.S[w + L.W_TOTAL])
            scores = [int(x) for x in self.S[w + L.W_SCORES: w + L.W_SCORES + self.players]]
            fans = self._fan_list(self.S[w + L.W_FANS: w + L.W_FANS + L.MAX_FANS])
        if kind == EventKind.KONG_PAYMENT:
            scores = [int(x) for x in self.S[L.H_LAST_PAY: L.H_LAST_PAY + self.players]]
        if kind == EventKind.DEALER_CHANGE and aux < 0:
            aux = self._h(L.H_NEXT_STREAK)
        self.builder.add(kind, player, rec_tile, aux, target, rec_flags, total, scores, fans)
        return seq

    def next_deal(self, wall=None, deal_id: str | None = None) -> "Game | None":
        """The game's next deal (a new :class:`Game`), or None when the game is over.
        This deal must be complete (``auto()`` through its DEALER_CHANGE). Without a
        ``structure`` this deal is taken as the first of a game of the rule set's
        structure (:class:`GameStructure`)."""
        if not self._h(L.H_DEALER_DONE):
            raise EngineError("next_deal", self._h(L.H_N_EVENTS),
                              "the deal is not complete (no DEALER_CHANGE yet: call auto())")
        gs = self.structure
        if gs is None:
            gs = GameStructure(self.rules, first_dealer=self._h(L.H_DEALER))
            self.structure = gs
        if gs.deal_index == self._start_index:      # not yet folded in (a second call)
            gs.advance(self._h(L.H_NEXT_DEALER), self._h(L.H_NEXT_STREAK),
                       self.S[L.H_SCORES:L.H_SCORES + self.players])
        if gs.ended:
            return None
        wm = {v: k for k, v in WALL_MODES.items() if k}[self.wall_mode]
        return Game(self.rules, self.variant, wall=wall, wall_mode=wm, structure=gs,
                    deal_id=deal_id or f"deal{gs.deal_index}")

    def _fan_list(self, counts) -> list[tuple[int, int, int]]:
        t = fan_table(self.rules, self.variant)
        out = []
        for fid in np.flatnonzero(counts):
            fid = int(fid)
            try:
                pts = int(t.row(fid).points)
            except Exception:  # noqa: BLE001 - a column without a row (none expected)
                pts = 0
            out.append((fid, pts, int(counts[fid])))
        return out

    def auto(self, limit: int = 10_000, passed: bool = False) -> int:
        """Apply forced events (deal, flowers, draws, exhaustive draw, kong payments,
        dealer change) until a player must decide; returns how many were applied. On a
        discard or an added kong it stops while another player could claim, unless
        ``passed`` (everyone passed this one)."""
        out = np.zeros(6, dtype=np.int64)
        k = 0
        while k < limit:
            if self._h(L.H_PHASE) in (L.PH_DISCARDED, L.PH_ROB) and not passed:
                if any(self.legal_actions(q) for q in range(self.players)):
                    break
            if not _auto(self.S, self.ctx, out):
                break
            kind, player, tile, aux, target, flags = (int(x) for x in out)
            self.apply(kind, player, tile, aux, target, flags)
            passed = False
            k += 1
        return k

    def legal_actions(self, player: int) -> list[Action]:
        out = np.zeros((L.MAX_ACTIONS, L.ACT_FIELDS), dtype=np.int64)
        n = int(_legal(self.S, self.ctx, int(player), out))
        return [Action(*(int(x) for x in out[i])) for i in range(n)]

    def resolve_claims(self, kinds) -> list[int]:
        """Players whose claims execute, given each player's chosen kind (-1 pass)."""
        k = np.full(4, -1, dtype=np.int64)
        k[:len(kinds)] = [int(x) for x in kinds]
        m = int(_resolve(self.S, k))
        return [p for p in range(self.players) if m >> p & 1]

    def win_value(self, player: int, tile: int, self_drawn: bool, robbing: bool = False):
        """(total, legal, situation flags, fans [(id, points, count)]) of a win now."""
        fans = np.zeros(L.MAX_FANS, dtype=np.int64)
        total, legal, fl = _win_value(self.S, self.ctx, int(player), int(tile),
                                      bool(self_drawn), bool(robbing), fans)
        return int(total), bool(legal), int(fl), self._fan_list(fans)

    # ---- results -------------------------------------------------------------------
    @property
    def events(self) -> Events:
        return self.builder.build()

    def result(self) -> dict[str, Any]:
        wins = []
        for i in range(self._h(L.H_N_WINS)):
            w = L.WINS + i * L.WIN_FIELDS
            wins.append({"player": int(self.S[w + L.W_PLAYER]), "tile": int(self.S[w + L.W_TILE]),
                         "discarder": int(self.S[w + L.W_FROM]),
                         "total": int(self.S[w + L.W_TOTAL]), "legal": bool(self.S[w + L.W_LEGAL]),
                         "flags": int(self.S[w + L.W_FLAGS]),
                         "scores": [int(x) for x in self.S[w + L.W_SCORES:
                                                            w + L.W_SCORES + self.players]],
                         "fans": self._fan_list(self.S[w + L.W_FANS: w + L.W_FANS + L.MAX_FANS])})
        ended = self._h(L.H_ENDED)
        return {"ended": ("playing", "win", "draw")[ended], "wins": wins,
                "scores": [int(x) for x in self.S[L.H_SCORES: L.H_SCORES + self.players]],
                "next_dealer": self._h(L.H_NEXT_DEALER), "next_streak": self._h(L.H_NEXT_STREAK),
                "events": self._h(L.H_N_EVENTS)}


def fold(events: Events, rules: str, variant: str | None = None, wall=None, *,
         dealer=0, prevalent=0, streak=0, seats=None, wall_mode="standard",
         check: bool = True, chips=None) -> list[tuple[np.ndarray, dict]]:
    """Fold every deal of ``events`` through the engine: ``[(state, result)]`` by deal.
    ``wall`` / ``dealer`` / ... apply to every deal (a list gives one per deal;
    ``chips``: None, or per deal a list of caps by player, or None). With
    ``check`` the recorded WIN totals and payments must equal the engine's."""
    out = []

    def pick(x, i):
        return x[i] if isinstance(x, (list, tuple)) else x

    for k, (deal, a, b) in enumerate(events.deal_slices()):
        w = wall[k] if isinstance(wall, list) else wall
        g = Game(rules, variant, wall=w, dealer=pick(dealer, k), prevalent=pick(prevalent, k),
                 streak=pick(streak, k), seats=seats, wall_mode=wall_mode,
                 deal_id=events.deal_ids[deal], chips=None if chips is None else chips[k])
        for r in range(a, b):
            g.apply(int(events.kind[r]), int(events.player[r]), int(events.tile[r]),
                    int(events.aux[r]), int(events.target[r]),
                    int(events.flags[r]) & ~int(EventFlag.LAST_TILE))
            if check and events.kind[r] in (EventKind.WIN, EventKind.KONG_PAYMENT):
                got = g.builder._scores[-1]
                want = [int(x) for x in events.scores[r][:g.players]]
                if got is not None and list(got) != want:
                    raise EngineError(f"deal {events.deal_ids[deal]}", r - a,
                                      f"recorded payments {want} differ from the engine's {list(got)}")
                if events.kind[r] == EventKind.WIN:
                    if int(events.total[r]) != g.builder._rows[-1][-1]:
                        raise EngineError(f"deal {events.deal_ids[deal]}", r - a,
                                          f"recorded total {int(events.total[r])} differs "
                                          f"from the engine's {g.builder._rows[-1][-1]}")
                    rec = sorted((i, c) for i, _, c in events.fans_of(r))
                    mine = sorted((i, c) for i, _, c in g.builder._fans[-1])
                    if rec != mine:
                        raise EngineError(f"deal {events.deal_ids[deal]}", r - a,
                                          f"recorded fans {rec} differ from the engine's {mine}")
        out.append((g.S.copy(), g.result()))
    return out
