"""Perft and divide over a ``Board``, counted by the compiled core."""

from __future__ import annotations

import numpy as np

from plies.board.state import BoardState
from plies.core import perft_divide, perft_nodes
from plies.core.encoding import MAX_MOVES


def perft(board: BoardState, depth: int) -> int:
    """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    return int(perft_nodes(board.core_position(), depth))


def divide(board: BoardState, depth: int) -> dict[str, int]:
    """Perft split by root move: UCI string of each legal move to its subtree count."""
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, got {depth}")
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    counts = np.zeros(MAX_MOVES, dtype=np.int64)
    n = perft_divide(board.core_position(), depth, moves, counts)
    return {board.move_of(int(moves[i])).uci(): int(counts[i]) for i in range(n)}
