"""Tic-tac-toe generalised: an m x n board, k in a row wins (the m,n,k-game)."""

from __future__ import annotations

import string
from collections.abc import Hashable, Sequence
from itertools import compress
from operator import not_
from typing import NamedTuple

from plies.games.pictures import tictactoe_svg
from plies.games.protocol import BaseGame

#: Marks drawn for an empty cell and for players 0 and 1.
MARKS = (".", "X", "O")
EMPTY, X, O = 0, 1, 2

# Window weights for the heuristic, by how many of its k cells one side holds: a line
# nearer completion is worth disproportionately more.
_WEIGHT_BASE = 8


class TicTacToeState(NamedTuple):
    """A position: cells row by row from the top (0 empty, 1 X, 2 O) and who moves."""

    cells: tuple[int, ...]
    #: The player to move: 0 (X) or 1 (O).
    player: int
    #: The player who completed a line, or None.
    winner: int | None
    #: Number of empty cells.
    empty: int
    #: Columns of the board (for pictures; the cells hold the rest).
    width: int = 3

    def _repr_svg_(self) -> str:
        """The board as SVG: how Jupyter shows a state."""
        return tictactoe_svg(self)


_new_state = tuple.__new__


class TicTacToe(BaseGame[TicTacToeState, int]):
    """The m,n,k-game: ``width`` x ``height`` cells, ``k`` in a row wins, X moves first.

    Actions are cell indices, row-major from the top-left; people type them as a column
    letter and a row number counted from the bottom (``b2``) or as a number from 1.
    """

    def __init__(self, width: int = 3, height: int = 3, k: int = 3) -> None:
        """Create the game; the classic one is 3 x 3 with 3 in a row."""
        if not (1 <= width <= 26 and 1 <= height <= 99):
            raise ValueError(f"board must be 1..26 wide and 1..99 high, not {width}x{height}")
        if not 1 <= k <= max(width, height):
            raise ValueError(f"k must be between 1 and {max(width, height)}, not {k}")
        self.width = width
        self.height = height
        self.k = k
        self._cell_numbers = range(width * height)
        self._windows = self._all_windows()
        #: Per cell, the other k-1 cells of every window of k through it.
        self._windows_through = [
            [tuple(i for i in w if i != cell) for w in self._windows if cell in w]
            for cell in self._cell_numbers
        ]
        self._weights = [_WEIGHT_BASE**n if n else 0 for n in range(k + 1)]
        self._scale = float(_WEIGHT_BASE**k)
        # Cells from the middle outwards: they lie on the most lines, so they are tried first.
        self._centre_order = sorted(
            range(width * height),
            key=lambda i: (
                abs(2 * (i // width) - height + 1) + abs(2 * (i % width) - width + 1),
                i,
            ),
        )

    def __repr__(self) -> str:
        """Show the board size and k."""
        return f"TicTacToe(width={self.width}, height={self.height}, k={self.k})"

    def _all_windows(self) -> list[tuple[int, ...]]:
        """Return every run of k cells in a straight line (the heuristic's building blocks)."""
        windows = []
        for row in range(self.height):
            for col in range(self.width):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = row + dr * (self.k - 1), col + dc * (self.k - 1)
                    if 0 <= end_r < self.height and 0 <= end_c < self.width:
                        windows.append(
                            tuple((row + dr * i) * self.width + col + dc * i for i in range(self.k))
                        )
        return windows

    def initial_state(self) -> TicTacToeState:
        """Return the empty board with X to move."""
        size = self.width * self.height
        return TicTacToeState((EMPTY,) * size, 0, None, size, self.width)

    def to_move(self, state: TicTacToeState) -> int:
        """Return the player to move."""
        return state.player

    def actions(self, state: TicTacToeState) -> Sequence[int]:
        """Return the empty cells, or nothing once someone has won."""
        if state.winner is not None:
            return []
        # compress and map run in C: no Python frame per call, as a comprehension has.
        return list(compress(self._cell_numbers, map(not_, state.cells)))

    def result(self, state: TicTacToeState, action: int) -> TicTacToeState:
        """Place the mover's mark on cell ``action`` (which must be empty, game not over)."""
        cells, player, winner, empty, width = state
        if winner is not None or cells[action]:
            raise ValueError(f"cell {self.action_text(action)} cannot be played")
        mark = player + 1
        board = list(cells)  # the quickest way to a tuple with one cell changed
        board[action] = mark
        cells = tuple(board)
        # Only lines through the new mark can be complete: each k-cell window through it is
        # checked for the other k-1 cells (inlined: it runs at every node of every search).
        for others in self._windows_through[action]:
            for i in others:
                if cells[i] != mark:
                    break
            else:
                winner = player
                break
        # tuple.__new__ skips the named tuple's own constructor, a Python function call.
        return _new_state(TicTacToeState, (cells, 1 - player, winner, empty - 1, width))

    def is_terminal(self, state: TicTacToeState) -> bool:
        """Return whether someone has won or the board is full."""
        return state.winner is not None or state.empty == 0

    def utility(self, state: TicTacToeState, player: int) -> float:
        """Return +1 if ``player`` won, -1 if they lost, 0 otherwise."""
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0

    def evaluate(self, state: TicTacToeState, player: int) -> float:
        """Score open lines: each window only one side occupies counts, fuller ones far more."""
        mine = player + 1
        score = 0
        cells = state.cells
        weights = self._weights
        for window in self._windows:
            own = other = 0
            for i in window:
                mark = cells[i]
                if mark == mine:
                    own += 1
                elif mark != EMPTY:
                    other += 1
            if other == 0:
                score += weights[own]
            elif own == 0:
                score -= weights[other]
        return score / (abs(score) + self._scale)

    def centre_first(self, state: TicTacToeState, actions: Sequence[int]) -> Sequence[int]:
        """Order cells from the middle outwards (a cheap move-ordering hook)."""
        legal = set(actions)
        return [cell for cell in self._centre_order if cell in legal]

    def key(self, state: TicTacToeState) -> Hashable:
        """Return the cells: they determine who moves and what follows."""
        return state.cells

    def action_text(self, action: int) -> str:
        """Return the cell as a column letter and a row number from the bottom (``b2``)."""
        row, col = divmod(action, self.width)
        return f"{string.ascii_lowercase[col]}{self.height - row}"

    def parse_action(self, state: TicTacToeState, text: str) -> int:
        """Read ``b2`` (column letter, row from the bottom) or a cell number from 1."""
        text = text.strip().lower()
        size = self.width * self.height
        last = self.action_text(self.width - 1)
        if text.isdecimal():
            number = int(text)
            if not 1 <= number <= size:
                raise ValueError(f"no cell {number}: cells are numbered 1 to {size}")
            cell = number - 1
        elif (
            len(text) >= 2
            and text[0] in string.ascii_lowercase[: self.width]
            and text[1:].isdecimal()
            and 1 <= int(text[1:]) <= self.height
        ):
            cell = (self.height - int(text[1:])) * self.width + string.ascii_lowercase.index(
                text[0]
            )
        else:
            raise ValueError(
                f"not a cell: {text!r} (type a column letter and a row number, a1 to {last})"
            )
        if state.winner is not None or state.empty == 0:
            raise ValueError("the game is over")
        if state.cells[cell] != EMPTY:
            raise ValueError(f"{self.action_text(cell)} is taken by {MARKS[state.cells[cell]]}")
        return cell

    def render(self, state: TicTacToeState) -> str:
        """Draw the board with column letters below and row numbers at the left."""
        width = len(str(self.height))
        lines = []
        for row in range(self.height):
            cells = state.cells[row * self.width : (row + 1) * self.width]
            marks = " ".join(MARKS[m] for m in cells)
            lines.append(f"{self.height - row:>{width}} {marks}")
        lines.append(" " * width + " " + " ".join(string.ascii_lowercase[: self.width]))
        return "\n".join(lines)


def player_name(player: int) -> str:
    """Return the mark of ``player`` (0 is X, 1 is O)."""
    return MARKS[player + 1]
