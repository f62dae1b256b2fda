"""numba's BLAS probe, answered without importing SciPy.

The first compiled call of a process loads ``numba.np.arraymath``, which imports
``scipy.linalg`` only to learn whether a BLAS exists. With SciPy installed that import
costs about a third of a second in every process that touches the board, and plies's
compiled code calls no BLAS. The probe is answered from whether SciPy is installed,
without importing it; numba's linear algebra still imports SciPy when a user's own
compiled code first asks for it.
"""

from __future__ import annotations

import importlib.util
import sys

_PROBED = "scipy.linalg.cython_blas"


def answer_blas_probe() -> None:
    """Load ``numba.np.arraymath`` with its BLAS probe answered, unless already loaded."""
    if "numba.np.arraymath" in sys.modules or _PROBED in sys.modules:
        return
    sys.modules[_PROBED] = None  # type: ignore[assignment]  # makes the import fail fast
    try:
        import numba.np.arraymath as arraymath
    finally:
        del sys.modules[_PROBED]
    arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None
