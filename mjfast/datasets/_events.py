"""The one event model: a deal is a stream of events, one row an event.

In memory an :class:`Events` holds columnar NumPy arrays (small integers, tiles as the
project's int8 ids, see ``mjfast/tiles.py``); on disk it is the Parquet ``events`` table
(schema in :mod:`mjfast.datasets._schema`). The simulator emits events, the log readers
produce the same events, and the engine's state is a fold over them.

Columns (one row per event):

=========  =======  ==========================================================================
column     dtype    meaning
=========  =======  ==========================================================================
deal       int32    index into ``Events.deal_ids`` (the ``deal_id`` string on disk)
seq        int32    0, 1, 2, ... within the deal (the ``step`` other tables point at)
kind       int8     :class:`EventKind`
player     int8     acting player 0..3 (-1 none: exhaustive draw)
tile       int8     the tile (-1 none or hidden; flowers 34..41)
aux        int8     kind-specific: CHOW the chow's lowest tile; CLAIM_LOST the claim's
                    EventKind; DEALER_CHANGE the new streak; else -1
target     int8     the other player: the discarder for CHOW/PUNG/KONG_EXPOSED/CLAIM_LOST/
                    WIN on a discard (the kong's owner when robbing); -1 on a self-draw
flags      int8     :class:`EventFlag` bits
total      int32    WIN: the fan total (rule set's unit); else -1
=========  =======  ==========================================================================

WIN and KONG_PAYMENT rows also carry ``scores`` (one int per player: what each gains, +, or
pays, -); WIN rows carry ``fans`` (``[{id, points, count}]``, names joined from the rule
profile). In memory both are CSR-like side arrays keyed by event row (see :class:`Events`).

A deal is dealt as one DEAL row per tile (``player``, ``tile``), dealer first, in dealing
order; flowers dealt are then shown with FLOWER rows and replaced by DRAW rows flagged
REPLACEMENT.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, IntFlag

import numpy as np


class EventKind(IntEnum):
    DEAL = 0             # one dealt tile
    DRAW = 1             # a draw from the wall (flag REPLACEMENT after a kong or a flower)
    FLOWER = 2           # a flower shown and set aside
    DISCARD = 3
    CHOW = 4             # tile = claimed tile, aux = chow's lowest tile, target = discarder
    PUNG = 5
    KONG_EXPOSED = 6     # of a discard
    KONG_CONCEALED = 7
    KONG_ADDED = 8       # a pung promoted (may be robbed)
    CLAIM_LOST = 9       # a claim declared but lost on priority (aux = the claim's kind)
    WIN_PASSED = 10      # a legal win the player did not take (Taiwan's missed-win rule)
    WIN = 11
    EXHAUSTIVE_DRAW = 12
    KONG_PAYMENT = 13    # player = kong owner; scores = the payment
    DEALER_CHANGE = 14   # player = next deal's dealer, aux = its streak


class EventFlag(IntFlag):
    NONE = 0
    REPLACEMENT = 1      # DRAW: the replacement tile after a kong or a flower
    ROBBING = 2          # WIN: robbing an added kong
    FALSE_WIN = 4        # WIN: declared but not legal (e.g. MCR under 8: Botzone's -30/+10)
    HIDDEN = 8           # the tile is not known to the record (concealed kong in a log)
    LAST_TILE = 16       # DRAW: the last drawable tile; DISCARD: the discard after it
    INSTANT = 32         # WIN: an instant flower win (Taiwan), no regular hand needed


# The same codes as plain ints, the one definition compiled code (engine, simulation,
# replay kernels) reads: Numba takes module-level ints as compile-time constants.
K_DEAL = int(EventKind.DEAL)
K_DRAW = int(EventKind.DRAW)
K_FLOWER = int(EventKind.FLOWER)
K_DISCARD = int(EventKind.DISCARD)
K_CHOW = int(EventKind.CHOW)
K_PUNG = int(EventKind.PUNG)
K_KONG_EXPOSED = int(EventKind.KONG_EXPOSED)
K_KONG_CONCEALED = int(EventKind.KONG_CONCEALED)
K_KONG_ADDED = int(EventKind.KONG_ADDED)
K_CLAIM_LOST = int(EventKind.CLAIM_LOST)
K_WIN_PASSED = int(EventKind.WIN_PASSED)
K_WIN = int(EventKind.WIN)
K_EXHAUSTIVE_DRAW = int(EventKind.EXHAUSTIVE_DRAW)
K_KONG_PAYMENT = int(EventKind.KONG_PAYMENT)
K_DEALER_CHANGE = int(EventKind.DEALER_CHANGE)
EF_REPLACEMENT = int(EventFlag.REPLACEMENT)
EF_ROBBING = int(EventFlag.ROBBING)
EF_FALSE_WIN = int(EventFlag.FALSE_WIN)
EF_HIDDEN = int(EventFlag.HIDDEN)
EF_LAST_TILE = int(EventFlag.LAST_TILE)
EF_INSTANT = int(EventFlag.INSTANT)


EVENT_COLUMNS = ("deal", "seq", "kind", "player", "tile", "aux", "target", "flags", "total")
_DTYPES = {"deal": np.int32, "seq": np.int32, "kind": np.int8, "player": np.int8,
           "tile": np.int8, "aux": np.int8, "target": np.int8, "flags": np.int8,
           "total": np.int32}


@dataclass
class Events:
    """Columnar events of one or more deals.

    ``fan_offsets`` (n+1,) int32 and ``fan_id`` / ``fan_points`` / ``fan_count`` hold each
    row's fan list (empty for rows that are not wins); ``scores`` (n, players) int32 holds
    each row's payments (meaningful on WIN and KONG_PAYMENT rows only).
    """
    deal_ids: list[str]
    deal: np.ndarray
    seq: np.ndarray
    kind: np.ndarray
    player: np.ndarray
    tile: np.ndarray
    aux: np.ndarray
    target: np.ndarray
    flags: np.ndarray
    total: np.ndarray
    scores: np.ndarray
    fan_offsets: np.ndarray
    fan_id: np.ndarray
    fan_points: np.ndarray
    fan_count: np.ndarray
    players: int = 4

    def __len__(self) -> int:
        return len(self.kind)

    @classmethod
    def empty(cls, players: int = 4) -> "Events":
        return EventBuilder(players).build()

    def deal_slices(self):
        """Yield ``(deal_index, start, stop)`` for each deal's contiguous rows."""
        if len(self) == 0:
            return
        cuts = np.flatnonzero(np.diff(self.deal)) + 1
        starts = np.concatenate(([0], cuts))
        stops = np.concatenate((cuts, [len(self)]))
        for a, b in zip(starts, stops):
            yield int(self.deal[a]), int(a), int(b)

    def fans_of(self, row: int) -> list[tuple[int, int, int]]:
        a, b = self.fan_offsets[row], self.fan_offsets[row + 1]
        return [(int(i), int(p), int(c)) for i, p, c in
                zip(self.fan_id[a:b], self.fan_points[a:b], self.fan_count[a:b])]

    def take_deals(self, indices) -> "Events":
        """The events of the given deals (by index into ``deal_ids``), renumbered."""
        keep = np.isin(self.deal, np.asarray(indices, dtype=np.int32))
        return self._select(keep)

    def _select(self, keep: np.ndarray) -> "Events":
        rows = np.flatnonzero(keep)
        used = np.unique(self.deal[rows])
        remap = np.full(len(self.deal_ids), -1, dtype=np.int32)
        remap[used] = np.arange(len(used), dtype=np.int32)
        lengths = np.diff(self.fan_offsets)[rows]
        offsets = np.zeros(len(rows) + 1, dtype=np.int32)
        np.cumsum(lengths, out=offsets[1:])
        src = np.concatenate([np.arange(self.fan_offsets[r], self.fan_offsets[r + 1])
                              for r in rows]) if len(rows) else np.zeros(0, np.int64)
        src = src.astype(np.int64)
        return Events(
            deal_ids=[self.deal_ids[i] for i in used], deal=remap[self.deal[rows]],
            **{c: getattr(self, c)[rows] for c in EVENT_COLUMNS if c != "deal"},
            scores=self.scores[rows], fan_offsets=offsets, fan_id=self.fan_id[src],
            fan_points=self.fan_points[src], fan_count=self.fan_count[src],
            players=self.players)

    @staticmethod
    def concat(parts: list["Events"]) -> "Events":
        """Join event sets (deal ids must not repeat)."""
        parts = [p for p in parts if p is not None]
        if not parts:
            return Events.empty()
        players = parts[0].players
        deal_ids: list[str] = []
        cols = {c: [] for c in EVENT_COLUMNS}
        scores, offs, fid, fpt, fct = [], [np.zeros(1, np.int32)], [], [], []
        base_deal = base_fan = 0
        for p in parts:
            if p.players != players:
                raise ValueError("cannot concatenate events with different player counts")
            deal_ids.extend(p.deal_ids)
            for c in EVENT_COLUMNS:
                v = getattr(p, c)
                cols[c].append(v + base_deal if c == "deal" else v)
            scores.append(p.scores)
            offs.append(p.fan_offsets[1:] + base_fan)
            fid.append(p.fan_id); fpt.append(p.fan_points); fct.append(p.fan_count)
            base_deal += len(p.deal_ids)
            base_fan += int(p.fan_offsets[-1])
        if len(set(deal_ids)) != len(deal_ids):
            raise ValueError("deal ids repeat across the event sets being joined")
        return Events(deal_ids=deal_ids,
                      **{c: np.concatenate(v).astype(_DTYPES[c]) for c, v in cols.items()},
                      scores=np.concatenate(scores).astype(np.int32),
                      fan_offsets=np.concatenate(offs).astype(np.int32),
                      fan_id=np.concatenate(fid).astype(np.int16),
                      fan_points=np.concatenate(fpt).astype(np.int32),
                      fan_count=np.concatenate(fct).astype(np.int16), players=players)


@dataclass
class EventBuilder:
    """Appends events row by row (log readers, Python bots); ``build()`` gives
    :class:`Events`. Compiled code fills the arrays directly instead."""
    players: int = 4
    deal_ids: list[str] = field(default_factory=list)
    _rows: list[tuple] = field(default_factory=list)
    _scores: list = field(default_factory=list)
    _fans: list = field(default_factory=list)
    _seq: int = 0

    def start_deal(self, deal_id: str) -> int:
        self.deal_ids.append(deal_id)
        self._seq = 0
        return len(self.deal_ids) - 1

    def add(self, kind: int, player: int = -1, tile: int = -1, aux: int = -1,
            target: int = -1, flags: int = 0, total: int = -1,
            scores=None, fans=None) -> int:
        """Append one event to the current deal; returns its ``seq``."""
        if not self.deal_ids:
            raise ValueError("start_deal() before adding events")
        seq = self._seq
        self._rows.append((len(self.deal_ids) - 1, seq, int(kind), player, tile, aux,
                           target, int(flags), total))
        self._scores.append(scores)
        self._fans.append(fans or ())
        self._seq += 1
        return seq

    def discard_deal(self) -> None:
        """Drop the current deal's rows (a reader quarantining a bad deal)."""
        if not self.deal_ids:
            return
        d = len(self.deal_ids) - 1
        while self._rows and self._rows[-1][0] == d:
            self._rows.pop(); self._scores.pop(); self._fans.pop()
        self.deal_ids.pop()

    def build(self) -> Events:
        n = len(self._rows)
        arr = np.array(self._rows, dtype=np.int64).reshape(n, len(EVENT_COLUMNS))
        cols = {c: arr[:, i].astype(_DTYPES[c]) for i, c in enumerate(EVENT_COLUMNS)}
        scores = np.zeros((n, self.players), dtype=np.int32)
        for i, s in enumerate(self._scores):
            if s is not None:
                scores[i] = s
        lengths = np.array([len(f) for f in self._fans], dtype=np.int32)
        offsets = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(lengths, out=offsets[1:])
        flat = [x for f in self._fans for x in f]
        fa = np.array(flat, dtype=np.int64).reshape(len(flat), 3)
        return Events(deal_ids=list(self.deal_ids), **cols, scores=scores,
                      fan_offsets=offsets, fan_id=fa[:, 0].astype(np.int16),
                      fan_points=fa[:, 1].astype(np.int32), fan_count=fa[:, 2].astype(np.int16),
                      players=self.players)
