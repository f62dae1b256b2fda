"""The web app's board drawing lives with the board (:mod:`plies.board.svg`)."""

from plies.board.svg import MARGIN, SIZE, SQUARE, render_board, square_origin

__all__ = ["MARGIN", "SIZE", "SQUARE", "render_board", "square_origin"]
