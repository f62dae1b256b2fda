"""Every search the web app starts has an end: chess searches get a time cap even with a
depth, the small games' searches stop at theirs (MCTS, minimax, all of them)."""

from __future__ import annotations

import pytest

from plies.engine import Limit
from plies.web.errors import ApiError
from plies.web.games import computer_move
from plies.web.runner import capped


def test_a_depth_only_limit_gets_a_time_cap() -> None:
    """Depth 40 alone would run for hours: the cap becomes its move time."""
    limit = capped(Limit(depth=40), 1500)
    assert limit.depth == 40 and limit.movetime == 1500 and not limit.is_unbounded()
    assert capped(Limit(movetime=60_000), 1000).movetime == 1000
    assert capped(Limit(movetime=200), 1000).movetime == 200
    assert capped(Limit(infinite=True), 1000).movetime == 1000
    assert not capped(Limit(infinite=True), 1000).infinite


def test_mcts_playouts_stop_at_the_cap() -> None:
    """50,000 playouts asked, a cap of a microsecond given (no machine plays them in it; at
    least one always runs): the search ends with fewer."""
    answer = computer_move(
        {"game": "connect4", "algorithm": "mcts", "playouts": 50_000, "moves": []}, cap_s=1e-6
    )
    assert 0 < answer["playouts"] < 50_000


def test_minimax_past_the_cap_is_an_error() -> None:
    """Minimax to the end of tic-tac-toe (half a million nodes) cannot meet a zero cap on
    any machine: a clear error, no answer."""
    with pytest.raises(ApiError, match="did not finish"):
        computer_move({"game": "tictactoe", "algorithm": "minimax", "moves": []}, cap_s=0.0)
    answer = computer_move({"game": "tictactoe", "algorithm": "minimax", "moves": [0, 4, 8, 2]})
    assert answer["action"] == 6  # the one move that stops O's diagonal
