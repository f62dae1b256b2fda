"""Search rules found in review: mate on the fiftieth move, repetitions across a null move."""

from __future__ import annotations

import numpy as np

from plies import Board, Engine, Limit
from plies.board import parse_square
from plies.core import position_arrays
from plies.core.draws import is_draw
from plies.core.makemove import make_move, make_null
from plies.core.position import Position, reserve
from plies.engine.score import Cp, Mate


def test_mate_on_the_move_reaching_fifty_moves_is_a_mate(engine: Engine) -> None:
    """Ra8# with the halfmove clock at 99: every other move draws, the mate still wins."""
    board = Board("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    mate = board.parse_uci("a1a8")
    after = board.copy()
    after.push(mate)
    assert after.halfmove_clock == 100 and after.is_checkmate()
    for depth in (1, 2, 5):
        engine.new_game()
        result = engine.search(board, Limit(depth=depth))
        assert result.move == mate, depth
        assert result.score is not None and result.score.relative == Mate(1), depth


def test_quiet_move_reaching_fifty_moves_is_a_draw(engine: Engine) -> None:
    """Without a mate, every move at clock 99 reaches the fifty-move draw: score 0."""
    board = Board("7k/8/5K2/8/8/8/8/R7 w - - 99 80")
    engine.new_game()
    result = engine.search(board, Limit(depth=4))
    assert result.score is not None and result.score.relative == Cp(0)


def _after(moves: list[str | None]) -> tuple[Position, np.ndarray]:
    """The core position and its keys after quiet UCI moves from the start (None: pass)."""
    board = Board()
    pos = board.core_position()
    reserve(pos, len(moves))
    for text in moves:
        if text is None:
            make_null(pos)
        else:
            # Quiet moves only: the move integer is just from | to << 6 (flag 0).
            make_move(pos, parse_square(text[:2]) | parse_square(text[2:]) << 6)
    return pos, position_arrays(pos)[2]


def test_repetition_across_a_null_move_is_not_a_draw() -> None:
    """Nf3, pass, Ng1, pass brings back the start position's key, but not by moves."""
    pos, keys = _after(["g1f3", None, "f3g1", None])
    assert keys[4] == keys[0]
    assert not is_draw(pos)


def test_repetition_by_moves_is_a_draw() -> None:
    """Nf3 Nf6 Ng1 Ng8 repeats the start position: a draw for the search."""
    pos, keys = _after(["g1f3", "g8f6", "f3g1", "f6g8"])
    assert keys[4] == keys[0]
    assert is_draw(pos)


def test_repetition_before_a_null_move_is_not_seen_after_it() -> None:
    """A repetition completed before a null move does not make positions after it draws."""
    pos, keys = _after(["g1f3", "g8f6", "f3g1", "f6g8", None, "g8f6", None, "f6g8"])
    assert keys[8] == keys[4]
    assert not is_draw(pos)
