"""Private compiled kernels (Numba and Cython): the compiled layer the packages above use.

What other packages import from here: the ``kernel`` decorator (how the package compiles,
:mod:`._jit`) and the names listed in ``__all__``; the modules themselves stay private.
"""
from ._jit import as_array, kernel, ptr, python_function
from ._shanten import (BAD_COUNT, BAD_TILE, BAD_TOTAL, BAD_WAIT_TOTAL, D_LIVE, D_SHANTEN,
                       D_TILE, MODE_EXACT, MODE_MIN, MODE_TIES, N_FORMS, NO_FORM,
                       discard_options, hand_codes, hand_forms, hand_shanten, hand_waits,
                       hand_waits_of, load_parts, replace_code, replace_part, row_scratch,
                       shanten_batch, shanten_row, shanten_tables, waits_batch, waits_row)

__all__ = ["as_array", "kernel", "ptr", "python_function",
           # shanten and waits (:mod:`._shanten`): the row functions, the batch kernels
           "shanten_tables", "row_scratch", "hand_codes", "replace_code", "load_parts",
           "replace_part", "hand_forms", "hand_waits", "shanten_row", "waits_row",
           "hand_shanten", "hand_waits_of", "discard_options", "shanten_batch", "waits_batch",
           "MODE_EXACT", "MODE_MIN", "MODE_TIES", "N_FORMS", "NO_FORM", "D_TILE", "D_SHANTEN",
           "D_LIVE", "BAD_COUNT", "BAD_TOTAL", "BAD_TILE", "BAD_WAIT_TOTAL"]
