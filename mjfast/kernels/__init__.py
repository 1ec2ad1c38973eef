"""Private compiled kernels (Numba and Cython): the compiled layer the packages above use.

Other packages import from here only the names in ``__all__``; the modules stay private.
This face imports only the *interfaces* of the compiled code (how it compiles, the context
layout, the scorer symbols' entry, settlement), never a scorer's implementation: a
function's cache stamp covers every module it imports at module level, so an edit to a fan
predicate must not reach the engine through here (see :mod:`._cache`).

- compiling: :func:`kernel` (for ``@njit``), :func:`ptr`, :func:`as_array`,
  :func:`python_function`, and linked symbols: :func:`external` (declare one, in a
  package's ``_symbols`` module) and :func:`export` (compile its implementation once);
- the context, workspace and hand row (:mod:`._context`): ``C_*`` parameter slots,
  ``R_*`` row fields, ``X_*`` header words, :func:`context_for`, :func:`build_context`,
  :func:`new_workspace`, :func:`new_row`, :func:`params_view`, ``ROW_SIZE``;
- scoring: :func:`score_row` (one hand, any rule set, through the linked symbols) and
  :func:`score_batch_rows` (the batch loop over it), :func:`score_pairs_rows` (the waits
  of ready hands, each scored on a discard and a self-draw in one pass) with
  :func:`meld_tile_counts`, and the serial loops on scratch a caller keeps
  (:func:`batch_scratch`, :func:`score_batch_scratch`, :func:`score_pairs_scratch`: the
  one-hand paths); the one completeness test
  (:func:`is_regular`, :func:`maybe_complete`);
- settlement (:mod:`._settle`): :func:`settle_win`, :func:`settle_win_gross`,
  :func:`settle_flower_win`, :func:`settle_kong`, :func:`settle_kong_gross`, :func:`fee`,
  :func:`taiwan_win_extras` (a Taiwan batch's dealer bonus and winner's gain);
- shanten and waits (:mod:`._shanten`): the row functions (:func:`load_parts`,
  :func:`hand_forms`, :func:`hand_waits`, :func:`shanten_row`, :func:`waits_row`,
  :func:`hand_shanten`, :func:`hand_waits_of`, :func:`discard_options`, ...) and the batch
  kernels that loop over them (:func:`shanten_batch`, :func:`waits_batch`), their tables
  (:func:`shanten_tables`; the class-table constants ``CLASS_MASK``, ``CLASS_DISABLED``,
  ``HONOR_BASE`` and the knitted permutations ``KNITTED_PERMS`` for the bots' targets). A module's cache stamp follows the names it imports from here
  to the submodule that defines them (:mod:`._cache`), so importing :func:`kernel` does not
  make it depend on the shanten row.
"""
from ._context import (C_BASE, C_BONUS, C_BONUS_NONDEALER_TSUMO, C_BONUS_STREAK, C_CHIPS,
                       C_CHOW, C_DEAD, C_DEALER_REPEAT, C_DISCARD_ALL, C_EIGHT_FL_ID,
                       C_EIGHT_FL_POINTS, C_FALSE_WIN, C_FAN_CAP, C_FEE_DEN, C_FEE_NUM,
                       C_FLOWER_COL, C_FLOWER_POINTS, C_FLOWERS, C_FLOWERS_TO_MIN,
                       C_FORM_MASK, C_HAND, C_HEAVEN, C_KIND_MASK, C_KONG_ADDED,
                       C_KONG_COMBO, C_KONG_CONCEALED, C_KONG_OPEN, C_MINIMUM,
                       C_MISSED_RULE, C_MULTI_RON, C_N_FANS, C_PLAYERS, C_RULES, C_SEAT_PAY,
                       C_SETS, C_SEVEN_FL_ID, C_SEVEN_FL_POINTS, C_UNIT, C_WALL_SIZE,
                       N_PARAMS, PARAMS_AT, R_COUNTS, R_DEALER, R_DISCARDER, R_EXTRA,
                       R_FLAGS, R_FLOWERS, R_LEGAL, R_MELDS, R_N_MELDS, R_PREVALENT, R_SEAT,
                       R_STREAK, R_TABLE_DISCARDS, R_TOTAL, R_WIN, ROW_SIZE, X_CODE, X_FIELDS,
                       X_LEN, X_NCOLS, X_WS_LEN, build_context, context_for, context_of, new_row, new_workspace,
                       params_view)
from ._complete import is_regular, maybe_complete
from ._decompose import KNITTED_PERMS
from ._jit import as_array, export, external, kernel, ptr, python_function
from ._score_rows import (batch_scratch, meld_tile_counts, score_batch_range, score_batch_rows,
                          score_batch_scratch, score_pairs_range, score_pairs_rows,
                          score_pairs_scratch, score_row, score_rows)
from ._settle import (fee, settle_flower_win, settle_kong, settle_kong_gross, settle_win,
                      settle_win_gross, taiwan_win_extras)
from ._shanten import (BAD_COUNT, BAD_TILE, BAD_TOTAL, BAD_WAIT_TOTAL, D_LIVE, D_SHANTEN,
                       D_TILE, MODE_EXACT, MODE_MIN, MODE_TIES, N_FORMS, NO_FORM,
                       discard_options, hand_codes, hand_forms, hand_shanten, hand_waits,
                       hand_waits_of, load_parts, replace_code, replace_part, row_scratch,
                       shanten_batch, shanten_row, shanten_tables, waits_batch, waits_row)
from ._shanten_tables import CLASS_DISABLED, CLASS_MASK, HONOR_BASE

__all__ = [
    "kernel", "ptr", "as_array", "python_function", "export", "external",
    "build_context", "context_for", "context_of", "new_workspace", "new_row", "params_view",
    "N_PARAMS", "PARAMS_AT", "ROW_SIZE", "X_CODE", "X_FIELDS", "X_LEN", "X_NCOLS", "X_WS_LEN",
    "C_BASE", "C_BONUS", "C_BONUS_NONDEALER_TSUMO", "C_BONUS_STREAK", "C_CHIPS", "C_CHOW",
    "C_DEAD", "C_DEALER_REPEAT", "C_DISCARD_ALL", "C_EIGHT_FL_ID", "C_EIGHT_FL_POINTS",
    "C_FALSE_WIN", "C_FAN_CAP", "C_FEE_DEN", "C_FEE_NUM", "C_FLOWER_COL", "C_FLOWER_POINTS",
    "C_FLOWERS", "C_FLOWERS_TO_MIN", "C_FORM_MASK", "C_HAND", "C_HEAVEN", "C_KIND_MASK",
    "C_KONG_ADDED", "C_KONG_COMBO", "C_KONG_CONCEALED", "C_KONG_OPEN", "C_MINIMUM",
    "C_MISSED_RULE", "C_MULTI_RON", "C_N_FANS", "C_PLAYERS", "C_RULES", "C_SEAT_PAY",
    "C_SETS", "C_SEVEN_FL_ID", "C_SEVEN_FL_POINTS", "C_UNIT", "C_WALL_SIZE",
    "R_COUNTS", "R_DEALER", "R_DISCARDER", "R_EXTRA", "R_FLAGS", "R_FLOWERS", "R_LEGAL",
    "R_MELDS", "R_N_MELDS", "R_PREVALENT", "R_SEAT", "R_STREAK", "R_TABLE_DISCARDS",
    "R_TOTAL", "R_WIN",
    "score_row", "score_rows", "score_batch_rows", "score_batch_range", "score_pairs_rows",
    "score_pairs_range", "batch_scratch", "score_batch_scratch", "score_pairs_scratch",
    "meld_tile_counts", "is_regular", "maybe_complete",
    "fee", "settle_flower_win", "settle_kong", "settle_kong_gross", "settle_win",
    "settle_win_gross", "taiwan_win_extras",
    "shanten_tables", "row_scratch", "hand_codes", "replace_code", "load_parts",
    "replace_part", "hand_forms", "hand_waits", "shanten_row", "waits_row", "hand_shanten",
    "hand_waits_of", "discard_options", "shanten_batch", "waits_batch", "MODE_EXACT",
    "MODE_MIN", "MODE_TIES", "N_FORMS", "NO_FORM", "D_TILE", "D_SHANTEN", "D_LIVE",
    "BAD_COUNT", "BAD_TOTAL", "BAD_TILE", "BAD_WAIT_TOTAL",
    "CLASS_DISABLED", "CLASS_MASK", "HONOR_BASE", "KNITTED_PERMS",
]
