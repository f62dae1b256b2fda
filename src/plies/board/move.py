"""``Move`` and ``Piece``: python-chess's own classes, so either library's moves push on
either board and compare, hash and print alike."""

from __future__ import annotations

from chess import Move, Piece

__all__ = ["Move", "Piece"]
