"""Exact connect-four scores: a null-window solver, fast on bitboards, checked by the generic layer.

A position is written as the columns played, from 1 (``"4453"``).  Its **score** is
Pascal Pons' convention for 7 x 6: positive when the player to move wins, ``22``
minus the number of discs the winner has at the end (a quicker win scores more,
at most 18), the negative when they lose, 0 for a draw.

How the exact score is found (the same recipe in both engines below):

1. *Iterative deepening on a null window* (:func:`null_window_score`): instead of
   one search over the whole range of scores, ask "is the score above ``m``?" with
   the empty window (m, m + 1), which cuts far more, and halve the interval of
   possible scores after each answer, trying the middle or 0 first (most positions
   are near a draw).
2. Alpha-beta negamax with a transposition table, moves ordered by the threats they
   make (ties from the centre out), moves that give the opponent a four never tried,
   and bounds from the rules (nobody wins before their next disc) narrowing the window.

:class:`Connect4Solver` runs step 2 compiled (:mod:`plies.games.connect4_kernel`), which
solves end-game and middle-game positions in milliseconds; :func:`generic_score` runs
the very same null windows through the generic :class:`~plies.games.alphabeta.AlphaBetaSearch`
on :class:`ScoredConnect4` (a :class:`~plies.games.connect4.Connect4` whose utility is the
score), and :func:`brute_force_score` plain :func:`~plies.games.negamax.negamax`: both are
slow but independent, and the tests hold the fast solver to them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from plies.games.alphabeta import UNLIMITED, AlphaBetaSearch
from plies.games.connect4 import Connect4, Connect4State
from plies.games.negamax import negamax
from plies.games.protocol import WIN
from plies.games.ttable import TranspositionTable

#: Columns and rows of the board the solver handles (the standard one).
WIDTH = 7
HEIGHT = 6
#: Cells on the board: a game has at most this many discs.
SIZE = WIDTH * HEIGHT
#: Default transposition table size in entries (8 bytes each, about 34 MB).
DEFAULT_TT_ENTRIES = 1 << 22
#: A win scores this (22) minus the winner's discs at the end.  Every score is smaller,
#: so the generic layer sees scores divided by it, inside (-1, 1) as it expects.
SCORE_BASE = SIZE // 2 + 1
# A position a dozen discs from the end: solving it runs every path of the kernel.
_WARM_UP_POSITION = "2252576253462244111563365343671351441"


def win_score(moves: int) -> int:
    """Return the score of winning with the next disc when ``moves`` discs are down."""
    return (SIZE + 1 - moves) // 2


def winner_discs(score: int) -> int:
    """Return how many discs the winner has at the end of a game scored ``score`` (not 0)."""
    return SCORE_BASE - abs(score)


def score_bounds(moves: int) -> tuple[int, int]:
    """Return the lowest and highest score a position with ``moves`` discs can have."""
    return -((SIZE - moves) // 2), win_score(moves)


def parse_moves(text: str, game: Connect4 | None = None) -> Connect4State:
    """Play the 1-based columns of ``text`` from the empty board; ``ValueError`` names the fault.

    The position must still be in play: a sequence that continues (or ends) after a
    four in a row is refused, as in the solver's test sets.
    """
    game = game if game is not None else Connect4(WIDTH, HEIGHT)
    text = text.strip()
    state = game.initial_state()
    for number, char in enumerate(text, start=1):
        if state.winner is not None:
            raise ValueError(f"move {number} ({char}) comes after the game was won")
        if not ("1" <= char <= str(game.width)):
            raise ValueError(f"move {number} ({char!r}) is not a column 1-{game.width}")
        column = int(char) - 1
        if column not in game.actions(state):
            raise ValueError(f"move {number}: column {char} is full")
        state = game.result(state, column)
    if state.winner is not None:
        raise ValueError(f"the game is already won (four in a row at move {len(text)})")
    return state


def null_window_score(test: Callable[[int, int], int], low: int, high: int) -> int:
    """Return the exact score in [low, high] by null-window tests ``test(m, m + 1)``.

    ``test(alpha, beta)`` is a fail-soft search: a result at or below alpha is an upper
    bound of the score, at or above beta a lower bound.  The interval is halved each
    time, trying 0 side first (half of the range towards zero) since most positions
    are close to a draw.
    """
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and low // 2 < med:
            med = low // 2
        elif med >= 0 and high // 2 > med:
            med = high // 2
        found = test(med, med + 1)
        if found <= med:
            high = found
        else:
            low = found
    return low


@dataclass(frozen=True)
class Solution:
    """What solving one position found."""

    #: The position, as the 1-based columns played.
    moves: str
    #: The exact score for the player to move (Pons' convention).
    score: int
    #: Every column (1-based) that keeps the score, left to right; empty if the board is full.
    best_columns: tuple[int, ...]
    #: Positions the search visited.
    nodes: int
    #: Wall-clock time the search took.
    seconds: float


def _prime_at_most(n: int) -> int:
    """Return the largest prime not above ``n`` (a prime table size spreads keys evenly)."""
    for candidate in range(n, 1, -1):
        if all(candidate % d for d in range(2, int(candidate**0.5) + 1)):
            return candidate
    raise ValueError(f"no prime at most {n}")


class Connect4Solver:
    """The compiled null-window solver for 7 x 6 connect four, with its own table.

    One instance keeps its transposition table across calls (the best-column tests
    of :meth:`solve` reuse the root's work); :meth:`reset` empties it in O(1).
    """

    def __init__(self, tt_entries: int = DEFAULT_TT_ENTRIES) -> None:
        """Allocate a table of about ``tt_entries`` entries (rounded down to a prime)."""
        if tt_entries < 2:
            raise ValueError(f"tt_entries must be at least 2, not {tt_entries}")
        from plies.games.connect4_kernel import new_tables

        self.game = Connect4(WIDTH, HEIGHT)
        self._tables = new_tables(_prime_at_most(tt_entries))

    @property
    def nodes(self) -> int:
        """Positions visited since the last :meth:`reset`."""
        from plies.games.connect4_kernel import visited

        return int(visited(self._tables))

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) the kernel by solving a late position."""
        self.solve(_WARM_UP_POSITION)
        self.reset()

    def reset(self) -> None:
        """Forget every stored position (a new generation) and zero the node count."""
        from plies.games.connect4_kernel import next_generation

        next_generation(self._tables)

    def window(self, state: Connect4State, alpha: int, beta: int) -> int:
        """Return the fail-soft score of ``state`` searched with the window (alpha, beta)."""
        from plies.games.connect4_kernel import can_win_now, negamax

        if state.moves >= SIZE:
            return 0
        current, mask = np.uint64(state.current), np.uint64(state.mask)
        if can_win_now(current, mask):
            return win_score(state.moves)
        value = negamax(
            current, mask, np.int64(state.moves), np.int64(alpha), np.int64(beta), self._tables
        )
        return int(value)

    def score(self, state: Connect4State) -> int:
        """Return the exact score of ``state`` (which must still be in play)."""
        low, high = score_bounds(state.moves)
        return null_window_score(lambda a, b: self.window(state, a, b), low, high)

    def best_columns(self, state: Connect4State, score: int) -> tuple[int, ...]:
        """Return the 1-based columns that keep ``score`` (one null-window test each)."""
        game = self.game
        best = []
        for column in game.actions(state):
            child = game.result(state, column)
            if child.winner is not None:
                value = win_score(state.moves)
            else:
                # The column is optimal iff the opponent's score after it is <= -score.
                value = -self.window(child, -score, -score + 1)
            if value >= score:
                best.append(column + 1)
        return tuple(best)

    def solve(self, moves: str, best: bool = True) -> Solution:
        """Solve the position ``moves`` from a fresh table; ``best`` also finds the best columns.

        Raises ``ValueError`` if ``moves`` is not a position in play.
        """
        state = parse_moves(moves, self.game)
        self.reset()
        start = time.perf_counter()
        score = self.score(state)
        columns = self.best_columns(state, score) if best else ()
        return Solution(moves.strip(), score, columns, self.nodes, time.perf_counter() - start)


class ScoredConnect4(Connect4):
    """Connect four whose utility is the solver's score (divided by 22) for the generic layer."""

    def utility(self, state: Connect4State, player: int) -> float:
        """Return the score of a finished game for ``player``, divided by 22 (0 for a draw)."""
        if state.winner is None:
            return 0.0
        # ``state.moves`` counts the winning disc; the score counts the discs before it.
        value = win_score(state.moves - 1) / SCORE_BASE
        return value if state.winner == player else -value


def generic_score(state: Connect4State) -> int:
    """Return the exact score of ``state`` by the generic alpha-beta with a table, on null windows.

    The same recipe as :class:`Connect4Solver`, in plain Python on the ``Game``
    protocol: practical up to about a dozen empty cells.
    """
    game = ScoredConnect4(WIDTH, HEIGHT)
    search = AlphaBetaSearch(game, order=game.centre_first, tt=TranspositionTable())

    def test(alpha: int, beta: int) -> int:
        """Search with the window (alpha, beta) in the generic layer's scale."""
        value, _ = search.search(state, UNLIMITED, alpha / SCORE_BASE, beta / SCORE_BASE)
        return round(value * SCORE_BASE)

    if state.moves >= SIZE:
        return 0
    low, high = score_bounds(state.moves)
    return null_window_score(test, low, high)


def brute_force_score(state: Connect4State) -> int:
    """Return the exact score of ``state`` by plain negamax over the whole tree (tiny cases)."""
    value = negamax(ScoredConnect4(WIDTH, HEIGHT), state).value
    assert value is not None and abs(value) < WIN
    return round(value * SCORE_BASE)
