"""How a game ended: python-chess's ``Termination`` and ``Outcome``, with a readable reason."""

from __future__ import annotations

import chess
from chess import Termination

__all__ = ["Outcome", "Termination"]


class Outcome(chess.Outcome):
    """The end of a game (python-chess's ``Outcome``): termination, winner, ``result()``."""

    def __eq__(self, other: object) -> bool:
        """Equal to any python-chess ``Outcome`` with the same termination and winner."""
        if not isinstance(other, chess.Outcome):
            return NotImplemented
        return (self.termination, self.winner) == (other.termination, other.winner)

    def __hash__(self) -> int:
        """Hash of the termination and winner."""
        return hash((self.termination, self.winner))

    def reason(self) -> str:
        """Human-readable reason, e.g. ``"checkmate"`` or ``"threefold repetition"``."""
        return self.termination.name.lower().replace("_", " ")
