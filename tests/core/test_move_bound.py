"""Move buffers: the proven bound, positions at the limit, and the generator's overflow guard."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from plies import Board
from plies.core import encoding
from plies.core.movegen import count_moves, gen_moves

# The two known positions with 218 legal moves, the most any reachable position has.
MOST_MOVES = [
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "3Q4/1Q4Q1/4Q3/2Q4R/Q4Q2/3Q4/1Q4Rp/1K1BBNNk w - - 0 1",
]


def test_bound_covers_the_argument() -> None:
    """Buffers hold at least the bound: 15 pieces of at most 27 moves, 8 king steps, 2 castlings."""
    assert encoding.MAX_LEGAL_MOVES == 415
    assert encoding.MAX_MOVES >= encoding.MAX_LEGAL_MOVES


@pytest.mark.parametrize("fen", MOST_MOVES)
def test_known_218_move_positions(fen: str) -> None:
    """Exactly 218 legal moves, the same ones python-chess finds."""
    board = Board(fen)
    ours = sorted(m.uci() for m in board.legal_moves)
    theirs = sorted(m.uci() for m in chess.Board(fen).legal_moves)
    assert len(ours) == 218
    assert ours == theirs


def test_guard_refuses_a_short_buffer_without_writing_past_it() -> None:
    """A buffer too small for the moves raises IndexError; the slots after it stay untouched."""
    pos = Board(MOST_MOVES[0]).core_position()
    backing = np.full(300, -7, dtype=np.int64)
    with pytest.raises(IndexError, match="move buffer overflow"):
        gen_moves(pos, backing[:100], False)
    assert (backing[100:] == -7).all()
    assert count_moves(pos, backing[:100]) == 218
    exact = np.zeros(218, dtype=np.int64)
    assert gen_moves(pos, exact, False) == 218


@pytest.mark.parametrize("size", [0, 1, 5, 217])
def test_guard_at_every_size(size: int) -> None:
    """Buffers shorter than the move list raise, whatever their size, and stay in bounds."""
    pos = Board(MOST_MOVES[1]).core_position()
    backing = np.full(size + 50, -7, dtype=np.int64)
    with pytest.raises(IndexError, match="move buffer overflow"):
        gen_moves(pos, backing[:size], False)
    assert (backing[size:] == -7).all()
