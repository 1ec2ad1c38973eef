"""mjfast: fast analysis of Chinese-family mahjong (MCR, Taiwan 16-tile, Tuidaohu, two-player).

Public API (see the README and ``docs/``)::

    parse_hand, format_hand, parse_batch, hands_to_counts
    Hand, Meld, MeldKind, Situation, HandBatch
    decompose, decompose_batch, Division
    shanten, waits, Waits
    score, score_batch, score_table, score_waits, ScoreResult
    get_rules, RULESETS, MjfastError

Every public function is defined in a private module (``mjfast._decompose``,
``mjfast._shanten``, ``mjfast.notation._api``, ``mjfast.scoring._api``) and re-exported
here, so a name never changes identity when a submodule is imported.
"""
from __future__ import annotations

from . import kernels as _kernels  # noqa: F401  (Numba cache dir first)
from ._decompose import Division, decompose, decompose_batch
from ._generate import random_hands
from ._shanten import Waits, shanten, waits
from .errors import MjfastError
from .hand import Hand, HandBatch, Meld, MeldKind, Situation
from .notation import format_hand, hands_to_counts, parse_batch, parse_hand
from .rules.registry import RULESETS, get_rules
from .scoring import ScoreResult, score, score_batch, score_table, score_waits

__version__ = "0.1.0"

__all__ = ["Hand", "HandBatch", "Meld", "MeldKind", "Situation", "hands_to_counts",
           "MjfastError", "RULESETS", "get_rules",
           "parse_hand", "parse_batch", "format_hand",
           "decompose", "decompose_batch", "Division",
           "shanten", "waits", "Waits",
           "score", "score_batch", "score_table", "score_waits", "ScoreResult",
           "random_hands"]
