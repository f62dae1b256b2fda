"""numba's BLAS probe: the board imports no SciPy; a user's compiled np.dot still works."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

PROGRAM = """
import sys
import plies
board = plies.Board()
board.push_san("e4")
assert board.is_check() is False
print("scipy.linalg" in sys.modules)
import numba
import numpy as np

@numba.njit
def dot(a, b):
    return np.dot(a, b)

print(dot(np.arange(3.0), np.arange(3.0)))
"""


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None, reason="SciPy is not installed")
def test_the_board_loads_no_scipy_and_numba_dot_still_works() -> None:
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "5.0"]
