"""What a log reader hands to the replay: a chunk of deals as events, plus what the log
itself says (its numbers, kept for comparison) and what could not be read.

A reader checks the SYNTAX of a log and the little context it needs to name an event (the
live discard a claim takes, whether a win is on a discard, a self-draw or a robbed kong).
Everything about the rules of play (is the tile held, whose turn it is, is the hand
complete) is the engine's, during the replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..datasets import EventBuilder, Events

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
    """An :class:`EventBuilder` plus the per-row line / canHu columns and the deal list;
    a bad deal is dropped with :meth:`reject` (its rows removed, a quarantine row kept)."""

    def __init__(self, source: str, players: int = 4):
        self.source = source
        self.players = players
        self.eb = EventBuilder(players)
        self.lines: list[int] = []
        self.can_hu: list[Any] = []
        self.deals: list[DealInfo] = []
        self.quarantine: list[dict[str, Any]] = []
        self.n_in = 0
        self.has_can_hu = False

    def start(self, info: DealInfo) -> None:
        self.n_in += 1
        self.eb.start_deal(info.deal_id)
        self.deals.append(info)

    def add(self, line: int, kind: int, player: int = -1, tile: int = -1, aux: int = -1,
            target: int = -1, flags: int = 0, total: int = -1, scores=None, fans=None,
            can_hu=None) -> int:
        self.lines.append(line)
        self.can_hu.append(can_hu)
        if can_hu is not None:
            self.has_can_hu = True
        return self.eb.add(kind, player, tile, aux, target, flags, total, scores, fans)

    def reject(self, line: int | None, step: int | None, reason: str, rows: int | None = None,
               deal_id: str | None = None) -> None:
        """Quarantine the current deal (when one is open) or a stray part of the input."""
        if deal_id is None and self.deals:
            deal_id = self.deals[-1].deal_id
            self.deals.pop()
            n_before = len(self.eb._rows)
            self.eb.discard_deal()
            drop = n_before - len(self.eb._rows)
            if drop:
                del self.lines[-drop:]
                del self.can_hu[-drop:]
        self.quarantine.append({"source": self.source, "deal_id": deal_id, "line": line,
                                "step": step, "reason": reason, "rows": rows})

    def stray(self, line: int, reason: str, rows: int = 1) -> None:
        """Quarantine input that belongs to no deal (counted as one deal in)."""
        self.n_in += 1
        self.quarantine.append({"source": self.source, "deal_id": None, "line": line,
                                "step": None, "reason": reason, "rows": rows})

    @property
    def current_seq(self) -> int:
        return self.eb._seq

    def build(self) -> LogChunk:
        ev = self.eb.build()
        can = np.full((len(ev), self.players), CAN_HU_NONE, dtype=np.int16)
        if self.has_can_hu:
            for i, c in enumerate(self.can_hu):
                if c is not None:
                    can[i] = c
        return LogChunk(self.source, ev, np.asarray(self.lines, dtype=np.int64), can,
                        list(self.deals), list(self.quarantine), self.n_in, self.has_can_hu)


# ---------------------------------------------------------------------------------------
# Botzone tile codes and fan names
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def botzone_codes() -> dict[str, int]:
    """Botzone tile code (``W1``, ``F3``, ``J2``, ``H5``) -> tile id."""
    from ..notation.botzone import tile_code
    return {tile_code(t): t for t in range(42)}


@lru_cache(maxsize=4)
def fan_names(rules: str = "mcr", variant: str | None = "botzone") -> dict[str, tuple[int, int]]:
    """Fan name (Chinese name or one of the row's ``aliases``) -> (id, points) of the rule
    profile (the judge's names are DATA in the rule file, compared by id)."""
    from ..rules._table import load_table
    table = load_table(rules, variant)
    out: dict[str, tuple[int, int]] = {}
    for r in table.rows:
        for name in (r.zh, *r.get("aliases", ())):
            out[name] = (r.id, r.points)
    return out
