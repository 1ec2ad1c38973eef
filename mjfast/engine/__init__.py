"""The engine: the one compiled implementation of the rules of play, shared by the
simulator and the log replay (docs/engine.md has the compiled API and the state layout).

Python: :class:`Game` (one deal, event by event; ``next_deal()`` steps the game),
:class:`GameStructure` (a game: dealer, winds, seating, streak, chips, its end),
:func:`fold` (events -> states and results), :func:`make_context` (the scoring context the compiled functions take).
Compiled (Numba, callable from other kernels): ``init_state``, ``apply``, ``win_value``,
``legal_actions``, ``resolve_claims``, ``auto_step`` in ``mjfast.engine._core`` /
``mjfast.engine._play``.
"""
from __future__ import annotations

from . import layout
from ._game import Action, EngineError, Game, error_message, fold
from .layout import ERROR_MESSAGES, STATE_SIZE
from ._score import fan_table, make_context
from ._structure import GameStructure

__all__ = ["Action", "EngineError", "ERROR_MESSAGES", "Game", "GameStructure", "STATE_SIZE", "error_message",
           "fan_table", "fold", "layout", "make_context"]

# the game structure's constants the simulator's driver reads (mjfast.engine._structure)
from ._structure import (END_ERROR, END_NAMES, G_END, GAME_LENGTH, MODE_WINDS,  # noqa: E402
                         MODES, WINDS_CAP)

__all__ += ["END_ERROR", "END_NAMES", "G_END", "GAME_LENGTH", "MODE_WINDS", "MODES", "WINDS_CAP"]
