"""``legal_prefix``: the legal start of a line of moves, decided as ``Board.is_legal`` does."""

from __future__ import annotations

import numpy as np

from plies.board import Board
from plies.board.board import core_to_move
from plies.core import MAX_MOVES, copy_position, legal_prefix

CAPTURE_BIT = 1 << 14


def _by_board(board: Board, line: list[int]) -> int:
    """Length of the legal prefix, replayed on a Board copy (the reference)."""
    scratch = board.copy()
    for n, code in enumerate(line):
        move = core_to_move(code)
        if not scratch.is_legal(move):
            return n
        scratch.push(move)
    return len(line)


def _line(board: Board, plies: int) -> list[int]:
    """The first legal move ``plies`` times over (a real line from the position)."""
    scratch = board.copy()
    line: list[int] = []
    for _ in range(plies):
        legal = scratch.core_legal()
        if not len(legal):
            break
        line.append(int(legal[-1]))
        scratch.push(core_to_move(line[-1]))
    return line


def test_legal_prefix_agrees_with_the_board() -> None:
    """Whole lines, lines broken in the middle, a wrong capture flag, a promotion renamed."""
    fens = (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/P6k/8/8/8/8/8/K7 w - - 0 1",
    )
    scratch = np.zeros(MAX_MOVES, dtype=np.int64)
    for fen in fens:
        board = Board(fen)
        line = _line(board, 12)
        promotion = [int(m) for m in board.core_legal() if m & (1 << 15)]
        variants = [
            line,
            [*line[:3], line[0], *line[3:]],
            [line[0] ^ CAPTURE_BIT, *line[1:]],
            [],
            [p ^ (1 << 12) for p in promotion[:1]] + line,
        ]
        for variant in variants:
            pos = copy_position(board.core_position())
            got = legal_prefix(pos, np.array(variant, dtype=np.int64), scratch)
            assert got == _by_board(board, variant), (fen, variant)
        assert board.fen() == fen


def test_legal_prefix_keeps_chess960_castling_apart_from_a_king_step() -> None:
    """King b1, rook a1: castling and the king's step both go b1-c1; each keeps its own."""
    board = Board("1k6/8/8/8/8/8/8/RK5R w Q - 0 1", chess960=True)
    legal = [int(m) for m in board.core_legal() if (int(m) & 0xFFF) == 1 | (2 << 6)]
    castle = next(m for m in legal if m >> 12 == 3)
    step = next(m for m in legal if m >> 12 == 0)
    reply = 57 | (58 << 6)  # b8c8
    rook_up = 3 | (51 << 6)  # d1d7: legal only once castling put the rook on d1
    scratch = np.zeros(MAX_MOVES, dtype=np.int64)
    for first, expected in ((castle, 3), (step, 2)):
        pos = copy_position(board.core_position())
        line = np.array([first, reply, rook_up], dtype=np.int64)
        assert legal_prefix(pos, line, scratch) == expected
