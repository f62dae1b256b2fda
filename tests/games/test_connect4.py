"""Connect four on bitboards, checked against a plain grid, plus its heuristic and moves."""

from __future__ import annotations

import random

import pytest
from tests.games.playouts import random_play, random_states

from plies.games.alphabeta import alphabeta
from plies.games.connect4 import Connect4, Connect4State
from plies.games.ttable import TranspositionTable


def grid_of(game: Connect4, state: Connect4State) -> list[list[int]]:
    """Return the board as rows (bottom first) of 0 empty, 1 X, 2 O, read via ``render``."""
    rows = game.render(state).splitlines()[:-1]
    return [[".XO".index(c) for c in row.split()] for row in reversed(rows)]


def naive_winner(grid: list[list[int]]) -> int | None:
    """Return the player (0 or 1) with four in a row on ``grid``, scanning every cell."""
    height, width = len(grid), len(grid[0])
    for r in range(height):
        for c in range(width):
            mark = grid[r][c]
            if not mark:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < height and 0 <= x < width and grid[y][x] == mark for y, x in cells):
                    return mark - 1
    return None


def test_bitboards_agree_with_a_plain_grid_over_random_games() -> None:
    """Discs land where a grid says, and a win is found exactly when the grid has four."""
    game = Connect4()
    rng = random.Random(2024)
    seen_wins = set()
    for _ in range(150):
        state = game.initial_state()
        heights = [0] * game.width
        grid = [[0] * game.width for _ in range(game.height)]
        while not game.is_terminal(state):
            col = rng.choice(game.actions(state))
            grid[heights[col]][col] = game.to_move(state) + 1
            heights[col] += 1
            state = game.result(state, col)
            assert grid_of(game, state) == grid
            assert state.winner == naive_winner(grid)
            assert game.actions(state) == (
                [] if state.winner is not None else [c for c in range(7) if heights[c] < 6]
            )
        seen_wins.add(state.winner)
    assert {0, 1} <= seen_wins


def test_every_direction_wins() -> None:
    """Vertical, horizontal and both diagonals, including along the board's edges."""
    game = Connect4()
    lines = {
        "vertical": [0, 1, 0, 1, 0, 1, 0],
        "horizontal": [3, 3, 4, 4, 5, 5, 6],
        "diagonal": [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3],
        "anti-diagonal": [6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3],
    }
    for name, cols in lines.items():
        state = game.initial_state()
        for col in cols:
            assert not game.is_terminal(state), name
            state = game.result(state, col)
        assert state.winner == 0, name
        assert game.utility(state, 0) == 1.0 and game.utility(state, 1) == -1.0


def test_a_full_board_without_four_is_a_draw() -> None:
    """Filling columns in a pattern that never lines up four ends level after 42 discs."""
    game = Connect4()
    state = game.initial_state()
    # Columns filled in pairs (0,1), (2,3), (4,5) then 6, shifting the colours each pair.
    order = [0, 1] * 3 + [1, 0] * 3 + [2, 3] * 3 + [3, 2] * 3 + [4, 5] * 3 + [5, 4] * 3 + [6] * 6
    for col in order:
        state = game.result(state, col)
    assert state.moves == 42 and state.winner is None
    assert game.is_terminal(state) and game.utility(state, 0) == 0.0 and game.actions(state) == []


def test_typed_columns_and_their_explanations() -> None:
    """Columns are typed 1-7; nonsense, a number off the board and a full column are refused."""
    game = Connect4()
    state = game.initial_state()
    for _ in range(6):
        state = game.result(state, 2)
    assert game.parse_action(state, " 4 ") == 3
    for text, reason in {
        "3": "column 3 is full",
        "8": "not a column",
        "x": "not a column",
        "": "not a column",
        "-1": "not a column",
    }.items():
        with pytest.raises(ValueError, match=reason) as info:
            game.parse_action(state, text)
        assert "\n" not in str(info.value)
    with pytest.raises(ValueError):
        game.result(state, 2)


def test_render_and_key() -> None:
    """The picture has X below O in the played column; different positions, different keys."""
    game = Connect4()
    state = game.result(game.result(game.initial_state(), 3), 3)
    assert game.render(state).splitlines()[-3:] == [
        ". . . O . . .",
        ". . . X . . .",
        "1 2 3 4 5 6 7",
    ]
    a = game.result(game.result(game.initial_state(), 0), 1)
    b = game.result(game.result(game.initial_state(), 1), 0)
    assert game.key(a) != game.key(b)
    c = game.result(game.result(game.result(game.result(game.initial_state(), 0), 1), 2), 3)
    d = game.result(game.result(game.result(game.result(game.initial_state(), 2), 3), 0), 1)
    assert game.key(c) == game.key(d)


def test_heuristic_sees_threats_and_the_centre() -> None:
    """Three open in a row scores well for its owner, badly for the other; always inside (-1, 1)."""
    game = Connect4()
    state = game.initial_state()
    for col in (1, 1, 2, 2, 3, 6):  # X: b, c, d on the bottom; O: b2, c2, g1
        state = game.result(state, col)
    assert game.evaluate(state, 0) > 0.3
    assert game.evaluate(state, 1) == -game.evaluate(state, 0)
    centre = game.result(game.initial_state(), 3)
    edge = game.result(game.initial_state(), 0)
    assert game.evaluate(centre, 0) > game.evaluate(edge, 0)
    rng = random.Random(7)
    for _ in range(200):
        state = random_play(game, rng, 0, 30)
        assert -1 < game.evaluate(state, 0) < 1


def test_small_boards_are_solvable() -> None:
    """On a 4 x 4 board nobody can force four: perfect play is a draw."""
    game = Connect4(4, 4)
    result = alphabeta(game, game.initial_state(), order=game.centre_first, tt=TranspositionTable())
    assert result.value == 0.0 and result.exact
    with pytest.raises(ValueError):
        Connect4(3, 6)


def test_winning_cells_match_trying_every_column() -> None:
    """The bitboard threat finder agrees with playing each column and looking for four."""
    game = Connect4()
    for state in random_states(game, 150, 31, 1, 30):
        ready = game.winning_cells(state.current, state.mask) & game.playable_cells(state.mask)
        column = (1 << game.height) - 1
        found = {c for c in range(game.width) if ready & (column << (c * (game.height + 1)))}
        winners = {c for c in game.actions(state) if game.result(state, c).winner is not None}
        assert found == winners


def test_one_ply_search_blocks_a_threat() -> None:
    """The heuristic knows a side to move with a ready four has all but won, so depth 1 blocks."""
    game = Connect4()
    state = game.initial_state()
    for col in (0, 3, 0, 3, 0):  # X threatens column 1; O's own three in column 4 is too slow
        state = game.result(state, col)
    assert alphabeta(game, state, depth=1).move == 0
