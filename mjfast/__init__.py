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
here, so a name never changes identity when a submodule is imported. The re-exports load on
first use (PEP 562 ``__getattr__``; the value is then stored here, so every later access
returns the same object): ``import mjfast`` and the ``mjfast`` command line stay light (no
Numba import) until a kernel is needed.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .errors import MjfastError

from ._version import __version__  # noqa: E402

# public name -> the private module that defines it
_EXPORTS = {
    "Division": "._decompose", "decompose": "._decompose", "decompose_batch": "._decompose",
    "random_hands": "._generate",
    "Waits": "._shanten", "shanten": "._shanten", "waits": "._shanten",
    "Hand": ".hand", "HandBatch": ".hand", "Meld": ".hand", "MeldKind": ".hand",
    "Situation": ".hand",
    "format_hand": ".notation", "hands_to_counts": ".notation", "parse_batch": ".notation",
    "parse_hand": ".notation",
    "RULESETS": ".rules.registry", "get_rules": ".rules.registry",
    "ScoreResult": ".scoring", "score": ".scoring", "score_batch": ".scoring",
    "score_table": ".scoring", "score_waits": ".scoring",
}
# subpackages and modules reachable as attributes once imported (``mjfast.kernels``...)
_SUBMODULES = {"analytics", "cli", "data", "datasets", "engine", "errors", "hand", "kernels",
               "notation", "replay", "report", "rules", "scoring", "simulation", "tiles",
               "pipelines"}

__all__ = ["Hand", "HandBatch", "Meld", "MeldKind", "Situation", "hands_to_counts",
           "MjfastError", "RULESETS", "get_rules",
           "parse_hand", "parse_batch", "format_hand",
           "decompose", "decompose_batch", "Division",
           "shanten", "waits", "Waits",
           "score", "score_batch", "score_table", "score_waits", "ScoreResult",
           "random_hands"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module, __name__), name)
        globals()[name] = value          # one object from now on: same identity every time
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'mjfast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:                        # for type checkers and IDEs: the eager imports
    from ._decompose import Division, decompose, decompose_batch
    from ._generate import random_hands
    from ._shanten import Waits, shanten, waits
    from .hand import Hand, HandBatch, Meld, MeldKind, Situation
    from .notation import format_hand, hands_to_counts, parse_batch, parse_hand
    from .rules.registry import RULESETS, get_rules
    from .scoring import ScoreResult, score, score_batch, score_table, score_waits
