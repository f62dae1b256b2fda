"""Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply."""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.movegen import count_moves, gen_moves
from plies.core.position import make_move, unmake_move
from plies.core.types import MAX_MOVES


@njit(cache=True)
def _perft(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    moves: np.ndarray,
    depth: int,
) -> int:
    """Recursive perft using row ``depth`` of ``moves`` as this ply's move buffer."""
    if depth == 1:
        return count_moves(bb, mb, st, att)
    buf = moves[depth]
    n = gen_moves(bb, mb, st, att, buf, False)
    total = 0
    for i in range(n):
        make_move(bb, mb, st, hist, keys, buf[i])
        total += _perft(bb, mb, st, hist, keys, att, moves, depth - 1)
        unmake_move(bb, mb, st, hist, keys)
    return total


@njit(cache=True)
def perft(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    depth: int,
) -> int:
    """Number of leaf nodes ``depth`` plies below the position (1 at depth 0)."""
    if depth <= 0:
        return 1
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    return _perft(bb, mb, st, hist, keys, att, moves, depth)


@njit(cache=True)
def divide(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    depth: int,
    out_moves: np.ndarray,
    out_counts: np.ndarray,
) -> int:
    """Perft split by root move: fill ``out_moves``/``out_counts``; return the move count."""
    moves = np.zeros((max(depth, 1) + 1, MAX_MOVES), dtype=np.int64)
    n = gen_moves(bb, mb, st, att, out_moves, False)
    for i in range(n):
        if depth <= 1:
            out_counts[i] = 1
            continue
        make_move(bb, mb, st, hist, keys, out_moves[i])
        out_counts[i] = _perft(bb, mb, st, hist, keys, att, moves, depth - 1)
        unmake_move(bb, mb, st, hist, keys)
    return n
