"""Public scoring API: :func:`score`, :func:`score_batch`, :func:`score_table`, :func:`score_waits`.

The functions live in :mod:`mjfast.scoring._api` (validation, the one scorer contract)
and are re-exported here. Each rule set has one scorer module (``mcr``, ``taiwan``,
``tuidaohu`` — which also serves ``two_player``) with the per-rule-set entry points:

- ``score_hand(hand, variant=None, **params) -> ScoreResult``
- ``score_batch(batch: HandBatch, variant=None) -> BatchScores``  (a compiled kernel)
- ``score_waits_batch(batch: HandBatch, visible, variant=None) -> WaitScores``
- ``FAN_TABLE``: the rule set's table (ids, names, values) used to label batch results.
"""
from __future__ import annotations

from ._api import (SETTLEMENT_PARAMS, score, score_batch, score_table, score_waits,
                   scorer_module)
from .result import BatchScores, FanHit, ScoreResult, WaitScores

# Batch results straight into Arrow columns (:mod:`._arrow`), for the layers that write
# tables; loaded on first use (PEP 562) so ``import mjfast.scoring`` stays light.
_ARROW = ("fan_lists", "fan_points", "score_wait_lists", "error_column",
          "take_rows", "meld_counts", "score_strings")
# The one wait path's pieces (:mod:`._waits`): every winning tile of ready hands scored once
# per way (``wait_pairs``) and laid out per hand and tile (``wait_grid``), for replay.
_WAITS = ("wait_pairs", "wait_grid")

__all__ = ["score", "score_batch", "score_table", "score_waits", "ScoreResult", "FanHit",
           "BatchScores", "WaitScores", "SETTLEMENT_PARAMS", "scorer_module", *_ARROW, *_WAITS]


def __getattr__(name: str):
    if name in _ARROW or name in _WAITS:
        import importlib
        module = importlib.import_module("._arrow" if name in _ARROW else "._waits", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
