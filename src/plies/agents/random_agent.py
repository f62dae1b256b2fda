"""The random agent: every legal move is equally likely.

It is the floor of the ladder, and a useful opponent for checking that
everything else works: any agent that cannot beat it almost every game has a bug.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget

if TYPE_CHECKING:
    from plies.board import Board, Move


class RandomAgent(Agent):
    """Plays a uniformly random legal move (reproducible with a seed)."""

    name = "random"

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Pick any legal move; the null move only when there is none."""
        moves = list(board.legal_moves)
        if not moves:
            from plies.board import Move

            return Move.null()
        return self.rng.choice(self.candidates(board, moves))

    def candidates(self, board: Board, moves: list[Move]) -> list[Move]:
        """The legal moves to pick from at random: all of them."""
        return moves
