"""The Python chess layer: Board, Move, squares, FEN, SAN, outcomes, perft."""

from plies.board.board import Board
from plies.board.errors import IllegalMoveError, InvalidFenError
from plies.board.fen import STARTING_FEN
from plies.board.move import Move, Piece
from plies.board.outcome import Outcome, Termination
from plies.board.perft import divide, perft
from plies.board.squares import (
    BISHOP,
    BLACK,
    COLOR_NAMES,
    COLORS,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_NAMES,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    QUEEN,
    RANK_NAMES,
    ROOK,
    SQUARE_NAMES,
    SQUARES,
    WHITE,
    Color,
    PieceType,
    Square,
    parse_square,
    piece_symbol,
    square,
    square_file,
    square_name,
    square_rank,
)

__all__ = [
    "BISHOP", "BLACK", "COLORS", "COLOR_NAMES", "FILE_NAMES", "KING", "KNIGHT", "PAWN",
    "PIECE_NAMES", "PIECE_SYMBOLS", "PIECE_TYPES", "QUEEN", "RANK_NAMES", "ROOK",
    "SQUARES", "SQUARE_NAMES", "STARTING_FEN", "WHITE", "Board", "Color",
    "IllegalMoveError", "InvalidFenError", "Move", "Outcome", "Piece", "PieceType",
    "Square", "Termination", "divide", "parse_square", "perft", "piece_symbol",
    "square", "square_file", "square_name", "square_rank",
]  # fmt: skip
