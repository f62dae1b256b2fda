"""Exact solving of small games: the value and distance to the end of every position."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic

from plies.games.protocol import A, Game, S


class Solver(Generic[S, A]):
    """Solves positions of ``game`` exactly, remembering every position it has solved.

    Practical for games with up to a few million positions (tic-tac-toe has 5,478).
    Besides the value it keeps the number of plies to the end under best play, where
    the winner hurries and the loser stalls, so that a perfect player also plays well.
    """

    def __init__(self, game: Game[S, A]) -> None:
        """Create an empty solution table for ``game``."""
        self.game = game
        self._table: dict[Hashable, tuple[float, int]] = {}

    def __len__(self) -> int:
        """Return the number of positions solved so far."""
        return len(self._table)

    def solve(self, state: S) -> tuple[float, int]:
        """Return the value of ``state`` for its player to move and the plies to the end."""
        game = self.game
        key = game.key(state)
        known = self._table.get(key)
        if known is not None:
            return known
        me = game.to_move(state)
        if game.is_terminal(state):
            out = (game.utility(state, me), 0)
        else:
            out = max(
                (self._child(state, action, me) for action in game.actions(state)),
                key=_preference,
            )
        self._table[key] = out
        return out

    def _child(self, state: S, action: A, me: int) -> tuple[float, int]:
        """Return the solved value of playing ``action`` for ``me``, and its length."""
        child = self.game.result(state, action)
        value, plies = self.solve(child)
        if self.game.to_move(child) != me:
            value = -value
        return value + 0.0, plies + 1

    def best_actions(self, state: S) -> list[A]:
        """Return every action of ``state`` that is optimal (value first, then distance)."""
        me = self.game.to_move(state)
        scored = [(a, _preference(self._child(state, a, me))) for a in self.game.actions(state)]
        if not scored:
            return []
        top = max(score for _, score in scored)
        return [a for a, score in scored if score == top]


def _preference(outcome: tuple[float, int]) -> tuple[float, int]:
    """Order outcomes: higher value first; among wins the shortest, among losses the longest."""
    value, plies = outcome
    if value > 0:
        return value, -plies
    if value < 0:
        return value, plies
    return value, 0
