"""How a game ended: ``Termination`` and ``Outcome``."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from plies.board.squares import WHITE, Color


class Termination(enum.Enum):
    """Reasons a game ends, automatic ones first, then the draws a player may claim."""

    CHECKMATE = enum.auto()
    """The side to move is in check and has no legal move."""
    STALEMATE = enum.auto()
    """The side to move is not in check and has no legal move."""
    INSUFFICIENT_MATERIAL = enum.auto()
    """Neither side has the material to checkmate."""
    SEVENTYFIVE_MOVES = enum.auto()
    """75 moves by each side without a capture or pawn move (automatic draw)."""
    FIVEFOLD_REPETITION = enum.auto()
    """The same position five times (automatic draw)."""
    FIFTY_MOVES = enum.auto()
    """50 moves by each side without a capture or pawn move (claimable draw)."""
    THREEFOLD_REPETITION = enum.auto()
    """The same position three times (claimable draw)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: its termination and the winner (None for a draw)."""

    termination: Termination
    """Why the game ended."""
    winner: Color | None
    """``WHITE``, ``BLACK`` or None for a draw."""

    def result(self) -> str:
        """PGN result string: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"

    def reason(self) -> str:
        """Human-readable reason, e.g. ``"checkmate"`` or ``"threefold repetition"``."""
        return self.termination.name.lower().replace("_", " ")
