"""What every reader hands to the replay: a chunk of deals as events, plus what the log
itself says (its numbers, kept for comparison) and what could not be read.

A reader checks the SYNTAX of a log and the little context it needs to name an event (the
live discard a claim takes, whether a win is on a discard, a self-draw or a robbed kong).
Everything about the rules of play (is the tile held, whose turn it is, is the hand
complete) is the engine's, during the replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..datasets import Events

CAN_HU_NONE = -4
"""``can_hu`` value where the log gives none (the judge's own "not asked")."""


@dataclass
class DealInfo:
    """One deal as a log describes it (beside its events)."""
    deal_id: str
    source: str
    line: int                                  # first line (text) / 0 (JSON)
    prevalent: int = 0
    dealer: int = 0
    wall: np.ndarray | None = None             # the wall in draw order (Botzone: ``walltiles``)
    botzone_wall: bool = True                  # the Botzone judge's wall convention
    streak: int = 0
    seats: list[int] | None = None             # seat wind by player (None: from the dealer)
    game_id: str | None = None
    deal_index: int | None = None
    seed: int | None = None
    bots: list[str] | None = None
    logged_total: int | None = None            # the log's fan total (wins)
    logged_fans: list[tuple[int, int, int]] = field(default_factory=list)  # (id, points, count)
    logged_scores: list[int] | None = None     # the log's score line
    unknown_fans: list[tuple[str, int]] = field(default_factory=list)     # names not mapped
    n_lines: int = 0


@dataclass
class LogChunk:
    """A chunk of deals read from one source.

    ``events`` as read (the log's own fan totals, fans and scores are in ``deals``);
    ``line`` (n,)
    int64: the input line (text logs, 1-based) or the log step (JSON) of each event row;
    ``can_hu`` (n, players) int16: the judge's ``canHu`` at each event row
    (:data:`CAN_HU_NONE` where none); ``deals`` aligned with ``events.deal_ids``;
    ``quarantine``: rows of the ``quarantine`` table for deals the reader rejected;
    ``n_in``: deals (or deal-like blocks) met in the input, rejected ones included.
    """
    source: str
    events: Events
    line: np.ndarray
    can_hu: np.ndarray
    deals: list[DealInfo]
    quarantine: list[dict[str, Any]]
    n_in: int
    has_can_hu: bool = False
    logged_in_events: bool = False   # the events' own WIN rows hold the numbers to check


class ChunkBuilder:
    """Event columns of a chunk of deals (plain lists: the readers' hot path), the per-row
    line / canHu columns and the deal list; a bad deal is dropped with :meth:`reject` (its
    rows removed, a quarantine row kept). Reader events carry no totals, fans or scores."""

    def __init__(self, source: str, players: int = 4):
        self.source = source
        self.players = players
        self.deal_ids: list[str] = []
        self.cols: tuple[list, ...] = tuple([] for _ in range(7))  # deal kind player tile aux target flags
        self.lines: list[int] = []
        self.can_hu: dict[int, Any] = {}
        self.deals: list[DealInfo] = []
        self.quarantine: list[dict[str, Any]] = []
        self.n_in = 0
        self.has_can_hu = False
        self._start = 0          # first row of the open deal

    def start(self, info: DealInfo) -> None:
        self.n_in += 1
        self.deal_ids.append(info.deal_id)
        self.deals.append(info)
        self._start = len(self.lines)

    def add(self, line: int, kind: int, player: int = -1, tile: int = -1, aux: int = -1,
            target: int = -1, flags: int = 0, can_hu=None) -> int:
        c = self.cols
        c[0].append(len(self.deal_ids) - 1)
        c[1].append(kind)
        c[2].append(player)
        c[3].append(tile)
        c[4].append(aux)
        c[5].append(target)
        c[6].append(flags)
        self.lines.append(line)
        if can_hu is not None:
            self.can_hu[len(self.lines) - 1] = can_hu
            self.has_can_hu = True
        return len(self.lines) - 1 - self._start

    def reject(self, line: int | None, step: int | None, reason: str, rows: int | None = None,
               deal_id: str | None = None) -> None:
        """Quarantine the current deal (when one is open) or a stray part of the input."""
        if deal_id is None and self.deals:
            deal_id = self.deals[-1].deal_id
            self.deals.pop()
            self.deal_ids.pop()
            a = self._start
            for c in self.cols:
                del c[a:]
            del self.lines[a:]
            for k in [k for k in self.can_hu if k >= a]:
                del self.can_hu[k]
        self.quarantine.append({"source": self.source, "deal_id": deal_id, "line": line,
                                "step": step, "reason": reason, "rows": rows})

    def stray(self, line: int, reason: str, rows: int = 1) -> None:
        """Quarantine input that belongs to no deal (counted as one deal in)."""
        self.n_in += 1
        self.quarantine.append({"source": self.source, "deal_id": None, "line": line,
                                "step": None, "reason": reason, "rows": rows})

    @property
    def current_seq(self) -> int:
        return len(self.lines) - self._start

    def build(self) -> LogChunk:
        n = len(self.lines)
        deal = np.array(self.cols[0], dtype=np.int32)
        starts = np.searchsorted(deal, np.arange(len(self.deal_ids)))
        seq = (np.arange(n) - (starts[deal] if n else 0)).astype(np.int32)
        ev = Events(deal_ids=list(self.deal_ids), deal=deal, seq=seq,
                    kind=np.array(self.cols[1], np.int8), player=np.array(self.cols[2], np.int8),
                    tile=np.array(self.cols[3], np.int8), aux=np.array(self.cols[4], np.int8),
                    target=np.array(self.cols[5], np.int8), flags=np.array(self.cols[6], np.int8),
                    total=np.full(n, -1, np.int32), scores=np.zeros((n, self.players), np.int32),
                    fan_offsets=np.zeros(n + 1, np.int32), fan_id=np.zeros(0, np.int16),
                    fan_points=np.zeros(0, np.int32), fan_count=np.zeros(0, np.int16),
                    players=self.players)
        can = np.full((n, self.players), CAN_HU_NONE, dtype=np.int16)
        for i, c in self.can_hu.items():
            can[i] = c
        return LogChunk(self.source, ev, np.asarray(self.lines, dtype=np.int64), can,
                        list(self.deals), list(self.quarantine), self.n_in, self.has_can_hu)


def deal_info(did: str, source: str, meta: dict[str, Any] | None, line: int = 0,
              botzone_default: bool = False) -> DealInfo:
    """A deal of the project's own events (a ``deals`` row or a JSON-lines header as
    ``meta``): dealer, winds, wall; the wall's length decides its convention (136 tiles:
    the Botzone wall; none: ``botzone_default``)."""
    meta = meta or {}
    wall = meta.get("wall")
    wall = None if wall is None or len(wall) == 0 else np.asarray(wall, dtype=np.int8)
    seats = meta.get("seats")
    return DealInfo(deal_id=did, source=source, line=line,
                    prevalent=int(meta.get("prevalent") or 0),
                    dealer=int(meta.get("dealer") or 0), streak=int(meta.get("streak") or 0),
                    seats=None if seats is None else [int(s) for s in seats],
                    wall=wall, botzone_wall=(len(wall) == 136 if wall is not None
                                             else botzone_default),
                    seed=meta.get("seed"), bots=meta.get("bots"),
                    game_id=meta.get("game_id"), deal_index=meta.get("deal_index"))


def events_chunk(source: str, ev: Events, infos: list[DealInfo], quarantine, n_in,
                 lines: np.ndarray | None = None) -> LogChunk:
    """A chunk of the project's own events: their WIN rows hold the numbers to check."""
    line = lines if lines is not None else ev.seq.astype(np.int64)
    return LogChunk(source, ev, line, np.full((len(ev), ev.players), CAN_HU_NONE, np.int16),
                    infos, quarantine, n_in, has_can_hu=False, logged_in_events=True)


__all__ = ["CAN_HU_NONE", "ChunkBuilder", "DealInfo", "LogChunk", "deal_info", "events_chunk"]
