"""Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply."""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.encoding import MAX_MOVES
from plies.core.makemove import make_move, unmake_move
from plies.core.movegen import count_moves, gen_moves
from plies.core.position import Position, reserve


@njit(cache=True, nogil=True, _nrt=False)
def _perft(pos: Position, moves: np.ndarray, depth: int) -> int:
    """Recursive perft using row ``depth`` of ``moves`` as this ply's move buffer."""
    if depth == 1:
        return count_moves(pos, moves[0])
    buf = moves[depth]
    n = gen_moves(pos, buf, np.bool_(False))
    total = 0
    for i in range(n):
        make_move(pos, buf[i])
        total += _perft(pos, moves, depth - 1)
        unmake_move(pos)
    return total


@njit(cache=True, nogil=True)
def perft(pos: Position, depth: int) -> int:
    """Number of leaf nodes ``depth`` plies below the position (1 at depth 0)."""
    if depth <= 0:
        return 1
    reserve(pos, depth)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    return _perft(pos, moves, depth)


@njit(cache=True, nogil=True)
def divide(pos: Position, depth: int, out_moves: np.ndarray, out_counts: np.ndarray) -> int:
    """Perft split by root move: fill ``out_moves``/``out_counts``; return the move count."""
    reserve(pos, depth)
    moves = np.zeros((max(depth, 1) + 1, MAX_MOVES), dtype=np.int64)
    n = gen_moves(pos, out_moves, np.bool_(False))
    for i in range(n):
        if depth <= 1:
            out_counts[i] = 1
            continue
        make_move(pos, out_moves[i])
        out_counts[i] = _perft(pos, moves, depth - 1)
        unmake_move(pos)
    return n
