"""The simulator: walls from a counter-based RNG + the engine + bots -> events and tables.

- :func:`simulate` — play deals (games of 16) with built-in bots (``efficiency``,
  ``value``; compiled), Python policies or external Botzone-protocol bots; returns the
  ``events``, ``deals``, ``games`` and ``wins`` tables or writes them as a dataset (the
  simulate job, :func:`simulate_job`, on the one job runner).
- :func:`make_wall` / :func:`make_walls` — the wall of any deal ``(seed, game, deal)``.
- :class:`BotzoneBot` — an external bot process speaking the Botzone protocol.
- :class:`PolicyView` — what a Python policy ``policy(view, actions) -> int`` sees.

docs/simulation.md has the RNG, the bots, the loop and the outputs.
"""
from __future__ import annotations

from ._external import BotzoneBot, ExternalBotError
from ._pyloop import PolicyView
from ._rng import make_wall, make_walls, tile_set
from ._job import shard_transform, simulate_job
from ._simulate import GAME_DEALS, SimulationResult, make_plan, play_shard, simulate

__all__ = ["BotzoneBot", "ExternalBotError", "GAME_DEALS", "PolicyView", "SimulationResult",
           "make_plan", "make_wall", "make_walls", "play_shard", "shard_transform",
           "simulate", "simulate_job", "tile_set"]
