"""Entry points for the Python layer: reference-counted wrappers of the uncounted functions.

A function compiled with ``_nrt=False`` updates no reference counts, and that
includes the wrapper numba generates for calls from Python: the reference it
takes on a structref argument when unboxing it is never released. Each Python
call of such a function with a fresh ``Position`` would keep the position
(with its undo stack) alive forever: an engine process would grow with every
``go`` (a copied position per search and per reported line) until a long match
ran out of memory (``MemInfo.refcount`` rises by one per call). These
wrappers are compiled with reference counting, so the caller's reference is
released; inside them the uncounted functions run as before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core import makemove as _makemove
from plies.core import position as _position
from plies.core.movegen import gen_moves
from plies.core.position import Position


@njit(cache=True, nogil=True)
def gen_legal(pos: Position, out: np.ndarray) -> int:
    """Write the legal moves into ``out`` and return their number."""
    return gen_moves(pos, out, np.bool_(False))


@njit(cache=True, nogil=True)
def in_check(pos: Position) -> bool:
    """Whether the side to move is in check."""
    return _position.in_check(pos)


@njit(cache=True, nogil=True)
def opponent_in_check(pos: Position) -> bool:
    """Whether the side not to move is in check (an illegal position)."""
    return _position.opponent_in_check(pos)


@njit(cache=True, nogil=True)
def unmake_move(pos: Position) -> None:
    """Take back the last move."""
    _makemove.unmake_move(pos)
