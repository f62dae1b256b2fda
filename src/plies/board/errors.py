"""Errors raised on bad chess input, all ``ValueError``: python-chess's move errors and
plies's FEN error."""

from __future__ import annotations

from chess import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

__all__ = ["AmbiguousMoveError", "IllegalMoveError", "InvalidFenError", "InvalidMoveError"]


class InvalidFenError(ValueError):
    """A FEN string that is malformed or describes a position the rules cannot apply to."""
