"""The capture player: grab material whenever possible, otherwise move at random.

One step above random: it takes a piece when it can (any capture, chosen at
random among them), which already wins material against a random mover, but
it never looks at what the opponent can do in reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.random_agent import RandomPlayer

if TYPE_CHECKING:
    from plies.board import Board, Move


class CapturePlayer(RandomPlayer):
    """Plays a random capture when one exists, else a random legal move."""

    name = "capture"

    def candidates(self, board: Board, moves: list[Move]) -> list[Move]:
        """The captures, or every legal move when there is none."""
        return [m for m in moves if board.is_capture(m)] or moves
