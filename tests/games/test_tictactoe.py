"""Tic-tac-toe: the classic facts, computed; rules on other board sizes; typed moves."""

from __future__ import annotations

import pytest

from plies.games.alphabeta import alphabeta
from plies.games.census import census
from plies.games.solver import Solver
from plies.games.tictactoe import TicTacToe, TicTacToeState
from plies.games.ttable import TranspositionTable


def play(game: TicTacToe, *cells: str) -> TicTacToeState:
    """Return the state after the moves typed as ``cells`` (``b2`` ...)."""
    state = game.initial_state()
    for text in cells:
        state = game.result(state, game.parse_action(state, text))
    return state


def test_census_of_classic_tictactoe() -> None:
    """255,168 games (131,184 X wins, 77,904 O wins, 46,080 draws), 5,478 positions, 958 ends."""
    c = census(TicTacToe())
    assert c.games == 255_168
    assert c.wins == (131_184, 77_904)
    assert c.draws == 46_080
    assert c.positions == 5_478
    assert c.terminal == 958


def test_value_of_classic_tictactoe_is_a_draw() -> None:
    """Perfect play from the empty board draws, after all nine cells are filled."""
    assert Solver(TicTacToe()).solve(TicTacToe().initial_state()) == (0.0, 9)


def test_three_in_a_row_on_four_by_three_is_a_first_player_win() -> None:
    """A wider board gives X enough room: the (4,3,3)-game is a win for the first player."""
    game = TicTacToe(4, 3, 3)
    result = alphabeta(game, game.initial_state(), tt=TranspositionTable())
    assert result.value == 1.0 and result.exact


def test_wins_in_every_direction_and_draw() -> None:
    """Rows, columns and both diagonals win; a full board without a line is a draw."""
    game = TicTacToe()
    lines = {
        "row": ("a1", "a2", "b1", "b2", "c1"),
        "column": ("a1", "b1", "a2", "b2", "a3"),
        "diagonal": ("a1", "b1", "b2", "c1", "c3"),
        "anti-diagonal": ("c1", "b1", "b2", "a1", "a3"),
    }
    for moves in lines.values():
        state = play(game, *moves)
        assert game.is_terminal(state) and state.winner == 0
        assert game.utility(state, 0) == 1.0 and game.utility(state, 1) == -1.0
        assert game.actions(state) == []
    draw = play(game, "a3", "b2", "c3", "b3", "b1", "a1", "a2", "c2", "c1")
    assert game.is_terminal(draw) and draw.winner is None
    assert game.utility(draw, 0) == game.utility(draw, 1) == 0.0


def test_longer_lines_on_bigger_boards() -> None:
    """With k=4 on 5x5, three in a row is not enough and four is, even off the edges."""
    game = TicTacToe(5, 5, 4)
    state = play(game, "b2", "a1", "c3", "a2", "d4")
    assert not game.is_terminal(state)
    state = game.result(state, game.parse_action(state, "a3"))
    state = game.result(state, game.parse_action(state, "e5"))
    assert state.winner == 0


def test_states_are_never_changed_by_moves() -> None:
    """``result`` returns a new state; the old one still shows the old board."""
    game = TicTacToe()
    start = game.initial_state()
    after = game.result(start, 4)
    assert start.cells == (0,) * 9 and after.cells[4] == 1
    assert game.to_move(start) == 0 and game.to_move(after) == 1
    with pytest.raises(ValueError):
        game.result(after, 4)


def test_typed_moves_and_their_explanations() -> None:
    """Coordinates and numbers are read; bad input is refused with a one-line reason."""
    game = TicTacToe()
    state = play(game, "b2")
    assert game.parse_action(state, " A3 ") == 0
    assert game.parse_action(state, "9") == 8
    assert game.action_text(8) == "c1"
    cases = {
        "b2": "b2 is taken by X",
        "5": "b2 is taken by X",
        "d1": "not a cell",
        "a4": "not a cell",
        "10": "no cell 10",
        "hello": "not a cell",
        "": "not a cell",
    }
    for text, reason in cases.items():
        with pytest.raises(ValueError, match=reason) as info:
            game.parse_action(state, text)
        assert "\n" not in str(info.value)


def test_render_labels_rows_and_columns() -> None:
    """The picture shows marks, row numbers at the left and column letters underneath."""
    game = TicTacToe()
    assert game.render(play(game, "a3", "b2")) == "3 X . .\n2 . O .\n1 . . .\n  a b c"


def test_bad_sizes_are_refused() -> None:
    """A board too large to name, or a k that cannot fit, is a clear error."""
    with pytest.raises(ValueError, match="k must be"):
        TicTacToe(3, 3, 4)
    with pytest.raises(ValueError, match="wide"):
        TicTacToe(27, 3, 3)


def test_heuristic_prefers_open_lines_and_stays_inside_the_unit_interval() -> None:
    """Two in an open row outscores the opponent's scattered marks, and never reaches 1."""
    game = TicTacToe(5, 5, 4)
    state = play(game, "b2", "e5", "c2", "a5", "d2")
    assert 0 < game.evaluate(state, 0) < 1
    assert game.evaluate(state, 1) == -game.evaluate(state, 0)
