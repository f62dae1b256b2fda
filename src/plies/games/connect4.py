"""Connect four on bitboards: drop discs into columns, four in a row wins.

Bit layout (the classic one for this game): column ``c`` occupies bits
``c*(H+1) .. c*(H+1)+H-1`` from the bottom up, plus one always-empty guard bit on top, so
that shifting a line across a column edge never wraps into the next column.

    bit index for 7 x 6:   5 12 19 26 33 40 47   <- top row
                           4 11 18 25 32 39 46
                           ...
                           0  7 14 21 28 35 42   <- bottom row

Two integers describe a position: ``mask`` (every disc) and ``current`` (the discs of
the player to move). Four in a row is found with four shift-and-tests, one per direction.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

from plies.games.pictures import connect4_svg
from plies.games.protocol import BaseGame

#: Discs drawn for an empty cell and for players 0 and 1.
DISCS = (".", "X", "O")

# Heuristic weights: a window of four cells that only one side occupies is worth this
# much by how many discs it holds; three with the fourth open is a real threat.
_WINDOW_WEIGHTS = (0, 1, 4, 32, 0)
# A disc in the middle column takes part in the most windows.
_CENTRE_WEIGHT = 3
# The player to move who can complete four right now has all but won: this outweighs
# everything else, yet stays a guess (below a proven +1) until the search sees it.
_WIN_NOW = 1000
# Scores of this size map to a heuristic value of 0.5.
_SCALE = 64.0


class Connect4State(NamedTuple):
    """A position as two bitboards (see the module's layout), the ply count and any winner."""

    #: Discs of the player to move.
    current: int
    #: All discs.
    mask: int
    #: Discs played so far; player ``moves % 2`` is to move.
    moves: int
    #: The player who made four in a row, or None.
    winner: int | None
    #: Columns and rows of the board (for pictures; the bitboards hold the rest).
    size: tuple[int, int] = (7, 6)

    def _repr_svg_(self) -> str:
        """The board as SVG: how Jupyter shows a state."""
        return connect4_svg(self)


_new_state = tuple.__new__


class Connect4(BaseGame[Connect4State, int]):
    """Connect four, ``width`` columns by ``height`` rows (7 x 6 by default); X starts.

    Actions are column indices from 0 at the left; people type them as 1, 2, ... .
    """

    def __init__(self, width: int = 7, height: int = 6) -> None:
        """Create the game; four in a row must fit on the board."""
        if not (4 <= width <= 16 and 4 <= height <= 16):
            raise ValueError(f"board must be 4..16 wide and high, not {width}x{height}")
        self.width = width
        self.height = height
        self._col_bits = height + 1
        self._bottom = [1 << (c * self._col_bits) for c in range(width)]
        self._top = [1 << (c * self._col_bits + height - 1) for c in range(width)]
        self._windows = self._all_windows()
        centre = width // 2
        self._centre = ((1 << height) - 1) << (centre * self._col_bits)
        # Columns from the middle outwards: the usual good order to try moves in.
        self._centre_order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
        self._bottom_row = sum(self._bottom)
        self._board = self._bottom_row * ((1 << height) - 1)
        self._columns = tuple(enumerate(self._top))
        self._cells = width * height
        self._shifts = (1, self._col_bits, self._col_bits - 1, self._col_bits + 1)

    def __repr__(self) -> str:
        """Show the board size."""
        return f"Connect4(width={self.width}, height={self.height})"

    def _bit(self, col: int, row: int) -> int:
        """Return the bit of the cell at ``col``, ``row`` (row 0 at the bottom)."""
        return 1 << (col * self._col_bits + row)

    def _all_windows(self) -> list[int]:
        """Return every line of four cells as a bitmask."""
        windows = []
        for col in range(self.width):
            for row in range(self.height):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = col + 3 * dc, row + 3 * dr
                    if 0 <= end_c < self.width and 0 <= end_r < self.height:
                        bits = 0
                        for i in range(4):
                            bits |= self._bit(col + i * dc, row + i * dr)
                        windows.append(bits)
        return windows

    def _four(self, discs: int) -> bool:
        """Return whether ``discs`` hold four in a row (one shift-and-test per direction)."""
        for shift in self._shifts:
            pairs = discs & (discs >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def winning_cells(self, discs: int, mask: int) -> int:
        """Return the empty cells (as bits) where one more disc makes four for ``discs``."""
        # Vertical: only three directly below can be completed from above.
        cells = (discs << 1) & (discs << 2) & (discs << 3)
        for shift in (self._col_bits, self._col_bits - 1, self._col_bits + 1):
            pair = (discs << shift) & (discs << (2 * shift))
            cells |= pair & (discs << (3 * shift))  # the gap is at the end
            cells |= pair & (discs >> shift)  # one disc beyond the gap
            pair = (discs >> shift) & (discs >> (2 * shift))
            cells |= pair & (discs << shift)
            cells |= pair & (discs >> (3 * shift))
        return cells & (self._board ^ mask)

    def playable_cells(self, mask: int) -> int:
        """Return the cells (as bits) a disc would land in now, one per open column."""
        return (mask + self._bottom_row) & self._board

    def initial_state(self) -> Connect4State:
        """Return the empty board with X to move."""
        return Connect4State(0, 0, 0, None, (self.width, self.height))

    def to_move(self, state: Connect4State) -> int:
        """Return the player to move."""
        return state.moves & 1

    def actions(self, state: Connect4State) -> Sequence[int]:
        """Return the columns that are not full, or nothing once the game is over."""
        if state.winner is not None:
            return []
        mask = state.mask
        return [c for c, top in self._columns if not mask & top]

    def result(self, state: Connect4State, action: int) -> Connect4State:
        """Drop the mover's disc into column ``action`` (which must not be full)."""
        current, old, moves, winner, size = state
        if winner is not None or not 0 <= action < self.width or old & self._top[action]:
            raise ValueError(f"column {action + 1} cannot be played")
        # Adding the column's bottom bit carries up through the discs into the lowest gap.
        mask = old | (old + self._bottom[action])
        mine = current | (mask ^ old)
        # Four in a row: one shift-and-test per direction (inlined and unrolled: it runs at
        # every node).
        up, across, down_right, up_right = self._shifts
        pairs = mine & (mine >> up)
        if pairs & (pairs >> (2 * up)):
            winner = moves & 1
        else:
            pairs = mine & (mine >> across)
            if pairs & (pairs >> (2 * across)):
                winner = moves & 1
            else:
                pairs = mine & (mine >> down_right)
                if pairs & (pairs >> (2 * down_right)):
                    winner = moves & 1
                else:
                    pairs = mine & (mine >> up_right)
                    if pairs & (pairs >> (2 * up_right)):
                        winner = moves & 1
        # The opponent's discs are everything the mover does not own; tuple.__new__ skips
        # the named tuple's own constructor, a Python function call.
        return _new_state(Connect4State, (mine ^ mask, mask, moves + 1, winner, size))

    def is_terminal(self, state: Connect4State) -> bool:
        """Return whether someone has four in a row or the board is full."""
        return state.winner is not None or state.moves == self._cells

    def utility(self, state: Connect4State, player: int) -> float:
        """Return +1 if ``player`` won, -1 if they lost, 0 for a draw."""
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0

    def discs(self, state: Connect4State, player: int) -> int:
        """Return the bitboard of ``player``'s discs."""
        if self.to_move(state) == player:
            return state.current
        return state.current ^ state.mask

    def evaluate(self, state: Connect4State, player: int) -> float:
        """Score a win on the next move, open lines (fuller ones far more) and the centre."""
        mine = self.discs(state, player)
        theirs = mine ^ state.mask
        centre = self._centre
        score = _CENTRE_WEIGHT * ((mine & centre).bit_count() - (theirs & centre).bit_count())
        if self.winning_cells(state.current, state.mask) & self.playable_cells(state.mask):
            score += _WIN_NOW if self.to_move(state) == player else -_WIN_NOW
        weights = _WINDOW_WEIGHTS
        for window in self._windows:
            own = window & mine
            other = window & theirs
            if own and not other:
                score += weights[own.bit_count()]
            elif other and not own:
                score -= weights[other.bit_count()]
        # Squash into (-1, 1) without ever reaching a proven result's +-1.
        return score / (abs(score) + _SCALE)

    def key(self, state: Connect4State) -> Hashable:
        """Return one integer for the position (mover's discs plus all discs, a known trick)."""
        return state.current + state.mask

    def centre_first(self, state: Connect4State, actions: Sequence[int]) -> Sequence[int]:
        """Order columns from the middle outwards (a move-ordering hook for alpha-beta)."""
        legal = set(actions)
        return [c for c in self._centre_order if c in legal]

    def action_text(self, action: int) -> str:
        """Return the column number as people count, from 1."""
        return str(action + 1)

    def parse_action(self, state: Connect4State, text: str) -> int:
        """Read a column number from 1 to the width."""
        text = text.strip()
        if not text.isdecimal() or not 1 <= int(text) <= self.width:
            raise ValueError(f"not a column: {text!r} (type a number from 1 to {self.width})")
        col = int(text) - 1
        if self.is_terminal(state):
            raise ValueError("the game is over")
        if state.mask & self._top[col]:
            raise ValueError(f"column {col + 1} is full")
        return col

    def render(self, state: Connect4State) -> str:
        """Draw the board, top row first, with column numbers underneath."""
        x_discs = self.discs(state, 0)
        lines = []
        for row in reversed(range(self.height)):
            cells = []
            for col in range(self.width):
                bit = self._bit(col, row)
                cells.append(DISCS[0] if not state.mask & bit else DISCS[1 if x_discs & bit else 2])
            lines.append(" ".join(cells))
        lines.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(lines)
