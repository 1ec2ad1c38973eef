"""Identifiers of deals and games (strings, stable across runs and worker counts)."""
from __future__ import annotations


def sim_game_id(rules: str, seed: int, game: int, permutation: int = 0) -> str:
    """A simulated game's id: ``<rules>-s<seed>-g<game>`` (``-p<perm>`` under --duplicate)."""
    gid = f"{rules}-s{seed}-g{game}"
    return gid if permutation == 0 else f"{gid}-p{permutation}"


def sim_deal_id(rules: str, seed: int, game: int, deal: int, permutation: int = 0) -> str:
    """A simulated deal's id: its game id + ``-d<deal>``; the same (seed, game, deal) names
    the same wall whatever the permutation."""
    return f"{sim_game_id(rules, seed, game, permutation)}-d{deal}"
