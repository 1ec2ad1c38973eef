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

from ..kernels import (C_FEE_NUM, C_PLAYERS, R_LEGAL, context_of, fee, kernel,
                       new_workspace, params_view, score_row, settle_kong_gross,
                       settle_win_gross)
from .layout import H_CAP, H_CAP_ON, H_PAID, H_RECEIVED

def make_context(rules, variant: str | None = None):
    """A fresh engine context ``(P, C, ws)`` for a :class:`~mjfast.rules.RuleContext`, or
    for ``rules`` / ``variant`` resolved into one here: the rule set's context array
    ``C`` (``mjfast.kernels.context_of``: built once per rule profile and shared), its
    parameter block ``P`` and a new workspace (one context per thread)."""
    from ..rules import RuleContext, rule_context
    rc = rules if isinstance(rules, RuleContext) else rule_context(rules, variant)
    C = context_of(rc.profile)
    return (params_view(C), C, new_workspace(C))


def fan_table(rules, variant: str | None = None):
    """The loaded rule table (rows with ids, names, points) the context scores with."""
    from ..rules import RuleContext, rule_context
    rc = rules if isinstance(rules, RuleContext) else rule_context(rules, variant)
    return rc.profile.table


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
