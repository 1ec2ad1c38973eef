"""The result of scoring one hand, the same shape for every rule set."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class FanHit:
    """One scoring item that the hand earned: ``count`` times ``points``."""
    id: int
    name_en: str
    name_zh: str
    name_ja: str
    points: int
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name_en": self.name_en, "name_zh": self.name_zh,
                "name_ja": self.name_ja, "points": self.points, "count": self.count}


# FanHit is immutable: each (table, fan, count) is made once and shared by every result
_HITS: dict[int, tuple[Any, dict[tuple[int, int], FanHit]]] = {}


def fan_hits(counts: np.ndarray, table, by_points: bool = False) -> tuple[FanHit, ...]:
    """The fans of one scored hand: a :class:`FanHit` for every column of ``counts`` (a
    fan-count row, column = fan id) that is not 0, named from ``table`` (a rule
    profile), in id order, or by points (highest first) then id when ``by_points``."""
    entry = _HITS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_HITS) >= 256:           # a study building many tables: keep it bounded
            _HITS.clear()
        entry = _HITS[id(table)] = (table, {})
    made = entry[1]
    hits = []
    for key in enumerate(counts.tolist()):
        if key[1] == 0:
            continue
        hit = made.get(key)
        if hit is None:
            r = table.row(key[0])
            hit = made[key] = FanHit(r.id, r.en, r.zh, r.ja, r.points, key[1])
        hits.append(hit)
    if by_points:
        hits.sort(key=lambda h: (-h.points, h.id))
    return tuple(hits)


@dataclass(frozen=True)
class ScoreResult:
    """A scored hand.

    ``total`` is in the rule set's own unit (MCR points, Taiwan tai, Tuidaohu fan);
    ``settlement`` maps each seat wind letter (``E S W N``; two-player ``E S``) to its
    gain (+) or loss (-) for this hand; ``extras`` holds the rule set's own keys
    (``capped``, ``multiplier``, ``dealer_bonus``...).
    """
    rules: str
    total: int
    legal: bool
    flowers: int
    fans: tuple[FanHit, ...]
    settlement: dict[str, int]
    extras: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None

    def fan(self, fan_id: int) -> FanHit | None:
        return next((f for f in self.fans if f.id == fan_id), None)

    def to_dict(self) -> dict[str, Any]:
        d = {"rules": self.rules, "total": self.total, "legal": self.legal,
             "flowers": self.flowers, "fans": [f.to_dict() for f in self.fans],
             "settlement": dict(self.settlement)}
        if self.variant:
            d["variant"] = self.variant
        d.update(self.extras)
        return d


@dataclass
class BatchScores:
    """Batch scoring output: ``fan_counts[i, id]`` is how many times fan ``id`` counted in
    hand i (column 0 unused), ``totals`` the hand totals, ``legal`` whether each is a legal
    win (complete hands only; ``complete`` False rows have total -1)."""
    fan_counts: np.ndarray
    totals: np.ndarray
    legal: np.ndarray
    complete: np.ndarray
    extras: dict[str, np.ndarray] | None = None


@dataclass
class WaitScores:
    """Every wait of N ready hands, (N, 34) arrays indexed by winning tile:
    ``wins`` whether the tile completes the hand, ``total_discard`` / ``total_self_drawn``
    the totals (-1 where not a win), ``legal_discard`` / ``legal_self_drawn``, ``live``."""
    wins: np.ndarray
    total_discard: np.ndarray
    total_self_drawn: np.ndarray
    legal_discard: np.ndarray
    legal_self_drawn: np.ndarray
    live: np.ndarray
