"""The board's colour conversions at its edge with the compiled core.

Colours, piece types and squares are python-chess's own (``WHITE`` is ``True``, ``A1 = 0``,
``PAWN = 1``): ``plies.board`` re-exports them from ``chess``. The compiled core numbers
colours its own way (white 0, black 1); these two functions convert.
"""

from __future__ import annotations

from chess import Color


def core_color(color: Color) -> int:
    """The compiled core's number for a colour (white 0, black 1)."""
    return 0 if color else 1


def board_color(core: int) -> Color:
    """The python-chess colour of the compiled core's colour number."""
    return core == 0
