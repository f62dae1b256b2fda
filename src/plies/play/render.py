"""Draw a chess board for the terminal: Unicode or ASCII, from either side, with highlights.

With colour, squares get light/dark backgrounds, the last move's two squares
are tinted and a king in check turns red.  Without colour (a pipe, or
``--ascii``) the same facts are shown with brackets: ``(N)`` marks the last
move's squares and ``[K]`` a king in check, so nothing is lost in a log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess
from rich.text import Text

if TYPE_CHECKING:
    from plies.board import Board

# Solid figures for both sides read best on coloured squares; the side is
# told apart by the glyph's colour there.  Without colour the classic
# outline (white) / solid (black) figures keep them apart.
_SOLID = {1: "♟", 2: "♞", 3: "♝", 4: "♜", 5: "♛", 6: "♚"}
_OUTLINE = {1: "♙", 2: "♘", 3: "♗", 4: "♖", 5: "♕", 6: "♔"}

LIGHT = "#c8a97e"
DARK = "#8b5a2b"
LAST_LIGHT = "#d8c85a"
LAST_DARK = "#a89030"
CHECK = "#e05050"


def _glyph(piece: chess.Piece | None, ascii_only: bool, colour: bool) -> str:
    """One character for a square's content."""
    if piece is None:
        return "." if ascii_only else ("·" if not colour else " ")
    if ascii_only:
        return piece.symbol()
    if colour:
        return _SOLID[piece.piece_type]
    return (_OUTLINE if piece.color == chess.WHITE else _SOLID)[piece.piece_type]


def render_board(
    board: chess.Board | Board,
    white_at_bottom: bool = True,
    ascii_only: bool = False,
    colour: bool = True,
) -> Text:
    """The board (python-chess's or plies's) as rich Text, labelled on all four sides."""
    if not isinstance(board, chess.Board):
        board = board.to_chess()
    last = board.move_stack[-1] if board.move_stack else None
    marked = {last.from_square, last.to_square} if last else set()
    checked = board.king(board.turn) if board.is_check() else None
    ranks = range(7, -1, -1) if white_at_bottom else range(8)
    files = range(8) if white_at_bottom else range(7, -1, -1)
    letters = "   " + "".join(f" {'abcdefgh'[f]} " for f in files) + "\n"
    text = Text(letters, style="bold" if colour else "")
    for rank in ranks:
        text.append(f" {rank + 1} ", style="bold" if colour else "")
        for file in files:
            sq = rank * 8 + file
            piece = board.piece_at(sq)
            glyph = _glyph(piece, ascii_only, colour)
            if colour:
                light = (rank + file) % 2 == 1
                bg = LIGHT if light else DARK
                if sq in marked:
                    bg = LAST_LIGHT if light else LAST_DARK
                if sq == checked:
                    bg = CHECK
                fg = "#ffffff" if piece is not None and piece.color == chess.WHITE else "#000000"
                style = f"bold {fg} on {bg}"
                text.append(f" {glyph} ", style=style)
            else:
                left, right = " ", " "
                if sq in marked:
                    left, right = "(", ")"
                if sq == checked:
                    left, right = "[", "]"
                text.append(f"{left}{glyph}{right}")
        text.append(f" {rank + 1}\n", style="bold" if colour else "")
    text.append(letters.rstrip("\n"), style="bold" if colour else "")
    return text
