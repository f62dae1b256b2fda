"""The board's own entry points: a push or a pop as one compiled call.

Kept apart from ``entry``: the compile cache keys each file on what it imports, so the
board's calls compile on their own, and nothing else recompiles when they change.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core import makemove as _makemove
from plies.core import position as _position
from plies.core.encoding import BLACK, FLAG_SHIFT, KNIGHT, PROMOTION_BIT
from plies.core.movegen import gen_moves
from plies.core.position import Position

GREW = 1 << 20
"""Bit set in a push's result when the undo stack was reallocated (re-read the arrays)."""


@njit(cache=True, nogil=True)
def push_named(pos: Position, named: int, scratch: np.ndarray) -> int:
    """Play the legal move whose name is ``named`` (from | to << 6 | promotion kind << 12)
    and return its move integer (``| GREW`` if the undo stack grew); 0, and nothing played,
    when no legal move has that name.

    The move is checked against the generated legal moves, so no input reaches
    ``make_move`` unchecked.
    """
    count = gen_moves(pos, scratch, np.bool_(False))
    found = 0
    for i in range(count):
        m = scratch[i]
        name = m & 0xFFF
        if m & PROMOTION_BIT:
            name |= (((m >> FLAG_SHIFT) & 3) + KNIGHT) << 12
        if name == named:
            found = m
            break
    if found == 0:
        return 0
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, found)
    return found | GREW if grew else found


@njit(cache=True, nogil=True)
def push_code(pos: Position, m: int) -> int:
    """Play legal move integer ``m`` (from this position's own generated list); ``GREW`` if
    the undo stack was reallocated, else 0."""
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, m)
    return GREW if grew else 0


@njit(cache=True, nogil=True)
def pop_move(pos: Position) -> None:
    """Take back the last move, a null move included (its undo record tells)."""
    if _makemove.after_null(pos):
        _makemove.unmake_null(pos)
        if pos.side == BLACK:
            pos.fullmove -= 1
    else:
        _makemove.unmake_move(pos)


@njit(cache=True, nogil=True)
def push_pass(pos: Position) -> int:
    """Pass the move (a null move, counted in the move number as python-chess counts it);
    ``GREW`` if the undo stack was reallocated, else 0."""
    grew = _position.reserve(pos, np.int64(1))
    black = pos.side == BLACK
    _makemove.make_null(pos)
    if black:
        pos.fullmove += 1
    return GREW if grew else 0


@njit(cache=True, nogil=True)
def legal_into(pos: Position, out: np.ndarray) -> int:
    """Write the legal moves into ``out`` and return their number."""
    return gen_moves(pos, out, np.bool_(False))


@njit(cache=True, nogil=True)
def side_in_check(pos: Position) -> bool:
    """Whether the side to move is in check."""
    return _position.in_check(pos)
