"""Draws the search recognises: the fifty-move rule, repetitions, bare minor pieces.

One recurrence of a position (game history included) already scores as a draw,
not the threefold the rules ask for: a side that could repeat once can repeat again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ZERO, popcount
from plies.core.encoding import BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE, piece_code
from plies.core.movegen import gen_moves
from plies.core.position import Position, in_check
from plies.core.undo import UNDO_MOVE


@njit(cache=True, nogil=True, _nrt=False)
def is_draw(pos: Position) -> bool:
    """Fifty-move rule, any repetition (game history included), or bare minor pieces.

    The caller must still rule out checkmate when the halfmove clock reached 100.
    """
    half = pos.halfmove
    if half >= 100:
        return True
    p = pos.ply
    key = pos.keys[p]
    undo = pos.undo
    low = max(p - half, 0)
    i = p - 2
    while i >= low:
        # A null move (recorded as move 0) breaks the line: positions before it
        # were not reached by moves, so the same key there is no repetition.
        if undo[i + 1, UNDO_MOVE] == 0 or undo[i, UNDO_MOVE] == 0:
            break
        if i <= p - 4 and pos.keys[i] == key:
            return True
        i -= 2
    bb = pos.pieces
    heavy = ZERO
    for kind in (PAWN, ROOK, QUEEN):
        heavy |= bb[piece_code(WHITE, kind)] | bb[piece_code(BLACK, kind)]
    if heavy == ZERO:
        minors = ZERO
        for kind in (KNIGHT, BISHOP):
            minors |= bb[piece_code(WHITE, kind)] | bb[piece_code(BLACK, kind)]
        if popcount(minors) <= 1:
            return True
    return False


@njit(cache=True, inline="always")
def mated_at_fifty(pos: Position, scratch: np.ndarray) -> bool:
    """A mate given by the move that reaches the fifty-move limit is still a mate."""
    # gen_moves, not count_moves: the search compiles gen_moves anyway, and a second
    # generator would add seconds to every cold start for a check that almost never runs.
    # ``scratch`` is this node's own move buffer, filled only later.
    return pos.halfmove >= 100 and in_check(pos) and gen_moves(pos, scratch, np.bool_(False)) == 0
