"""mjfast: fast analysis of Chinese-family mahjong (MCR, Taiwan 16-tile, Tuidaohu, two-player).

Public API (see the README and ``docs/``)::

    parse_hand, Hand, Meld, Situation, HandBatch, hands_to_counts, parse_batch
    decompose, decompose_batch
    shanten, waits
    score, score_batch, score_table, score_waits
"""
from __future__ import annotations

import importlib

from . import kernels as _kernels  # noqa: F401  (Numba cache dir first)
from .errors import MjfastError
from .hand import Hand, HandBatch, Meld, MeldKind, Situation, hands_to_counts
from .rules.registry import RULESETS, get_rules

__version__ = "0.1.0"

_LAZY = {
    "parse_hand": "mjfast.notation",
    "parse_batch": "mjfast.notation",
    "format_hand": "mjfast.notation",
    "decompose": "mjfast.decompose",
    "decompose_batch": "mjfast.decompose",
    "Division": "mjfast.decompose",
    "shanten": "mjfast.shanten",
    "waits": "mjfast.shanten",
    "score": "mjfast.scoring",
    "score_batch": "mjfast.scoring",
    "score_table": "mjfast.scoring",
    "score_waits": "mjfast.scoring",
    "ScoreResult": "mjfast.scoring",
    "random_hands": "mjfast._generate",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mjfast' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_LAZY))


__all__ = ["Hand", "HandBatch", "Meld", "MeldKind", "Situation", "hands_to_counts",
           "MjfastError", "RULESETS", "get_rules", *_LAZY]
