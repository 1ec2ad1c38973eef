"""The engine's compiled face (public module): what the simulator's play loop, the bots and
the log replay call from their own compiled code. Everything here is a compiled function
or a constant of the state layout; docs/engine.md describes the state and the calls.

- state: :func:`init_state`, :func:`set_caps` (this deal's chip caps), the layout module
  :mod:`mjfast.engine.layout` (``H_*`` header slots, blocks, ``ACT_*``, ``W_*``, errors);
- events: :func:`apply` (validate + fold one event), :func:`apply_light` (every kind but
  WIN and KONG_PAYMENT, with the parameter block only), :func:`situation_flags`,
  :func:`win_value` (score a win through the linked scorer symbols);
- play: :func:`legal_actions` / :func:`legal_actions_p`, :func:`confirm_wins`,
  :func:`resolve_claims`, :func:`auto_step` / :func:`auto_step_p` (the forced next event),
  :func:`next_dealer`;
- the game: :func:`game_start`, :func:`game_next`, :func:`deal_caps` and the ``G_*`` /
  ``END_*`` constants (:mod:`mjfast.engine._structure`);
- the event kinds ``K_*`` and flags ``EF_*`` (the event model's, re-exported).

The engine context ``ctx = (P, C, ws)`` comes from :func:`mjfast.engine.make_context`.
"""
from ._core import (EF_INSTANT, EF_LAST_TILE, EF_REPLACEMENT, EF_ROBBING, K_CHOW,
                    K_CLAIM_LOST, K_DEAL, K_DEALER_CHANGE, K_DISCARD, K_DRAW,
                    K_EXHAUSTIVE_DRAW, K_FLOWER, K_KONG_ADDED, K_KONG_CONCEALED,
                    K_KONG_EXPOSED, K_KONG_PAYMENT, K_PUNG, K_WIN, K_WIN_PASSED, apply,
                    apply_light, init_state, next_dealer, set_caps, situation_flags,
                    win_value)
from ._play import (auto_step, auto_step_p, confirm_wins, legal_actions, legal_actions_p,
                    resolve_claims)
from ._structure import (END_ERROR, END_NONE, G_DEALER, G_END, G_ENTRANT, G_PREVALENT,
                         G_SIZE, G_STREAK, G_TOTAL, deal_caps, game_next, game_start)

__all__ = ["EF_INSTANT", "EF_LAST_TILE", "EF_REPLACEMENT", "EF_ROBBING", "K_CHOW",
           "K_CLAIM_LOST", "K_DEAL", "K_DEALER_CHANGE", "K_DISCARD", "K_DRAW",
           "K_EXHAUSTIVE_DRAW", "K_FLOWER", "K_KONG_ADDED", "K_KONG_CONCEALED",
           "K_KONG_EXPOSED", "K_KONG_PAYMENT", "K_PUNG", "K_WIN", "K_WIN_PASSED", "apply",
           "apply_light", "init_state", "next_dealer", "set_caps", "situation_flags",
           "win_value", "auto_step", "auto_step_p", "confirm_wins", "legal_actions",
           "legal_actions_p", "resolve_claims", "END_ERROR", "END_NONE", "G_DEALER", "G_END",
           "G_ENTRANT", "G_PREVALENT", "G_SIZE", "G_STREAK", "G_TOTAL", "deal_caps",
           "game_next", "game_start"]
