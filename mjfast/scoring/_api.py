"""Public scoring API: :func:`score`, :func:`score_batch`, :func:`score_table`, :func:`score_waits`.

Each rule set has one scorer module here (``mcr``, ``taiwan``, ``tuidaohu`` — which also
serves ``two_player``) implementing the scorer contract:

- ``score_hand(hand, variant=None, **params) -> ScoreResult``
- ``score_batch(batch: HandBatch, variant=None) -> BatchScores``  (a compiled kernel)
- ``score_waits_batch(batch: HandBatch, visible, variant=None) -> WaitScores``
- ``FAN_TABLE``: the rule set's table (ids, names, values) used to label batch results.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import RuleSetError
from ..hand import Hand, HandBatch
from ..rules.registry import get_rules
from .result import FanHit, ScoreResult

_SCORER_MODULES = {"mcr": "mcr", "taiwan": "taiwan", "tuidaohu": "tuidaohu",
                   "two_player": "tuidaohu"}


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


def scorer_module(rules: str):
    rs = get_rules(rules)
    name = _SCORER_MODULES.get(rs.name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:  # a rule set whose scorer is not built yet
        raise RuleSetError(rs.name, None, f"no scorer for rule set {rs.name}") from exc


def _as_hand(hand: Hand | str, rules: str, situation: dict[str, Any]) -> Hand:
    if isinstance(hand, str):
        from ..notation import parse_hand
        return parse_hand(hand, rules=rules, **situation)
    if situation:
        hand = hand.with_situation(**situation)
    return hand


_PARAMS = ("base", "unit", "fee", "chips", "eighth_flower")


def score(hand: Hand | str, rules: str = "mcr", variant: str | None = None, **options) -> ScoreResult:
    """Score one complete hand (a :class:`Hand` or any accepted hand string).

    ``options`` are situation keywords (``self_drawn``, ``discarder``, ``seat``...) that
    override the hand's own, and settlement parameters (``base``, ``unit``, ``fee``,
    ``chips``) where the rule set has them.
    """
    if isinstance(hand, Hand) and rules == "mcr" and hand.rules != "mcr":
        rules = hand.rules
    params = {k: options.pop(k) for k in list(options) if k in _PARAMS}
    h = _as_hand(hand, rules, options)
    mod = scorer_module(h.rules)
    return mod.score_hand(h, variant=variant, **params)


def score_batch(batch: HandBatch, rules: str | None = None, variant: str | None = None) -> BatchScores:
    """Score N complete hands held as a :class:`HandBatch` (compiled kernel)."""
    if rules is not None and get_rules(rules).name != get_rules(batch.rules).name:
        batch = dataclasses.replace(batch, rules=get_rules(rules).name)
    return scorer_module(batch.rules).score_batch(batch, variant=variant)


def score_waits(hand: Hand | str, rules: str = "mcr", visible=None, variant: str | None = None,
                **options) -> list[dict[str, Any]]:
    """Every winning tile of a ready hand with its totals on a discard and a self-draw,
    legality and live count: a list of dicts ``{"tile", "total_discard",
    "total_self_drawn", "legal_discard", "legal_self_drawn", "live"}``."""
    from ..tiles import tile_name
    if isinstance(hand, Hand) and rules == "mcr" and hand.rules != "mcr":
        rules = hand.rules
    h = _as_hand(hand, rules, options)
    batch = HandBatch.from_hands([h])
    vis = None if visible is None else np.asarray(visible, dtype=np.uint8).reshape(1, 34)
    ws = scorer_module(h.rules).score_waits_batch(batch, vis, variant=variant)
    out = []
    for t in np.flatnonzero(ws.wins[0]):
        out.append({"tile": tile_name(int(t)),
                    "total_discard": int(ws.total_discard[0, t]),
                    "total_self_drawn": int(ws.total_self_drawn[0, t]),
                    "legal_discard": bool(ws.legal_discard[0, t]),
                    "legal_self_drawn": bool(ws.legal_self_drawn[0, t]),
                    "live": int(ws.live[0, t])})
    return out


def score_table(df, rules: str = "mcr", variant: str | None = None, column: str = "hand"):
    """Score a Polars DataFrame (or Arrow table) with a ``hand`` string column.

    Returns a Polars DataFrame with the input columns plus ``total``, ``legal``,
    ``fan_ids`` (list) and ``fan_counts`` (list). Rows that do not parse or are not
    complete get null scores and an ``error`` message (nothing is dropped).
    """
    import polars as pl
    import pyarrow as pa
    from ..notation import parse_batch

    if not isinstance(df, pl.DataFrame):
        df = pl.from_arrow(df)
    strings = df.get_column(column)
    batch, ok, messages = parse_batch(strings, rules=rules, errors="mask")
    scores = score_batch(batch, rules=rules, variant=variant)
    good = ok & scores.complete
    fan_ids, fan_counts = _fan_lists(scores.fan_counts, good)
    errors = [m if not ok[i] else (None if scores.complete[i] else "not a complete hand")
              for i, m in enumerate(messages)]
    total = pa.array(scores.totals.astype(np.int32), mask=~good)
    legal = pa.array(scores.legal.astype(bool), mask=~good)
    return df.with_columns(
        pl.from_arrow(total).alias("total"),
        pl.from_arrow(legal).alias("legal"),
        pl.from_arrow(fan_ids).alias("fan_ids"),
        pl.from_arrow(fan_counts).alias("fan_counts"),
        pl.Series("error", errors, dtype=pl.Utf8),
    )


def _fan_lists(fan_counts: np.ndarray, good: np.ndarray):
    """(N, F) counts -> Arrow list arrays of the non-zero fan ids and their counts
    (null where ``good`` is False), built without a per-row Python loop."""
    import pyarrow as pa

    fc = np.where(good[:, None], fan_counts, 0)
    rows, cols = np.nonzero(fc)
    per_row = np.bincount(rows, minlength=fc.shape[0])
    offsets = np.zeros(fc.shape[0] + 1, dtype=np.int32)
    np.cumsum(per_row, out=offsets[1:])
    mask = pa.array(~good)
    ids = pa.ListArray.from_arrays(pa.array(offsets), pa.array(cols.astype(np.int16)), mask=mask)
    counts = pa.ListArray.from_arrays(pa.array(offsets), pa.array(fc[rows, cols].astype(np.int16)), mask=mask)
    return ids, counts


__all__ = ["score", "score_batch", "score_table", "score_waits", "ScoreResult", "FanHit",
           "BatchScores", "WaitScores"]
