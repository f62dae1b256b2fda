"""How a game ended: python-chess's ``Termination`` and ``Outcome``, with a readable reason."""

from __future__ import annotations

import chess
from chess import Termination

__all__ = ["Outcome", "Termination"]


class Outcome(chess.Outcome):
    """The end of a game (python-chess's ``Outcome``): termination, winner, ``result()``."""

    def reason(self) -> str:
        """Human-readable reason, e.g. ``"checkmate"`` or ``"threefold repetition"``."""
        return self.termination.name.lower().replace("_", " ")
