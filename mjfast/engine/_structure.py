"""The game structure: which deal comes next (dealer, prevalent wind, streak, who sits
where, each player's chip cap) and when a game ends. A *game* is a sequence of deals;
its players ("entrants" 0..n-1, the positions of its first deal) may change positions
between deals (MCR's re-seating), so each deal has a position -> entrant map.

- ``MODE_MCR`` (MCR): four wind rounds (East, South, West, North) of ``players`` deals;
  the deal always passes (no dealer repeat), so a game is 16 deals. Between rounds the
  players change seats ("場が変わる度に席替えを行う", seed 004); the document does not
  say how, so we follow the Chinese Official rules' table (``SEAT_CHANGE``): the players
  sitting East, South, West, North in the East round sit South, East, North, West in the
  South round; North, West, East, South in the West round; West, North, South, East in
  the North round. Each player is the first dealer of one round and holds each seat
  wind once at a round's start.
- ``MODE_WINDS`` (Taiwan): four wind rounds with dealer repeats: the prevalent wind
  advances after ``players`` passes of the deal; the game ends when the North round's
  last dealer passes the deal (the 16th pass), or at the safety cap (``max_deals``).
- ``MODE_FIXED`` (Tuidaohu, two-player): a set number of deals (``length``); dealer
  repeats and streaks as the engine rules; the prevalent wind advances after ``players``
  passes (no fan of either rule set reads it).

Chips (two-player, "支払いは各自が卓に持ち込んだチップまで"): with ``chips`` > 0 every
entrant brings that many chips; a deal's cap for each player is his stack (chips + game
total so far) and the game ends when a stack is spent (``END_BUST``).

Everything is ``njit`` over one int64 array ``G`` (layout below) so the compiled play
loop and the Python :class:`GameStructure` share it.
"""
from __future__ import annotations

import numpy as np

from ..kernels import kernel

MODE_FIXED = 0
MODE_MCR = 1
MODE_WINDS = 2
MODES = {"mcr": MODE_MCR, "taiwan": MODE_WINDS, "tuidaohu": MODE_FIXED, "two_player": MODE_FIXED}

GAME_LENGTH = {"mcr": 16, "taiwan": 16, "tuidaohu": 16, "two_player": 16}
"""Structural deals per game: MCR 4 winds x 4 dealers; Taiwan at least 16 (four wind
rounds, more with dealer repeats); Tuidaohu / two-player a set number (16)."""
WINDS_CAP = 64
"""Taiwan's safety cap on the deals of one game (a game of four wind rounds is 16 deals
plus one per dealer repeat; 64 is far beyond what the bots play, about 30)."""

END_NONE, END_STRUCTURE, END_BUDGET, END_BUST, END_ERROR = 0, 1, 2, 3, 4
END_NAMES = ("", "structure", "budget", "bust", "error")

# G layout
G_MODE, G_PLAYERS, G_LENGTH, G_MAX, G_K, G_DEALER, G_STREAK, G_PREVALENT = range(8)
G_CHANGES, G_FIRST, G_END, G_CHIPS = 8, 9, 10, 11
G_ENTRANT = 12      # 4 slots: the entrant at each position of the next deal
G_TOTAL = 16        # 4 slots: each entrant's game total so far
G_SIZE = 20

# round r, seat index i (0 = East at the round's first deal) -> entrant
SEAT_CHANGE = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1]], dtype=np.int64)


@kernel
def _seat_round(G, r):
    n = G[G_PLAYERS]
    for i in range(n):
        G[G_ENTRANT + (G[G_FIRST] + i) % n] = SEAT_CHANGE[r % 4, i] if n == 4 else i


@kernel
def game_start(G, mode, players, first_dealer, length, max_deals, chips):
    """Reset ``G`` for a new game: ``length`` structural deals (MCR / fixed), at most
    ``max_deals`` deals (the budget or the safety cap), ``chips`` per entrant (0: none)."""
    for i in range(G_SIZE):
        G[i] = 0
    G[G_MODE] = mode
    G[G_PLAYERS] = players
    G[G_LENGTH] = length
    G[G_MAX] = max_deals
    G[G_DEALER] = first_dealer
    G[G_FIRST] = first_dealer
    G[G_CHIPS] = chips
    for p in range(4):
        G[G_ENTRANT + p] = p
    _seat_round(G, 0)
    if max_deals <= 0:
        G[G_END] = END_BUDGET


@kernel
def deal_caps(G, caps):
    """The next deal's chip caps into ``caps`` (int64[5]: 1 when capped, then the cap of
    each position: its entrant's stack); without chips ``caps[0]`` is 0 (no cap). The
    engine keeps them in the deal state (``mjfast.engine._core.set_caps``)."""
    if G[G_CHIPS] <= 0:
        caps[0] = 0
        return
    caps[0] = 1
    for p in range(G[G_PLAYERS]):
        s = G[G_CHIPS] + G[G_TOTAL + G[G_ENTRANT + p]]
        caps[1 + p] = s if s > 0 else 0


@kernel
def game_next(G, next_dealer, next_streak, scores):
    """Fold one finished deal (the engine's next dealer and streak, its payments by
    position) into ``G``; set up the next deal. Returns 1 when the game goes on, 0 when
    it ended (``G[G_END]`` says why)."""
    n = G[G_PLAYERS]
    for p in range(n):
        G[G_TOTAL + G[G_ENTRANT + p]] += scores[p]
    G[G_K] += 1
    k = G[G_K]
    if next_dealer != G[G_DEALER]:
        G[G_CHANGES] += 1
    mode = G[G_MODE]
    if mode == MODE_MCR:
        G[G_DEALER] = next_dealer
        G[G_STREAK] = next_streak
        if k >= G[G_LENGTH]:
            G[G_END] = END_STRUCTURE
        elif k % n == 0:
            G[G_PREVALENT] = (k // n) % 4
            _seat_round(G, k // n)
    else:
        G[G_DEALER] = next_dealer
        G[G_STREAK] = next_streak
        G[G_PREVALENT] = (G[G_CHANGES] // n) % 4
        if mode == MODE_WINDS:
            if G[G_CHANGES] >= 4 * n:
                G[G_END] = END_STRUCTURE
        elif k >= G[G_LENGTH]:
            G[G_END] = END_STRUCTURE
    if G[G_END] == END_NONE and G[G_CHIPS] > 0:
        for e in range(n):
            if G[G_CHIPS] + G[G_TOTAL + e] <= 0:
                G[G_END] = END_BUST
    if G[G_END] == END_NONE and k >= G[G_MAX]:
        G[G_END] = END_BUDGET
    return 1 if G[G_END] == END_NONE else 0


class GameStructure:
    """The Python face of the structure (one game): ``dealer``, ``prevalent``,
    ``streak``, ``entrants`` (the game's player at each position of the next deal),
    ``totals`` (by entrant), ``deal_index``, ``ended`` / ``end`` ("structure", "budget",
    "bust"). ``advance(next_dealer, next_streak, scores)`` after each deal."""

    def __init__(self, rules: str, first_dealer: int = 0, max_deals: int | None = None,
                 chips: int | None = None, length: int | None = None):
        from ..rules.registry import get_rules
        rs = get_rules(rules)
        self.rules = rs.name
        self.players = rs.players
        mode = MODES[rs.name]
        length = GAME_LENGTH[rs.name] if length is None else int(length)
        if max_deals is None:
            max_deals = WINDS_CAP if mode == MODE_WINDS else length
        self.G = np.zeros(G_SIZE, dtype=np.int64)
        game_start(self.G, mode, rs.players, int(first_dealer), length, int(max_deals),
                   int(chips or 0))

    def _g(self, i):
        return int(self.G[i])

    dealer = property(lambda self: self._g(G_DEALER))
    prevalent = property(lambda self: self._g(G_PREVALENT))
    streak = property(lambda self: self._g(G_STREAK))
    deal_index = property(lambda self: self._g(G_K))
    ended = property(lambda self: self._g(G_END) != END_NONE)
    end = property(lambda self: END_NAMES[self._g(G_END)])

    @property
    def entrants(self) -> list[int]:
        return [self._g(G_ENTRANT + p) for p in range(self.players)]

    @property
    def totals(self) -> list[int]:
        return [self._g(G_TOTAL + e) for e in range(self.players)]

    def caps(self) -> list[int] | None:
        """This deal's chip cap by position (None without chips)."""
        if self._g(G_CHIPS) <= 0:
            return None
        return [max(self._g(G_CHIPS) + self.totals[e], 0) for e in self.entrants]

    def advance(self, next_dealer: int, next_streak: int, scores) -> bool:
        """Fold a finished deal in; True while the game goes on."""
        s = np.zeros(4, dtype=np.int64)
        s[:len(scores)] = [int(x) for x in scores]
        return bool(game_next(self.G, int(next_dealer), int(next_streak), s))
