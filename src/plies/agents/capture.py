"""The capture agent: grab material whenever possible, otherwise move at random.

One step above random: it takes a piece when it can (any capture, chosen at
random among them), which already wins material against a random mover, but
it never looks at what the opponent can do in reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget

if TYPE_CHECKING:
    from plies.board import Board, Move


class CaptureAgent(Agent):
    """Plays a random capture when one exists, else a random legal move."""

    name = "capture"

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Prefer captures; never the null move while a legal move exists."""
        moves = board.legal_moves
        if not moves:
            from plies.board import Move

            return Move.null()
        captures = [m for m in moves if board.is_capture(m)]
        return self.rng.choice(captures or moves)
