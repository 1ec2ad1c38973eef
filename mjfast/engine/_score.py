"""Scoring for the engine: one compiled entry point over the three scorer kernels, the
compiled settlement (a port of mjfast/scoring/*.py settle functions, checked against them
in tests/test_engine.py) and the Python side that builds the scoring context.

The context ``ctx = (P, prof, ws)`` has one Numba type for every rule set (so the engine
compiles once): ``P`` int64[64] the engine's rule parameters (``C_*`` below), ``prof`` the
scorer profile (``mjfast.rules._profile``), ``ws`` the scorer workspace (scratch: one
context per thread).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..kernels import kernel
from ..kernels._entry import score_hand as _entry_score
from ._layout import H_PAID, H_RECEIVED, MAX_FANS, RULE_CODES, RULES_MCR, RULES_TAIWAN

# ---- P (int64[64]) parameter slots -----------------------------------------------------
C_RULES = 0
C_PLAYERS = 1
C_HAND = 2
C_FLOWERS = 3
C_DEAD = 4
C_CHOW = 5
C_FORM_MASK = 6
C_MINIMUM = 7            # MCR points without flowers / others 0
C_FLOWER_POINTS = 8      # MCR: points per flower
C_KONG_COMBO = 9         # MCR: 明暗杠 on (botzone variant)
C_HEAVEN = 10            # MCR: heavenly hand takes no wait fans
C_SEAT_PAY = 11          # MCR: 8 from every loser
C_FALSE_WIN = 12         # MCR: a false win pays this to each other player
C_BASE = 13              # Taiwan base / Tuidaohu base stake
C_UNIT = 14              # Taiwan unit
C_BONUS = 15             # Taiwan dealer bonus
C_BONUS_STREAK = 16      # Taiwan bonus per previous dealer win
C_BONUS_NONDEALER_TSUMO = 17
C_MULTI_RON = 18
C_TW_ENABLED = 19        # Taiwan key-enabled bits
C_FAN_CAP = 20
C_DISCARD_ALL = 21       # Tuidaohu: every other player pays a discard win (policy all_others)
C_KONG_OPEN = 22
C_KONG_ADDED = 23
C_KONG_CONCEALED = 24
C_FEE_NUM = 25
C_FEE_DEN = 26
C_MISSED_RULE = 27
C_N_FANS = 28            # columns of the fan table (fan ids < this)
C_KIND_MASK = 29         # bit t = tile kind t in the set
C_DEALER_REPEAT = 30     # 0: the deal always passes (MCR); 1: dealer repeats on a dealer win or a draw
C_WALL_SIZE = 31
C_SEVEN_FL_POINTS = 32   # Taiwan instant flower wins (points; fan ids below)
C_EIGHT_FL_POINTS = 33
C_SEVEN_FL_ID = 34
C_EIGHT_FL_ID = 35
C_SETS = 36
C_CAP_ON = 37            # 1: payments are capped by C_CAP (two-player chips); 0: no cap
C_CAP = 38               # 4 slots: the most each player may pay in the current deal (chips)

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


@lru_cache(maxsize=None)
def _ctx_parts(rules: str, variant: str | None):
    """(P, profile) for one rule set and variant."""
    from ..rules._profile import get_profile
    from ..rules.registry import get_rules
    rs = get_rules(rules)
    prof = get_profile(rs.name, variant)
    table = prof.table
    p = table.params
    P = np.zeros(64, dtype=np.int64)
    P[C_RULES] = RULE_CODES[rs.name]
    P[C_PLAYERS] = rs.players
    P[C_HAND] = rs.hand_size
    P[C_FLOWERS] = int(rs.flowers)
    P[C_DEAD] = rs.dead_wall
    P[C_CHOW] = int(rs.chow_allowed)
    P[C_FORM_MASK] = sum(1 << f for f in rs.forms)
    P[C_WALL_SIZE] = rs.wall_size
    P[C_SETS] = rs.sets
    P[C_N_FANS] = prof.n_cols
    m = 0
    for k in rs.kinds:
        m |= 1 << k
    P[C_KIND_MASK] = m
    if rs.name == "mcr":
        P[C_MINIMUM] = int(p.get("minimum", 8))
        P[C_SEAT_PAY] = int(p.get("seat_payment", 8))
        P[C_FALSE_WIN] = int(p.get("false_win", [30, 10])[1])
        P[C_DEALER_REPEAT] = 0
    elif rs.name == "taiwan":
        P[C_BASE] = int(p.get("base", 0))
        P[C_UNIT] = int(p.get("unit", 1))
        P[C_BONUS] = int(p.get("dealer_bonus", 1))
        P[C_BONUS_STREAK] = int(p.get("dealer_bonus_per_streak", 2))
        P[C_BONUS_NONDEALER_TSUMO] = int(bool(p.get("dealer_bonus_on_nondealer_tsumo", False)))
        P[C_MULTI_RON] = int(bool(p.get("multiple_ron", True)))
        P[C_MISSED_RULE] = 1
        P[C_DEALER_REPEAT] = 1
        seven = table.by_key["seven_flowers_rob"]
        eight = table.by_key["eight_flowers"]
        P[C_SEVEN_FL_POINTS], P[C_SEVEN_FL_ID] = int(seven.points), int(seven.id)
        P[C_EIGHT_FL_POINTS], P[C_EIGHT_FL_ID] = int(eight.points), int(eight.id)
    else:
        P[C_FAN_CAP] = int(p.get("fan_cap", 6))
        P[C_BASE] = int(p.get("base", 1))
        P[C_MINIMUM] = int(p.get("minimum_fan", 0))
        P[C_DISCARD_ALL] = int(p.get("win_discard_payers", "discarder") == "all_others")
        P[C_KONG_OPEN] = int(p.get("kong_open", 0))
        P[C_KONG_ADDED] = int(p.get("kong_added", 0))
        P[C_KONG_CONCEALED] = int(p.get("kong_concealed", 0))
        fee = Fraction(str(p.get("fee", 0))).limit_denominator(10 ** 6)
        P[C_FEE_NUM], P[C_FEE_DEN] = fee.numerator, fee.denominator
        P[C_DEALER_REPEAT] = 1
        if p.get("chips") is not None:
            set_chips(P, [int(p["chips"])] * rs.players)
    if P[C_N_FANS] > MAX_FANS:
        raise ValueError(f"{rs.name}: {P[C_N_FANS]} fan columns exceed the engine's {MAX_FANS}")
    return P, prof


def set_chips(P, chips) -> None:
    """Cap what each player pays in a deal (the two-player rule: a player pays at most
    the chips he brought): ``chips`` one int per player, or None for no cap. ``P`` is a
    context's parameter array (``ctx[0]``); the game structure updates it per deal."""
    if chips is None:
        P[C_CAP_ON] = 0
        return
    P[C_CAP_ON] = 1
    for q in range(4):
        P[C_CAP + q] = max(int(chips[q]), 0) if q < len(chips) else 0


def make_context(rules: str, variant: str | None = None):
    """A fresh context ``(P, prof, ws)`` for ``rules`` / ``variant``: the engine's rule
    parameters, the scorer profile (``get_profile(...).kernel_args()``) and a scorer
    workspace (scratch: one context per thread)."""
    from ..kernels._entry import workspace
    from ..rules.registry import get_rules
    P, prof = _ctx_parts(get_rules(rules).name, _variant_of(variant))
    args = prof.kernel_args()
    return (P.copy(), args, workspace(args))


def fan_table(rules: str, variant: str | None = None):
    """The loaded rule table (rows with ids, names, points) the context scores with."""
    from ..rules.registry import get_rules
    return _ctx_parts(get_rules(rules).name, _variant_of(variant))[1].table


# ---------------------------------------------------------------------------------------
# compiled scoring and settlement
# ---------------------------------------------------------------------------------------
@kernel
def score_hand(ctx, c, win, melds, nm, nflow, flags, seat, prevalent, dealer, discarder,
               streak, td, out_fans):
    """Score one hand through the scorers' compiled entry point
    (``mjfast.kernels._entry.score_hand``); ``out_fans`` int64[MAX_FANS]. Returns
    ``(total, legal)``, total -1 when not complete."""
    i64 = np.int64
    return _entry_score(c, melds, i64(nm), i64(win), i64(flags), i64(seat), i64(prevalent),
                        i64(dealer), i64(discarder), i64(streak), i64(td), i64(nflow),
                        ctx[1], ctx[2], out_fans)


@kernel
def _fee(P, gross):
    """The two-player fee on what a player receives: gross x rate, rounded half up."""
    if gross <= 0 or P[C_FEE_NUM] == 0:
        return 0
    return (2 * gross * P[C_FEE_NUM] + P[C_FEE_DEN]) // (2 * P[C_FEE_DEN])


@kernel
def settle_win(ctx, winner, self_drawn, discarder, total, legal, dealer, streak, out):
    """One win settled alone (a deal with no other payment): the gross payments of
    :func:`settle_win_gross`, the fee taken once from the receiver (= the scorers)."""
    got = settle_win_gross(ctx, winner, self_drawn, discarder, total, legal, dealer, streak, out)
    out[winner] -= _fee(ctx[0], got)


@kernel
def settle_win_gross(ctx, winner, self_drawn, discarder, total, legal, dealer, streak, out):
    """Add one win's payments before any fee (players, + gain / - pay) to ``out`` (int32/64[4]).

    MCR (scoring/mcr.py ``settle_mcr``): discard win, the discarder pays total + 8 and
    the others 8; self-draw, each pays total + 8; not legal (a false win): the claimant
    pays C_FALSE_WIN to each other player. Taiwan (scoring/taiwan.py ``settle_win``):
    each payer pays base + unit x (tai + dealer bonus when the dealer wins or deals in).
    Tuidaohu / two-player (scoring/tuidaohu.py ``settle``, win part): base x
    2^(min(fan, cap) - 1) from each payer (the fee is the caller's: per deal).
    Returns what the winner received (Tuidaohu / two-player; 0 elsewhere)."""
    P = ctx[0]
    n = P[C_PLAYERS]
    rules = P[C_RULES]
    if rules == RULES_MCR:
        if not legal:
            for q in range(n):
                if q != winner:
                    out[q] += P[C_FALSE_WIN]
                    out[winner] -= P[C_FALSE_WIN]
            return 0
        for q in range(n):
            if q == winner:
                continue
            pay = P[C_SEAT_PAY]
            if self_drawn or q == discarder:
                pay += total
            out[q] -= pay
            out[winner] += pay
        return 0
    elif rules == RULES_TAIWAN:
        bonus = P[C_BONUS] + P[C_BONUS_STREAK] * streak
        for q in range(n):
            if q == winner:
                continue
            if not self_drawn and q != discarder:
                continue
            extra = 0
            if winner == dealer:
                extra = bonus
            elif q == dealer and (not self_drawn or P[C_BONUS_NONDEALER_TSUMO] != 0):
                extra = bonus
            pay = P[C_BASE] + P[C_UNIT] * (total + extra)
            out[q] -= pay
            out[winner] += pay
        return 0
    else:
        capped = min(total, P[C_FAN_CAP])
        mult = (1 << (capped - 1)) if capped >= 1 else 0
        pay = mult * P[C_BASE]
        got = 0
        for q in range(n):
            if q == winner:
                continue
            if not self_drawn and q != discarder and P[C_DISCARD_ALL] == 0:
                continue
            out[q] -= pay
            got += pay
        out[winner] += got
        return got


@kernel
def settle_flower_win(ctx, winner, payer, out):
    """Taiwan's instant flower wins: ``payer`` >= 0, 七花搶第八花 (the 8th flower's holder
    pays); ``payer`` -1, 八花独占 (each other player pays). Returns the points."""
    P = ctx[0]
    n = P[C_PLAYERS]
    if payer >= 0:
        pay = P[C_BASE] + P[C_UNIT] * P[C_SEVEN_FL_POINTS]
        out[payer] -= pay
        out[winner] += pay
        return P[C_SEVEN_FL_POINTS]
    pay = P[C_BASE] + P[C_UNIT] * P[C_EIGHT_FL_POINTS]
    for q in range(n):
        if q != winner:
            out[q] -= pay
            out[winner] += pay
    return P[C_EIGHT_FL_POINTS]


@kernel
def settle_kong(ctx, owner, kind, discarder, out):
    """One kong payment settled alone: :func:`settle_kong_gross`, the fee taken once."""
    got = settle_kong_gross(ctx, owner, kind, discarder, out)
    out[owner] -= _fee(ctx[0], got)


@kernel
def settle_kong_gross(ctx, owner, kind, discarder, out):
    """Add one kong's payment before any fee to ``out`` (Tuidaohu / two-player; nothing
    elsewhere); returns what the owner received. ``kind`` 0 exposed (the discarder
    pays), 1 added, 2 concealed (each other pays)."""
    P = ctx[0]
    if P[C_KONG_OPEN] == 0 and P[C_KONG_ADDED] == 0 and P[C_KONG_CONCEALED] == 0:
        return 0
    n = P[C_PLAYERS]
    got = 0
    if kind == 0:
        amt = P[C_KONG_OPEN] * P[C_BASE]
        out[discarder] -= amt
        got = amt
    else:
        amt = (P[C_KONG_ADDED] if kind == 1 else P[C_KONG_CONCEALED]) * P[C_BASE]
        for q in range(n):
            if q != owner:
                out[q] -= amt
                got += amt
    out[owner] += got
    return got


@kernel
def in_deal(S, ctx, out):
    """Turn one payment row's gross amounts ``out`` (a WIN or a KONG_PAYMENT) into what
    the deal records, given the deal's earlier rows (``S[H_PAID]``, ``S[H_RECEIVED]``):

    - the chip cap (``C_CAP_ON``): a payer pays at most ``C_CAP[q]`` over the whole
      deal; a receiver gets what his payers actually paid (a row has one receiver);
    - the fee (two-player 5%): taken ONCE per deal from each player's receipts, rounded
      half up (the seed: the receiving side loses 5% of what it receives; its example 3
      settles win and kong as one sum), so row k takes fee(R_k) - fee(R_k-1) of the
      player's running receipts R: the rows add up to the scorer's per-hand fee.
    """
    P = ctx[0]
    if P[C_CAP_ON] == 0 and P[C_FEE_NUM] == 0:
        return
    n = P[C_PLAYERS]
    if P[C_CAP_ON] != 0:
        recv = -1
        paid = 0
        for q in range(n):
            if out[q] > 0:
                recv = q
            elif out[q] < 0:
                room = P[C_CAP + q] - S[H_PAID + q]
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
            out[q] -= _fee(P, before + out[q]) - _fee(P, before)


@kernel
def settle_win_in_deal(S, ctx, winner, self_drawn, discarder, total, legal, dealer, streak,
                       out):
    """A WIN row's payments inside a deal (the engine's path): gross, then :func:`in_deal`."""
    settle_win_gross(ctx, winner, self_drawn, discarder, total, legal, dealer, streak, out)
    in_deal(S, ctx, out)


@kernel
def settle_kong_in_deal(S, ctx, owner, kind, discarder, out):
    """A KONG_PAYMENT row's payments inside a deal: gross, then :func:`in_deal`."""
    settle_kong_gross(ctx, owner, kind, discarder, out)
    in_deal(S, ctx, out)
