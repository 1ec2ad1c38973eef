"""Private compiled kernels (Numba and Cython): the compiled layer the packages above use.

What other packages import from here: the ``kernel`` decorator (how the package compiles,
:mod:`._jit`) and the names listed in ``__all__``; the modules themselves stay private.
"""
from ._jit import as_array, kernel, ptr, python_function

__all__ = ["as_array", "kernel", "ptr", "python_function"]
