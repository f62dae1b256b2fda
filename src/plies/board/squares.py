"""Typed-int names for colours, piece types and squares (python-chess style)."""

from __future__ import annotations

from plies.core import encoding

Color = int
"""A colour: ``WHITE`` (0) or ``BLACK`` (1), numbered as in ``plies.core.encoding``."""
WHITE: Color = encoding.WHITE
BLACK: Color = encoding.BLACK
COLORS: tuple[Color, Color] = (WHITE, BLACK)
COLOR_NAMES: tuple[str, str] = ("white", "black")

PieceType = int
"""A piece type, ``PAWN`` (1) to ``KING`` (6), numbered as in ``plies.core.encoding``."""
PAWN: PieceType = encoding.PAWN
KNIGHT: PieceType = encoding.KNIGHT
BISHOP: PieceType = encoding.BISHOP
ROOK: PieceType = encoding.ROOK
QUEEN: PieceType = encoding.QUEEN
KING: PieceType = encoding.KING
PIECE_TYPES: tuple[PieceType, ...] = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_SYMBOLS: tuple[str, ...] = ("", "p", "n", "b", "r", "q", "k")
PIECE_NAMES: tuple[str, ...] = ("", "pawn", "knight", "bishop", "rook", "queen", "king")

Square = int
"""A square index: ``A1`` = 0, ``B1`` = 1, ..., ``H8`` = 63."""
FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
SQUARES: tuple[Square, ...] = tuple(range(64))

# fmt: off
A1, B1, C1, D1, E1, F1, G1, H1 = range(0, 8)
A2, B2, C2, D2, E2, F2, G2, H2 = range(8, 16)
A3, B3, C3, D3, E3, F3, G3, H3 = range(16, 24)
A4, B4, C4, D4, E4, F4, G4, H4 = range(24, 32)
A5, B5, C5, D5, E5, F5, G5, H5 = range(32, 40)
A6, B6, C6, D6, E6, F6, G6, H6 = range(40, 48)
A7, B7, C7, D7, E7, F7, G7, H7 = range(48, 56)
A8, B8, C8, D8, E8, F8, G8, H8 = range(56, 64)
# fmt: on


def square(file_index: int, rank_index: int) -> Square:
    """Square at a file (0-7, a-h) and rank (0-7, 1-8)."""
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    """File index 0-7 (a-h) of a square."""
    return sq & 7


def square_rank(sq: Square) -> int:
    """Rank index 0-7 (1-8) of a square."""
    return sq >> 3


def square_name(sq: Square) -> str:
    """Algebraic name of a square, e.g. ``"e4"``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """Square from its algebraic name; ValueError if it is not one."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"not a square name: {name!r}") from None


def piece_symbol(piece_type: PieceType) -> str:
    """Lower-case letter of a piece type (``"n"`` for a knight)."""
    return PIECE_SYMBOLS[piece_type]
