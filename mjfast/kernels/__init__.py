"""Private compiled kernels (Numba and Cython). No public names here."""
from . import _config  # noqa: F401  (sets the Numba cache dir before Numba loads)
