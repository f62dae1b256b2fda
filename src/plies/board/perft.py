"""Perft and divide over a ``Board``, counted by the compiled core."""

from __future__ import annotations

import numpy as np

from plies.board.board import Board, _core_to_move
from plies.core import perft as core_perft
from plies.core.tables import SLIDER_ATTACKS
from plies.core.types import MAX_MOVES


def _arrays(board: Board, depth: int) -> tuple[np.ndarray, ...]:
    """Copies of the board's arrays with room for ``depth`` more plies."""
    bb, mb, st, hist, keys = board.core_arrays()
    need = int(st[5]) + depth + 2
    if hist.shape[0] < need:
        hist = np.concatenate([hist, np.zeros((need - hist.shape[0], hist.shape[1]), np.int64)])
        keys = np.concatenate([keys, np.zeros(need + 1 - keys.shape[0], np.uint64)])
    return bb, mb, st, hist, keys


def perft(board: Board, depth: int) -> int:
    """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    bb, mb, st, hist, keys = _arrays(board, depth)
    return int(core_perft.perft(bb, mb, st, hist, keys, SLIDER_ATTACKS, depth))


def divide(board: Board, depth: int) -> dict[str, int]:
    """Perft split by root move: UCI string of each legal move to its subtree count."""
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, got {depth}")
    bb, mb, st, hist, keys = _arrays(board, depth)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    counts = np.zeros(MAX_MOVES, dtype=np.int64)
    n = core_perft.divide(bb, mb, st, hist, keys, SLIDER_ATTACKS, depth, moves, counts)
    return {_core_to_move(int(moves[i])).uci(): int(counts[i]) for i in range(n)}
