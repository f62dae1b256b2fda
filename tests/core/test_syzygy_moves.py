"""The prober's own move rules agree with python-chess's legal moves."""

from __future__ import annotations

import random

import chess
import numpy as np
from tests.tb.positions import random_position

from plies.core.syzygy_moves import (
    MAX_CAPTURES,
    gen_captures,
    gen_ep_captures,
    has_legal_move_but_ep,
    play,
)
from plies.tb import board_arrays


def _positions(count: int, seed: int) -> list[chess.Board]:
    """Positions from random games, castling rights dropped (tables have none), some sparse."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Prefer captures so that games reach few-man endings.
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.7 else moves))
        board.castling_rights = chess.BB_EMPTY
        if board.is_valid():
            boards.append(board)
    return boards


def _legal(bbs: np.ndarray, side: int, moves: np.ndarray, n: int) -> set[tuple[int, int, int]]:
    """The (from, to, promotion) triples among ``moves[:n]`` that ``play`` accepts."""
    out = np.empty(16, dtype=np.uint64)
    legal = set()
    for i in range(n):
        m = int(moves[i])
        if play(bbs, out, np.int64(side), np.int64(m)):
            legal.add((m & 63, (m >> 6) & 63, m >> 12))
    return legal


def test_captures_and_en_passant_match_python_chess() -> None:
    """Legal captures (promotions split), en-passant captures and 'any other move' agree."""
    moves = np.empty(MAX_CAPTURES, dtype=np.int64)
    scratch = np.empty(16, dtype=np.uint64)
    with_ep = 0
    rng = random.Random(4)
    sparse = [
        random_position(rng.choice(["KPvKP", "KRPPvKBPP", "KQPvKNPP"]), rng, swap=False)
        for _ in range(300)
    ]
    for board in _positions(300, seed=3) + sparse:
        bbs, side, ep = board_arrays(board)
        n = gen_captures(bbs, np.int64(side), moves)
        expected = {
            (m.from_square, m.to_square, m.promotion or 0)
            for m in board.legal_moves
            if board.is_capture(m) and not board.is_en_passant(m)
        }
        assert _legal(bbs, side, moves, n) == expected, board.fen()
        n = gen_ep_captures(bbs, np.int64(side), np.int64(ep), moves)
        expected_ep = {
            (m.from_square, m.to_square, 0) for m in board.legal_moves if board.is_en_passant(m)
        }
        assert _legal(bbs, side, moves, n) == expected_ep, board.fen()
        with_ep += bool(expected_ep)
        other = any(not board.is_en_passant(m) for m in board.legal_moves)
        assert has_legal_move_but_ep(bbs, np.int64(side), scratch) == other, board.fen()
    assert with_ep > 0


def test_only_en_passant_is_legal() -> None:
    """Black's only legal move is the en-passant capture: 'any other move' says no."""
    board = chess.Board("8/8/2B5/8/Pp6/1K6/1R6/k7 b - a3 0 1")
    assert [m.uci() for m in board.legal_moves] == ["b4a3"]
    bbs, side, _ = board_arrays(board)
    scratch = np.empty(16, dtype=np.uint64)
    assert not has_legal_move_but_ep(bbs, np.int64(side), scratch)
    board.ep_square = None
    bbs, side, _ = board_arrays(board)
    assert not has_legal_move_but_ep(bbs, np.int64(side), scratch)
    board.push(chess.Move.null())
    bbs, side, _ = board_arrays(board)
    assert has_legal_move_but_ep(bbs, np.int64(side), scratch)
