"""Text pictures of a board: Unicode figures or FEN letters, files and ranks labelled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chess import FILE_NAMES, WHITE, Color

if TYPE_CHECKING:
    from plies.board.board import Board as BoardState


def _grid(board: BoardState, unicode: bool, orientation: Color) -> str:
    """Rows of the board seen from ``orientation``, each labelled with its rank."""
    files = range(8) if orientation == WHITE else range(7, -1, -1)
    ranks = range(7, -1, -1) if orientation == WHITE else range(8)
    header = "  " + " ".join(FILE_NAMES[f] for f in files)
    lines = [header]
    for r in ranks:
        cells = []
        for f in files:
            piece = board.piece_at(r * 8 + f)
            if piece is None:
                cells.append("·" if unicode else ".")
            else:
                cells.append(piece.unicode_symbol() if unicode else piece.symbol())
        lines.append(f"{r + 1} {' '.join(cells)} {r + 1}")
    lines.append(header)
    return "\n".join(lines)


def unicode_board(board: BoardState, orientation: Color = WHITE) -> str:
    """The board with Unicode chess figures."""
    return _grid(board, True, orientation)


def ascii_board(board: BoardState, orientation: Color = WHITE) -> str:
    """The board with FEN letters and dots."""
    return _grid(board, False, orientation)
