"""The random player: every legal move is equally likely.

It is the floor of the ladder, and a useful opponent for checking that
everything else works: any player that cannot beat it almost every game has a bug.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.ladder import LadderPlayer
from plies.engine.limits import Info, Limit

if TYPE_CHECKING:
    from plies.board import Board, Move


class RandomPlayer(LadderPlayer):
    """Plays a uniformly random legal move (reproducible with a seed)."""

    name = "random"

    def play(self, board: Board, limit: Limit | None = None) -> Info:
        """Pick any legal move; no move only when there is none."""
        moves = list(board.legal_moves)
        move = self.rng.choice(self.candidates(board, moves)) if moves else None
        return self.report(Info(move=move))

    def candidates(self, board: Board, moves: list[Move]) -> list[Move]:
        """The legal moves to pick from at random: all of them."""
        return moves
