"""The compiled side's view of one rule set and variant: ONE read-only int64 array (the
context), one int64 scratch array per thread (the workspace) and one int64 hand row.

Every compiled scorer, the engine and the bots take these three flat arrays (through a
linked symbol: pointers, see :mod:`._jit`), whatever the rule set: the code is compiled
once and rule sets differ by data.

Context layout (``ctx``, built by :func:`build_context`, never written):

- header ``ctx[0:X_FIELDS]``: :data:`X_LEN` the array's length, :data:`X_MAGIC`,
  :data:`X_CODE` the scorer family (``CODE_MCR`` / ``CODE_TAIWAN`` / ``CODE_TUIDAOHU``),
  :data:`X_NCOLS` fan columns (fan ids < this), :data:`X_WS_LEN` the workspace length,
  :data:`X_DEC_AT` / :data:`X_DEC_LEN` where the per-suit divisions table is (words,
  :mod:`._suit_divisions`), :data:`X_PACKS_AT` where the
  MCR chow- and pung-family tables are (:mod:`._mcr_packs`; 0 for the other rule sets);
- three words per rule-profile array (``PROFILE_FIELDS`` of :mod:`mjfast.rules`: offset,
  rows, columns (0 for a 1-D array)); :func:`profile_views` gives them back as arrays;
- the engine and settlement parameters (:data:`PARAMS_AT` onwards, :data:`N_PARAMS` words:
  players, hand size, minimum, payments...): the *parameter block* ``P``, slots ``C_*``
  (``P = params_view(ctx)``, ``P[C_PLAYERS]``; in the full array ``ctx[PARAMS_AT + C_*]``).
  The settlement functions take a parameter block alone, so a caller can settle with
  other values (a copy of the block) without another context;
- the data: the profile arrays, then the MCR per-suit divisions table that the scorer's
  divisions and its wait search read, then (MCR) the pack-family tables.

Workspace layout (``ws``, :func:`new_workspace`): the scorers' scratch, views made by
:func:`workspace_views` (nothing is allocated per hand).

Hand row layout (``row``, ``ROW_SIZE`` int64): ``R_COUNTS`` (34, the concealed tiles with
the winning tile), ``R_MELDS`` (5 x 4: kind -1/0 chow/1 pung/2 kong, lowest tile, flags
1 concealed | 2 added, claimed), then the scalars ``R_N_MELDS``, ``R_WIN``, ``R_FLAGS``
(:class:`mjfast.hand.HandBatch` flag bits), ``R_SEAT``, ``R_PREVALENT``, ``R_DEALER``,
``R_DISCARDER`` (-1 none), ``R_STREAK``, ``R_TABLE_DISCARDS`` (-1 unknown), ``R_FLOWERS``;
the scorer writes ``R_TOTAL``, ``R_LEGAL`` and ``R_EXTRA`` (Tuidaohu: kong units).
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from ..rules import (CODE_MCR, I_FLOWER_COL, I_FLOWERS_TO_MIN,
                     I_HEAVEN, I_KONG_COMBO, PROFILE_FIELDS, get_profile, get_rules)
from ._jit import as_array, grid, kernel

N_FIELDS = len(PROFILE_FIELDS)
MAGIC = 0x6D6A6678                                  # "mjfx"

# ---- header ------------------------------------------------------------------------------
X_LEN = 0
X_MAGIC = 1
X_CODE = 2
X_NCOLS = 3
X_WS_LEN = 4
X_DEC_AT = 5       # the per-suit divisions table (_suit_divisions)
X_DEC_LEN = 6
X_PACKS_AT = 7     # MCR: the chow- and pung-family tables (_mcr_packs; 0 elsewhere)
X_FIELDS = 8
PARAMS_AT = X_FIELDS + 3 * N_FIELDS
N_PARAMS = 64
DATA_AT = PARAMS_AT + N_PARAMS

# ---- engine and settlement parameters (slots of the parameter block) --------------------
_P = 0
C_RULES = _P + 0           # engine rule code: 0 mcr, 1 taiwan, 2 tuidaohu, 3 two-player
C_PLAYERS = _P + 1
C_HAND = _P + 2
C_FLOWERS = _P + 3
C_DEAD = _P + 4
C_CHOW = _P + 5
C_FORM_MASK = _P + 6
C_MINIMUM = _P + 7         # MCR points without flowers / Tuidaohu minimum fan / Taiwan 0
C_FLOWER_POINTS = _P + 8   # MCR: points per flower
C_KONG_COMBO = _P + 9      # MCR: 明暗杠 on (botzone variant)
C_HEAVEN = _P + 10         # MCR: heavenly hand takes no wait fans
C_SEAT_PAY = _P + 11       # MCR: what every loser pays besides the total
C_FALSE_WIN = _P + 12      # MCR: a false win pays this to each other player
C_BASE = _P + 13           # Taiwan base / Tuidaohu base stake
C_UNIT = _P + 14           # Taiwan unit
C_BONUS = _P + 15          # Taiwan dealer bonus
C_BONUS_STREAK = _P + 16   # Taiwan bonus per previous dealer win
C_BONUS_NONDEALER_TSUMO = _P + 17
C_MULTI_RON = _P + 18
C_FAN_CAP = _P + 20
C_DISCARD_ALL = _P + 21    # Tuidaohu: every other player pays a discard win
C_KONG_OPEN = _P + 22
C_KONG_ADDED = _P + 23
C_KONG_CONCEALED = _P + 24
C_FEE_NUM = _P + 25
C_FEE_DEN = _P + 26
C_MISSED_RULE = _P + 27
C_N_FANS = _P + 28         # fan columns (= X_NCOLS)
C_KIND_MASK = _P + 29      # bit t = tile kind t is in the set
C_DEALER_REPEAT = _P + 30  # 0: the deal always passes (MCR); 1: dealer repeats
C_WALL_SIZE = _P + 31
C_SEVEN_FL_POINTS = _P + 32  # Taiwan instant flower wins: points and fan ids
C_EIGHT_FL_POINTS = _P + 33
C_SEVEN_FL_ID = _P + 34
C_EIGHT_FL_ID = _P + 35
C_SETS = _P + 36
C_CHIPS = _P + 37          # two-player: chips each player brings (-1: no cap)
C_FLOWERS_TO_MIN = _P + 38  # MCR: flowers count towards the minimum
C_FLOWER_COL = _P + 39     # MCR: the flowers' fan id
C_ENGINE_RULES = {"mcr": 0, "taiwan": 1, "tuidaohu": 2, "two_player": 3}

# ---- workspace ----------------------------------------------------------------------------
MAX_DIVISIONS = 256        # = kernels._decompose (checked in tests)
DIV_COLS = 14
WS_COLS = 128              # fan-vector width in the workspace (>= every table's columns)
W_DIVBUF = 0                                      # int16 (MAX_DIVISIONS, DIV_COLS)
W_WORK = W_DIVBUF + MAX_DIVISIONS * DIV_COLS // 4  # int64 (10, 34)
W_FT = W_WORK + 340                               # int64 (WS_COLS,)
W_WFANS = W_FT + WS_COLS                          # int64 (MAX_DIVISIONS, WS_COLS)
W_SC = W_WFANS + MAX_DIVISIONS * WS_COLS          # int64 (16, MAX_DIVISIONS)
W_DSCR = W_SC + 16 * MAX_DIVISIONS                # int64 (4, 8)
W_PLACE = W_DSCR + 32                             # int16 (8, 2)
W_VEC = W_PLACE + 4                               # int64 (4, WS_COLS)
W_C = W_VEC + 4 * WS_COLS                         # int64 (34,)
WS_LEN = W_C + 40

# ---- hand row -----------------------------------------------------------------------------
R_COUNTS = 0
R_MELDS = 34
R_N_MELDS = 54
R_WIN = 55
R_FLAGS = 56
R_SEAT = 57
R_PREVALENT = 58
R_DEALER = 59
R_DISCARDER = 60
R_STREAK = 61
R_TABLE_DISCARDS = 62
R_FLOWERS = 63
R_TOTAL = 64
R_LEGAL = 65
R_EXTRA = 66
ROW_SIZE = 68
# a bit of R_FLAGS above the hand's own flags (mjfast.hand): the row holds the same tiles,
# melds, winning tile and seats as the row the same workspace scored just before it, with
# other flags (the waits of a ready hand: the discard win, then the self-draw). The MCR
# scorer then reads what depends only on the tiles (the divisions, the hand's traits, the
# waits) from what that row left in the workspace. Set only by kernels._score_rows.
FLAG_SAME_HAND = 1 << 16


# ---------------------------------------------------------------------------------------
# building (Python)
# ---------------------------------------------------------------------------------------
def _params_block(profile) -> np.ndarray:
    """The engine / settlement parameters of ``profile`` (the ``C_*`` slots, relative)."""
    rs = profile.structure
    p = profile.params
    arrays = profile.kernel_args()
    ints = arrays[0]
    P = np.zeros(N_PARAMS, dtype=np.int64)

    def put(slot, value):
        P[slot] = int(value)

    put(C_RULES, C_ENGINE_RULES[rs.name])
    put(C_PLAYERS, rs.players)
    put(C_HAND, rs.hand_size)
    put(C_FLOWERS, int(rs.flowers))
    put(C_DEAD, rs.dead_wall)
    put(C_CHOW, int(rs.chow_allowed))
    put(C_FORM_MASK, sum(1 << f for f in rs.forms))
    put(C_WALL_SIZE, rs.wall_size)
    put(C_SETS, rs.sets)
    put(C_N_FANS, profile.n_cols)
    put(C_KIND_MASK, sum(1 << k for k in rs.kinds))
    put(C_CHIPS, -1)
    if rs.name == "mcr":
        put(C_MINIMUM, p.get("minimum", 8))
        put(C_SEAT_PAY, p.get("seat_payment", 8))
        put(C_FALSE_WIN, p.get("false_win", [30, 10])[1])
        put(C_DEALER_REPEAT, 0)
        put(C_FLOWER_COL, ints[I_FLOWER_COL])
        put(C_FLOWER_POINTS, arrays[1][ints[I_FLOWER_COL]])
        put(C_FLOWERS_TO_MIN, ints[I_FLOWERS_TO_MIN])
        put(C_KONG_COMBO, ints[I_KONG_COMBO])
        put(C_HEAVEN, ints[I_HEAVEN])
    elif rs.name == "taiwan":
        table = profile.table
        put(C_BASE, p.get("base", 0))
        put(C_UNIT, p.get("unit", 1))
        put(C_BONUS, p.get("dealer_bonus", 1))
        put(C_BONUS_STREAK, p.get("dealer_bonus_per_streak", 2))
        put(C_BONUS_NONDEALER_TSUMO, bool(p.get("dealer_bonus_on_nondealer_tsumo", False)))
        put(C_MULTI_RON, bool(p.get("multiple_ron", True)))
        put(C_MISSED_RULE, 1)
        put(C_DEALER_REPEAT, 1)
        seven = table.by_key["seven_flowers_rob"]
        eight = table.by_key["eight_flowers"]
        put(C_SEVEN_FL_POINTS, seven.points)
        put(C_SEVEN_FL_ID, seven.id)
        put(C_EIGHT_FL_POINTS, eight.points)
        put(C_EIGHT_FL_ID, eight.id)
    else:
        put(C_FAN_CAP, p.get("fan_cap", 6))
        put(C_BASE, p.get("base", 1))
        put(C_MINIMUM, p.get("minimum_fan", 0))
        put(C_DISCARD_ALL, p.get("win_discard_payers", "discarder") == "all_others")
        put(C_KONG_OPEN, p.get("kong_open", 0))
        put(C_KONG_ADDED, p.get("kong_added", 0))
        put(C_KONG_CONCEALED, p.get("kong_concealed", 0))
        fee = Fraction(str(p.get("fee", 0))).limit_denominator(10 ** 6)
        put(C_FEE_NUM, fee.numerator)
        put(C_FEE_DEN, fee.denominator)
        put(C_DEALER_REPEAT, 1)
        if p.get("chips") is not None:
            put(C_CHIPS, p["chips"])
    return P


def suit_divisions_table() -> np.ndarray:
    """The MCR per-suit divisions table (int64, built once; :mod:`._suit_divisions`)."""
    from ._suit_divisions import build_suit_divisions
    return build_suit_divisions()


def pack_tables() -> np.ndarray:
    """The MCR chow- and pung-family tables (int64, built once; :mod:`._mcr_packs`)."""
    from ._mcr_packs import pack_tables as build
    return build()


def build_context(profile) -> np.ndarray:
    """The context array of a loaded :class:`~mjfast.rules.RuleProfile` (read-only)."""
    arrays = profile.kernel_args()
    if len(arrays) != N_FIELDS:
        raise ValueError(f"a rule profile has {N_FIELDS} arrays, got {len(arrays)}")
    code = int(arrays[0][0])
    # the per-suit divisions table: every scorer looks its regular divisions up in it
    dec = suit_divisions_table()
    packs = pack_tables() if code == CODE_MCR else np.zeros(0, dtype=np.int64)
    n_data = sum(int(a.size) for a in arrays)
    ctx = np.zeros(DATA_AT + n_data + dec.size + packs.size, dtype=np.int64)
    ctx[X_LEN] = ctx.size
    ctx[X_MAGIC] = MAGIC
    ctx[X_CODE] = code
    ctx[X_NCOLS] = profile.n_cols
    ctx[X_WS_LEN] = WS_LEN
    if profile.n_cols > WS_COLS:
        raise ValueError(f"{profile.rules}: {profile.n_cols} fan columns exceed {WS_COLS}")
    at = DATA_AT
    for k, a in enumerate(arrays):
        a = np.ascontiguousarray(a, dtype=np.int64)
        ctx[X_FIELDS + 3 * k] = at
        ctx[X_FIELDS + 3 * k + 1] = a.shape[0]
        ctx[X_FIELDS + 3 * k + 2] = a.shape[1] if a.ndim == 2 else 0
        ctx[at:at + a.size] = a.ravel()
        at += a.size
    ctx[PARAMS_AT:PARAMS_AT + N_PARAMS] = _params_block(profile)
    ctx[X_DEC_AT] = at
    ctx[X_DEC_LEN] = dec.size
    ctx[at:at + dec.size] = dec
    at += dec.size
    if packs.size:
        ctx[X_PACKS_AT] = at
        ctx[at:at + packs.size] = packs
    ctx.setflags(write=False)
    return ctx


@functools.lru_cache(maxsize=64)
def context_of(profile) -> np.ndarray:
    """The context of a loaded profile, built once per profile object (profiles are
    themselves loaded once per rule set and variant)."""
    return build_context(profile)


def context_for(rules: str, variant: str | None = None) -> np.ndarray:
    """The context of ``rules`` / ``variant`` (a bundled variant name or a file path; None
    = the default table), built once per process."""
    return context_of(get_profile(get_rules(rules).name, variant))


def new_workspace(ctx: np.ndarray) -> np.ndarray:
    """A workspace for ``ctx`` (scratch for one thread's calls; reuse it)."""
    return np.zeros(int(ctx[X_WS_LEN]), dtype=np.int64)


def new_row() -> np.ndarray:
    return np.zeros(ROW_SIZE, dtype=np.int64)


# ---------------------------------------------------------------------------------------
# views (compiled)
# ---------------------------------------------------------------------------------------
@kernel(inline="always")
def profile_views(ctx):
    """The rule profile's arrays (``PROFILE_FIELDS`` order) as views of ``ctx``. Written
    out (the words of field ``k`` at ``X_FIELDS + 3 * k``: offset, rows, columns) rather
    than through :func:`_field`: each inlined call is a Numba inlining pass at compile
    time, and the scorers' hand functions make these views themselves."""
    f = X_FIELDS
    a0, a1, a2, a3, a4, a5 = ctx[f], ctx[f + 3], ctx[f + 6], ctx[f + 9], ctx[f + 12], ctx[f + 15]
    a6, a7, a8, a9, a10, a11 = (ctx[f + 18], ctx[f + 21], ctx[f + 24], ctx[f + 27], ctx[f + 30],
                                ctx[f + 33])
    a12 = ctx[f + 36]
    return (ctx[a0:a0 + ctx[f + 1]], ctx[a1:a1 + ctx[f + 4]], ctx[a2:a2 + ctx[f + 7]],
            grid(ctx[a3:], np.int64, ctx[f + 10], ctx[f + 11]), ctx[a4:a4 + ctx[f + 13]],
            ctx[a5:a5 + ctx[f + 16]], ctx[a6:a6 + ctx[f + 19]],
            grid(ctx[a7:], np.int64, ctx[f + 22], ctx[f + 23]), ctx[a8:a8 + ctx[f + 25]],
            ctx[a9:a9 + ctx[f + 28]], ctx[a10:a10 + ctx[f + 31]], ctx[a11:a11 + ctx[f + 34]],
            grid(ctx[a12:], np.int64, ctx[f + 37], ctx[f + 38]))


@kernel(inline="always")
def params_view(ctx):
    """The parameter block (slots ``C_*``) of ``ctx``."""
    return ctx[PARAMS_AT:PARAMS_AT + N_PARAMS]


@kernel(inline="always")
def workspace_views(ws):
    """``(divbuf int16[256, 14], work[10, 34], ft[128], wfans[256, 128], sc[16, 256],
    dscr[4, 8], place int16[8, 2], vec[4, 128], c[34])`` over ``ws``."""
    divbuf = grid(ws[W_DIVBUF:], np.int16, MAX_DIVISIONS, DIV_COLS)
    work = grid(ws[W_WORK:], np.int64, 10, 34)
    ft = ws[W_FT:W_FT + WS_COLS]
    wfans = grid(ws[W_WFANS:], np.int64, MAX_DIVISIONS, WS_COLS)
    sc = grid(ws[W_SC:], np.int64, 16, MAX_DIVISIONS)
    dscr = grid(ws[W_DSCR:], np.int64, 4, 8)
    place = grid(ws[W_PLACE:], np.int16, 8, 2)
    vec = grid(ws[W_VEC:], np.int64, 4, WS_COLS)
    c = ws[W_C:W_C + 34]
    return divbuf, work, ft, wfans, sc, dscr, place, vec, c


@kernel(inline="always")
def row_melds(row):
    return grid(row[R_MELDS:], np.int64, 5, 4)


@kernel(inline="always")
def as_rows(ctx_p, ws_p, rows_p, n, fans_p):
    """The arrays behind a scorer symbol's pointer arguments (:mod:`._symbols`): the
    context, the workspace, ``n`` hand rows (n, ROW_SIZE) and their fans (n, n_cols)."""
    head = as_array(ctx_p, X_FIELDS)
    ctx = as_array(ctx_p, head[X_LEN])
    ncols = ctx[X_NCOLS]
    return (ctx, as_array(ws_p, ctx[X_WS_LEN]),
            grid(as_array(rows_p, n * ROW_SIZE), np.int64, n, ROW_SIZE),
            grid(as_array(fans_p, n * ncols), np.int64, n, ncols))
