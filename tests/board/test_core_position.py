"""``Board.core_position()`` hands out a copy: nothing done to it reaches the board."""

from __future__ import annotations

import numpy as np

import plies.core as core
from plies.board import Board
from plies.core import position_arrays, position_state

FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _snapshot(board: Board) -> tuple[object, ...]:
    """Everything a caller can observe of a board."""
    return (board.fen(), board.zobrist_key(), [m.uci() for m in board.legal_moves],
            board.ply, [m.uci() for m in board.move_stack], board.is_check())  # fmt: skip


def test_mutating_the_core_position_leaves_the_board_alone() -> None:
    """Moves pushed, arrays overwritten, a net attached, the stack grown: the board, its
    history and its undo all stay as they were."""
    board = Board(FEN)
    board.push(board.legal_moves[0])
    before = _snapshot(board)
    pos = board.core_position()
    for move in core.legal_moves(pos)[:2]:
        core.push_move(pos, int(move))
    core.reserve(pos, 4096)
    pieces, squares, keys = position_arrays(pos)
    pieces[:] = 0
    squares[:] = 0
    keys[:] = np.uint64(12345)
    core.attach_net(pos, None)
    assert position_state(pos) != position_state(board.core_position())
    assert _snapshot(board) == before
    board.pop()
    assert board.fen() == FEN
    assert _snapshot(board) != before


def test_each_call_is_a_fresh_copy() -> None:
    """Two calls give two positions: changing one does not change the other."""
    board = Board()
    first, second = board.core_position(), board.core_position()
    core.push_move(first, int(core.legal_moves(first)[0]))
    assert position_state(second) == position_state(board.core_position())
    assert position_arrays(second)[1].tolist() == position_arrays(board.core_position())[1].tolist()
