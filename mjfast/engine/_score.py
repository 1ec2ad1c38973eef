"""Scoring for the engine: the engine's context, one hand scored through the linked
scorer symbols, and the deal's payment rows (settlement itself is compiled once, in
``mjfast.kernels``: the Python scorers use the same functions).

The engine context ``ctx = (P, C, ws)`` has one Numba type for every rule set (so the
engine compiles once): ``P`` the rule parameter block (slots ``C_*``, a read-only view of
``C``), ``C`` the rule set's context array (read-only, :mod:`mjfast.kernels` layout), ``ws``
a scorer workspace (scratch: one context per thread). Per-deal values (the two-player chip
caps) live in the deal state, never in the context.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..kernels import (C_BASE, C_BONUS, C_BONUS_NONDEALER_TSUMO, C_BONUS_STREAK, C_CHIPS,
                       C_CHOW, C_DEAD, C_DEALER_REPEAT, C_DISCARD_ALL, C_EIGHT_FL_ID,
                       C_EIGHT_FL_POINTS, C_FALSE_WIN, C_FAN_CAP, C_FEE_DEN, C_FEE_NUM,
                       C_FLOWERS, C_FORM_MASK, C_HAND, C_KIND_MASK, C_KONG_ADDED,
                       C_KONG_CONCEALED, C_KONG_OPEN, C_MINIMUM, C_MISSED_RULE, C_MULTI_RON,
                       C_N_FANS, C_PLAYERS, C_RULES, C_SEAT_PAY, C_SETS, C_SEVEN_FL_ID,
                       C_SEVEN_FL_POINTS, C_UNIT, C_WALL_SIZE, R_COUNTS, R_DEALER, R_DISCARDER,
                       R_FLAGS, R_FLOWERS, R_LEGAL, R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT,
                       R_STREAK, R_TABLE_DISCARDS, R_WIN, ROW_SIZE, context_for, fee, kernel,
                       new_workspace, params_view, score_row, settle_flower_win,
                       settle_kong_gross, settle_win_gross)
from .layout import H_CAP, H_CAP_ON, H_PAID, H_RECEIVED

# the scorers' situation flag bits: the one definition is HandBatch's (mjfast/hand.py)
from ..hand import FIRST_TURN as F_FIRST_TURN  # noqa: E402
from ..hand import FOURTH_TILE as F_FOURTH_TILE  # noqa: E402
from ..hand import KONG_REPLACEMENT as F_KONG_REPLACEMENT  # noqa: E402
from ..hand import LAST_TILE as F_LAST_TILE  # noqa: E402
from ..hand import ORIGINAL_READY as F_ORIGINAL_READY  # noqa: E402
from ..hand import ROBBING_KONG as F_ROBBING_KONG  # noqa: E402
from ..hand import SELF_DRAWN as F_SELF_DRAWN  # noqa: E402


def _variant_of(variant):
    """The variant key: None for the default; a name lower-cased; a file path as given."""
    if variant is None or str(variant).lower() in ("", "none", "default", "official"):
        return None
    text = str(variant)
    if text.lower().endswith(".toml") or "/" in text or "\\" in text:
        return text                      # a path keeps its case (file systems are not)
    return text.lower()


def make_context(rules: str, variant: str | None = None):
    """A fresh engine context ``(P, C, ws)`` for ``rules`` / ``variant`` (the rule set's
    context array is built once per process and shared; the workspace is new: one context
    per thread)."""
    from ..rules.registry import get_rules
    C = context_for(get_rules(rules).name, _variant_of(variant))
    return (params_view(C), C, new_workspace(C))


def fan_table(rules: str, variant: str | None = None):
    """The loaded rule table (rows with ids, names, points) the context scores with."""
    from ..rules import get_profile
    from ..rules.registry import get_rules
    return get_profile(get_rules(rules).name, _variant_of(variant)).table


@lru_cache(maxsize=None)
def params_of(rules: str, variant: str | None = None) -> np.ndarray:
    """The rule parameter block (read-only) of ``rules`` / ``variant``."""
    return make_context(rules, variant)[0]


def set_chips(S, chips) -> None:
    """Cap what each player pays in this deal (the two-player rule: a player pays at most
    the chips he brought): ``chips`` one int per player, or None for no cap. ``S`` the
    deal state (after ``init_state``)."""
    if chips is None:
        S[H_CAP_ON] = 0
        return
    S[H_CAP_ON] = 1
    for q in range(4):
        S[H_CAP + q] = max(int(chips[q]), 0) if q < len(chips) else 0


# ---------------------------------------------------------------------------------------
# compiled scoring and settlement
# ---------------------------------------------------------------------------------------
@kernel
def score_hand(ctx, row, out_fans):
    """Score the hand row ``row`` (``mjfast.kernels`` row layout) through the linked
    scorer symbols; ``out_fans`` int64[MAX_FANS] by fan id. Returns ``(total, legal)``,
    total -1 when not complete."""
    total = score_row(ctx[1], ctx[2], row, out_fans)
    return total, row[R_LEGAL] != 0


@kernel
def in_deal(S, ctx, out):
    """Turn one payment row's gross amounts ``out`` (a WIN or a KONG_PAYMENT) into what
    the deal records, given the deal's earlier rows (``S[H_PAID]``, ``S[H_RECEIVED]``):

    - the chip cap (``S[H_CAP_ON]``): a payer pays at most ``S[H_CAP + q]`` over the whole
      deal; a receiver gets what his payers actually paid (a row has one receiver);
    - the fee (two-player 5%): taken ONCE per deal from each player's receipts, rounded
      half up (the seed: the receiving side loses 5% of what it receives; its example 3
      settles win and kong as one sum), so row k takes fee(R_k) - fee(R_k-1) of the
      player's running receipts R: the rows add up to the scorer's per-hand fee.
    """
    P = ctx[0]
    if S[H_CAP_ON] == 0 and P[C_FEE_NUM] == 0:
        return
    n = P[C_PLAYERS]
    if S[H_CAP_ON] != 0:
        recv = -1
        paid = 0
        for q in range(n):
            if out[q] > 0:
                recv = q
            elif out[q] < 0:
                room = S[H_CAP + q] - S[H_PAID + q]
                if room < 0:
                    room = 0
                if -out[q] > room:
                    out[q] = -room
                paid -= out[q]
        if recv >= 0:
            out[recv] = paid
    for q in range(n):
        if out[q] < 0:
            S[H_PAID + q] += -out[q]
        elif out[q] > 0:
            before = S[H_RECEIVED + q]
            S[H_RECEIVED + q] = before + out[q]
            out[q] -= fee(P, before + out[q]) - fee(P, before)


@kernel
def settle_win_in_deal(S, ctx, winner, self_drawn, discarder, total, legal, dealer, streak,
                       out):
    """A WIN row's payments inside a deal (the engine's path): gross, then :func:`in_deal`."""
    settle_win_gross(ctx[0], winner, self_drawn, discarder, total, legal, dealer, streak, out)
    in_deal(S, ctx, out)


@kernel
def settle_kong_in_deal(S, ctx, owner, kind, discarder, out):
    """A KONG_PAYMENT row's payments inside a deal: gross, then :func:`in_deal`."""
    settle_kong_gross(ctx[0], owner, kind, discarder, out)
    in_deal(S, ctx, out)
