"""The engine's compiled face (public module): what the simulator's play loop, the bots
and the log replay call from their own compiled code. docs/engine.md describes the state
and the calls.

The rules of play are compiled once, behind linked symbols (:mod:`mjfast.engine._symbols`):
the functions below are thin wrappers that pass the arrays' pointers, so no caller
compiles the engine again inside itself.

- state: :func:`init_state`, :func:`set_caps` (this deal's chip caps), the layout module
  :mod:`mjfast.engine.layout` (``H_*`` header slots, blocks, ``ACT_*``, ``W_*``, errors);
- events: :func:`apply` (validate + fold one event), :func:`situation_flags`,
  :func:`win_value` (score a win through the linked scorer symbols);
- play: :func:`legal_actions` (wins already scored), :func:`resolve_claims`,
  :func:`auto_step` (the forced next event), :func:`next_dealer`;
- the game: :func:`game_start`, :func:`game_next`, :func:`deal_caps` and the ``G_*`` /
  ``END_*`` constants (:mod:`mjfast.engine._structure`);
- the event kinds ``K_*`` and flags ``EF_*`` (the event model's, re-exported).

The engine context ``ctx = (P, C, ws)`` comes from :func:`mjfast.engine.make_context`.
"""
import numpy as np

from ..kernels import kernel, ptr
from ._core import (EF_INSTANT, EF_LAST_TILE, EF_REPLACEMENT, EF_ROBBING, K_CHOW,
                    K_CLAIM_LOST, K_DEAL, K_DEALER_CHANGE, K_DISCARD, K_DRAW,
                    K_EXHAUSTIVE_DRAW, K_FLOWER, K_KONG_ADDED, K_KONG_CONCEALED,
                    K_KONG_EXPOSED, K_KONG_PAYMENT, K_PUNG, K_WIN, K_WIN_PASSED, init_state,
                    next_dealer, set_caps, situation_flags, wall_left)
from ._play import resolve_claims
from ._structure import (END_ERROR, END_NONE, G_DEALER, G_END, G_ENTRANT, G_PREVALENT,
                         G_SIZE, G_STREAK, G_TOTAL, deal_caps, game_next, game_start)
from ._symbols import apply_sym, auto_step_sym, legal_actions_sym, win_value_sym


@kernel(inline="always")
def apply(S, ctx, kind, player, tile, aux, target, flags):
    """Validate one event against the rules of play and fold it into ``S``; 0 (legal) or
    an error code (``layout.ERROR_MESSAGES``)."""
    return apply_sym(ptr(S), ptr(ctx[1]), ptr(ctx[2]), kind, player, tile, aux, target,
                     flags)


@kernel(inline="always")
def legal_actions(S, ctx, p, out):
    """The decisions open to ``p`` now into ``out`` (int64[MAX_ACTIONS, 4] rows ``kind,
    tile, aux, target``; a win row only when the win is legal); returns the row count."""
    return legal_actions_sym(ptr(S), ptr(ctx[1]), ptr(ctx[2]), p, ptr(out))


@kernel(inline="always")
def auto_step(S, ctx, out):
    """The next forced event into ``out`` (int64[6]: kind, player, tile, aux, target,
    flags); True, or False when a player must decide or the deal is over."""
    return auto_step_sym(ptr(S), ptr(ctx[1]), ptr(out)) != 0


@kernel(inline="always")
def win_value(S, ctx, p, tile, self_drawn, robbing, out_fans):
    """Score a win by ``p`` on ``tile`` now: ``(total, legal, situation flags)``, total -1
    when not complete; ``out_fans`` int64[MAX_FANS] by fan id."""
    res = np.zeros(2, dtype=np.int64)
    total = win_value_sym(ptr(S), ptr(ctx[1]), ptr(ctx[2]), p, tile, 1 if self_drawn else 0,
                          1 if robbing else 0, ptr(out_fans), ptr(res))
    return total, res[0] != 0, res[1]


__all__ = ["EF_INSTANT", "EF_LAST_TILE", "EF_REPLACEMENT", "EF_ROBBING", "K_CHOW",
           "K_CLAIM_LOST", "K_DEAL", "K_DEALER_CHANGE", "K_DISCARD", "K_DRAW",
           "K_EXHAUSTIVE_DRAW", "K_FLOWER", "K_KONG_ADDED", "K_KONG_CONCEALED",
           "K_KONG_EXPOSED", "K_KONG_PAYMENT", "K_PUNG", "K_WIN", "K_WIN_PASSED", "apply",
           "init_state", "next_dealer", "set_caps", "situation_flags", "wall_left",
           "win_value", "auto_step", "legal_actions", "resolve_claims", "END_ERROR",
           "END_NONE", "G_DEALER", "G_END", "G_ENTRANT", "G_PREVALENT", "G_SIZE", "G_STREAK",
           "G_TOTAL", "deal_caps", "game_next", "game_start"]
