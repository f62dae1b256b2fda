"""SVG pictures of the built-in games' states, for Jupyter's rich display and the docs.

Each picture is self-contained (its own size and colours), so it looks the same inline in
a notebook, in a rendered page or saved to a file. A picture takes what it draws (the
``Marks`` and ``Discs`` shapes), not a game's own types: the games import this module for
their ``_repr_svg_``, never the other way round.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Protocol


class Marks(Protocol):
    """An m,n,k-game board as drawn: cells row by row from the top (0 empty, 1 X, 2 O)."""

    @property
    def cells(self) -> Sequence[int]:
        """Every cell, row by row from the top."""

    @property
    def width(self) -> int:
        """Columns of the board."""


class Discs(Protocol):
    """A connect-four board as drawn: bitboards in ``plies.games.connect4``'s layout."""

    @property
    def current(self) -> int:
        """Discs of the player to move."""

    @property
    def mask(self) -> int:
        """All discs."""

    @property
    def moves(self) -> int:
        """Discs played so far."""

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""


#: Side of one cell, in pixels.
CELL = 40
# Room for the column letters and row numbers.
_MARGIN = 18
_INK = "#2b2b2b"
_GRID = "#888888"
_X = "#1f5fbf"
_O = "#c0392b"
_LABEL = 'font-family="sans-serif" font-size="11" fill="#666" text-anchor="middle"'


def tictactoe_svg(state: Marks) -> str:
    """Draw an m,n,k-game board: X and O in their cells, labelled as people type them."""
    width = state.width
    height = len(state.cells) // width
    w, h = _MARGIN + width * CELL + 4, height * CELL + _MARGIN + 4
    parts = [_open(w, h), f'<rect width="{w}" height="{h}" fill="white"/>']
    for row in range(height):
        for col in range(width):
            x, y = _MARGIN + col * CELL, row * CELL + 2
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="white" '
                f'stroke="{_GRID}"/>'
            )
            mark = state.cells[row * width + col]
            pad = CELL * 0.22
            if mark == 1:
                parts.append(
                    f'<path d="M{x + pad},{y + pad} L{x + CELL - pad},{y + CELL - pad} '
                    f'M{x + CELL - pad},{y + pad} L{x + pad},{y + CELL - pad}" '
                    f'stroke="{_X}" stroke-width="4" stroke-linecap="round"/>'
                )
            elif mark == 2:
                parts.append(
                    f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL / 2 - pad}" '
                    f'fill="none" stroke="{_O}" stroke-width="4"/>'
                )
        parts.append(
            f'<text x="{_MARGIN / 2}" y="{row * CELL + 2 + CELL / 2 + 4}" {_LABEL}>'
            f"{height - row}</text>"
        )
    for col in range(width):
        parts.append(
            f'<text x="{_MARGIN + col * CELL + CELL / 2}" y="{h - 4}" {_LABEL}>'
            f"{string.ascii_lowercase[col]}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def connect4_svg(state: Discs) -> str:
    """Draw a connect-four board: a blue frame, X's discs red, O's yellow, columns numbered."""
    width, height = state.size
    bits = height + 1
    first = state.current if state.moves % 2 == 0 else state.mask ^ state.current
    w, h = width * CELL + 8, height * CELL + _MARGIN + 8
    parts = [
        _open(w, h),
        f'<rect x="0" y="0" width="{w}" height="{height * CELL + 8}" rx="6" fill="#1f4fa8"/>',
    ]
    for col in range(width):
        for row in range(height):
            bit = 1 << (col * bits + row)
            colour = "white"
            if state.mask & bit:
                colour = "#d62d20" if first & bit else "#f5c518"
            cx = 4 + col * CELL + CELL / 2
            cy = 4 + (height - 1 - row) * CELL + CELL / 2
            parts.append(
                f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 4}" fill="{colour}" stroke="{_INK}" '
                'stroke-width="0.5"/>'
            )
        parts.append(
            f'<text x="{4 + col * CELL + CELL / 2}" y="{h - 4}" {_LABEL}>{col + 1}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _open(w: float, h: float) -> str:
    """Return the opening ``svg`` tag of a ``w`` x ``h`` picture."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}">'
    )
