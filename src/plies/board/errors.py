"""Errors raised on bad chess input; both are ValueErrors."""

from __future__ import annotations


class InvalidFenError(ValueError):
    """A FEN string that is malformed or describes an impossible position."""


class IllegalMoveError(ValueError):
    """A move that is unparseable, or not legal in the position it is applied to."""
