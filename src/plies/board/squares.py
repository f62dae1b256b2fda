"""Colours, piece types and squares: python-chess's own names and values.

``WHITE`` is ``True`` and ``BLACK`` ``False``, squares run ``A1 = 0`` to ``H8 = 63`` and
piece types ``PAWN = 1`` to ``KING = 6``, exactly as in python-chess, so code written for
``chess`` reads the same here. The compiled core numbers colours its own way (white 0); the
board converts at its edge (``core_color``).
"""

from __future__ import annotations

from chess import (
    A1,
    A2,
    A3,
    A4,
    A5,
    A6,
    A7,
    A8,
    B1,
    B2,
    B3,
    B4,
    B5,
    B6,
    B7,
    B8,
    BB_EMPTY,
    BB_SQUARES,
    BISHOP,
    BLACK,
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    C7,
    C8,
    COLOR_NAMES,
    COLORS,
    D1,
    D2,
    D3,
    D4,
    D5,
    D6,
    D7,
    D8,
    E1,
    E2,
    E3,
    E4,
    E5,
    E6,
    E7,
    E8,
    F1,
    F2,
    F3,
    F4,
    F5,
    F6,
    F7,
    F8,
    FILE_NAMES,
    G1,
    G2,
    G3,
    G4,
    G5,
    G6,
    G7,
    G8,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    H7,
    H8,
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
    UNICODE_PIECE_SYMBOLS,
    WHITE,
    Bitboard,
    Color,
    PieceType,
    Square,
    parse_square,
    piece_name,
    piece_symbol,
    square,
    square_distance,
    square_file,
    square_mirror,
    square_name,
    square_rank,
)  # fmt: skip


def core_color(color: Color) -> int:
    """The compiled core's number for a colour (white 0, black 1)."""
    return 0 if color else 1


def board_color(core: int) -> Color:
    """The python-chess colour of the compiled core's colour number."""
    return core == 0


__all__ = [
    "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "B1", "B2", "B3", "B4", "B5", "B6", "B7",
    "B8", "BB_EMPTY", "BB_SQUARES", "BISHOP", "BLACK", "C1", "C2", "C3", "C4", "C5", "C6", "C7",
    "C8", "COLORS", "COLOR_NAMES", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "E1", "E2",
    "E3", "E4", "E5", "E6", "E7", "E8", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8",
    "FILE_NAMES", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "H1", "H2", "H3", "H4", "H5",
    "H6", "H7", "H8", "KING", "KNIGHT", "PAWN", "PIECE_NAMES", "PIECE_SYMBOLS", "PIECE_TYPES",
    "QUEEN", "RANK_NAMES", "ROOK", "SQUARES", "SQUARE_NAMES", "UNICODE_PIECE_SYMBOLS", "WHITE",
    "Bitboard", "Color", "PieceType", "Square", "board_color", "core_color", "parse_square",
    "piece_name", "piece_symbol", "square", "square_distance", "square_file", "square_mirror",
    "square_name", "square_rank",
]  # fmt: skip
