"""The chess board as SVG, drawn by plies: squares the browser can click, pieces on top.

Every square is a ``rect`` carrying ``data-square="e4"``, so the page finds the square
under a click or a drag without knowing the geometry. Pieces do not catch the pointer.
The piece drawings are python-chess's (``chess.svg.PIECES``), used, not copied. The web
app colours the squares from its stylesheet; a ``standalone`` picture (a notebook's, a
file's) carries the same colours in its own ``style``.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import chess.svg
from chess import square, square_name

if TYPE_CHECKING:
    from chess import Move

    from plies.board.board import Board as BoardState

#: Side of one square in SVG units (the piece drawings are this size).
SQUARE = 45
#: Room around the board for the file letters and rank numbers.
MARGIN = 18
#: Width and height of the whole picture.
SIZE = 2 * MARGIN + 8 * SQUARE
FILES = "abcdefgh"

_PIECE_IDS = {
    "P": "white-pawn", "N": "white-knight", "B": "white-bishop", "R": "white-rook",
    "Q": "white-queen", "K": "white-king", "p": "black-pawn", "n": "black-knight",
    "b": "black-bishop", "r": "black-rook", "q": "black-queen", "k": "black-king",
}  # fmt: skip


def _defs() -> str:
    """The twelve piece drawings, each once, referenced by ``use``."""
    return "<defs>" + "".join(chess.svg.PIECES[symbol] for symbol in _PIECE_IDS) + "</defs>"


_DEFS = _defs()

# The web app's board colours, for pictures shown outside it.
_STYLE = (
    "<style>"
    ".chessboard .frame{fill:#2b2b2b}.chessboard .sq.light{fill:#f0d9b5}"
    ".chessboard .sq.dark{fill:#b58863}.chessboard .sq.lastmove.light{fill:#cdd26a}"
    ".chessboard .sq.lastmove.dark{fill:#aaa23a}.chessboard .sq.check{fill:#e06666}"
    ".chessboard .coord{fill:#ddd;font-size:11px;text-anchor:middle;font-family:sans-serif}"
    "</style>"
)
#: Width and height of a standalone picture, in pixels.
STANDALONE_PX = 360


def square_origin(sq: int, flipped: bool) -> tuple[int, int]:
    """Top-left corner of square ``sq`` in SVG units, White at the bottom unless ``flipped``."""
    file, rank = sq % 8, sq // 8
    col = 7 - file if flipped else file
    row = rank if flipped else 7 - rank
    return MARGIN + col * SQUARE, MARGIN + row * SQUARE


def render_board(
    board: BoardState,
    flipped: bool = False,
    last_move: Move | None = None,
    standalone: bool = False,
) -> str:
    """The position as an SVG string: last move and a king in check highlighted.

    ``standalone`` adds a size and the colours, for a picture shown outside the web app.
    """
    check_square = board.king(board.turn) if board.is_check() else None
    highlight = set()
    if last_move is not None and last_move:
        highlight = {last_move.from_square, last_move.to_square}
    size = f' width="{STANDALONE_PX}" height="{STANDALONE_PX}"' if standalone else ""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chessboard" viewBox="0 0 {SIZE} {SIZE}"'
        f'{size} data-flipped="{str(flipped).lower()}">',
        _STYLE if standalone else "",
        _DEFS,
        f'<rect class="frame" x="0" y="0" width="{SIZE}" height="{SIZE}"/>',
    ]
    for rank in range(8):
        for file in range(8):
            sq = square(file, rank)
            x, y = square_origin(sq, flipped)
            classes = ["sq", "light" if (file + rank) % 2 else "dark"]
            if sq in highlight:
                classes.append("lastmove")
            if sq == check_square:
                classes.append("check")
            parts.append(
                f'<rect class="{" ".join(classes)}" data-square="{square_name(sq)}" '
                f'x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>'
            )
    for sq, piece in sorted(board.piece_map().items()):
        x, y = square_origin(sq, flipped)
        parts.append(
            f'<use href="#{_PIECE_IDS[piece.symbol()]}" x="{x}" y="{y}" '
            f'class="piece" data-piece="{escape(piece.symbol())}" data-at="{square_name(sq)}"/>'
        )
    for i in range(8):
        file_label = FILES[7 - i] if flipped else FILES[i]
        rank_label = str(i + 1) if flipped else str(8 - i)
        cx = MARGIN + i * SQUARE + SQUARE // 2
        cy = MARGIN + i * SQUARE + SQUARE // 2
        parts.append(f'<text class="coord" x="{cx}" y="{SIZE - 5}">{file_label}</text>')
        parts.append(f'<text class="coord" x="{MARGIN // 2}" y="{cy + 4}">{rank_label}</text>')
    parts.append('<g class="marks"></g></svg>')
    return "".join(parts)
