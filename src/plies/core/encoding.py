"""Encodings shared by the whole of plies: colours, pieces, the move integer.

One numbering, used by ``plies.board`` and the compiled core alike:

Colours and piece kinds
    ``WHITE = 0``, ``BLACK = 1``; kinds ``PAWN = 1`` ... ``KING = 6`` (as in
    python-chess). A *piece* is ``color * 8 + kind`` (``piece_code``), so
    ``kind = piece & 7`` and ``color = piece >> COLOR_SHIFT`` (3); ``NO_PIECE = 0`` marks an
    empty square. The piece bitboards are indexed by piece, and the otherwise
    unused slot ``color * 8`` (kind 0, ``ALL_KINDS``) holds that colour's
    occupancy: ``pieces[piece_code(c, ALL_KINDS)]``.

Squares
    ``A1 = 0``, ``B1 = 1``, ..., ``H8 = 63``; ``NO_SQUARE = 64``.

The move integer (16 significant bits, held in an int64)::

    bits  0-5   from square
    bits  6-11  to square
    bits 12-15  flag:
                0 quiet            1 double pawn push
                2 king-side castle 3 queen-side castle
                4 capture          5 en-passant capture
                8-11  promotion to N, B, R, Q
                12-15 capture with promotion to N, B, R, Q

    bit 14 set (flag 4-7 or 12-15) marks a capture; bit 15 (flag >= 8) a
    promotion, whose kind is ``KNIGHT + (flag & 3)``. ``NO_MOVE = 0`` is never
    legal (a1 to a1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

WHITE = 0
BLACK = 1

ALL_KINDS = 0
PAWN = 1
KNIGHT = 2
BISHOP = 3
ROOK = 4
QUEEN = 5
KING = 6

NO_PIECE = 0
COLOR_SHIFT = 3
"""A piece code is ``(color << COLOR_SHIFT) | kind``."""
PIECE_SLOTS = 16
"""Length of the piece-indexed arrays (bitboards, counter moves, Zobrist keys)."""

PIECE_LETTERS = ".PNBRQK..pnbrqk."
"""FEN letter of each piece code ("." where no piece has that code)."""

NO_SQUARE = 64

# Castling-right bits.
CASTLE_WK = 1
CASTLE_WQ = 2
CASTLE_BK = 4
CASTLE_BQ = 8
CASTLE_ALL = CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ

# Move flags (bits 12-15 of a move).
FLAG_QUIET = 0
FLAG_DOUBLE = 1
FLAG_KING_CASTLE = 2
FLAG_QUEEN_CASTLE = 3
FLAG_CAPTURE = 4
FLAG_EP = 5
FLAG_PROMO = 8
FLAG_PROMO_CAPTURE = 12
FLAG_SHIFT = 12
CAPTURE_BIT = 1 << 14
PROMOTION_BIT = 1 << 15

NO_MOVE = 0

# The most legal moves any position accepted by the board's validation can have.
# Validation (plies.board.fen.validate) admits per colour exactly one king and at
# most 16 pieces, so the side to move has at most 15 pieces besides its king.
# A move belongs to one moving piece, and no piece has more moves than:
#   queen 27 (the squares a queen attacks from d4/d5/e4/e5 on an empty board);
#   rook 14, bishop 13, knight 8: each below the queen's 27;
#   pawn 12 (a pawn reaches at most 3 squares: its push and two diagonals, en
#     passant included; on the 7th rank each becomes 4 promotions, 3 x 4 = 12;
#     elsewhere at most 4 moves: one push, the double push, two captures);
#   king 8 steps plus 2 castlings.
# Hence at most 15 * 27 + 8 + 2 = 415 moves. Captures-only generation is a
# subset. (The most known for a reachable position is 218.)
MAX_LEGAL_MOVES = 15 * 27 + 8 + 2
MAX_MOVES = 416
"""Slots of every move buffer in the core and the engine (>= MAX_LEGAL_MOVES)."""


@njit(cache=True, inline="always")
def piece_code(color: int, kind: int) -> int:
    """The piece of a colour and kind (``ALL_KINDS`` gives the colour's occupancy slot)."""
    return (color << COLOR_SHIFT) | kind


@njit(cache=True, inline="always")
def kind_of(piece: int) -> int:
    """Kind (PAWN..KING) of a piece; 0 for NO_PIECE."""
    return piece & 7


@njit(cache=True, inline="always")
def color_of(piece: int) -> int:
    """Colour of a piece."""
    return piece >> COLOR_SHIFT


@njit(cache=True, inline="always")
def move_from(m: int) -> int:
    """From square of a move."""
    return m & 63


@njit(cache=True, inline="always")
def move_to(m: int) -> int:
    """To square of a move."""
    return (m >> 6) & 63


@njit(cache=True, inline="always")
def move_flag(m: int) -> int:
    """Flag nibble of a move."""
    return (m >> FLAG_SHIFT) & 15


@njit(cache=True, inline="always")
def is_capture(m: int) -> bool:
    """True for captures, en passant and capture-promotions."""
    return (m & CAPTURE_BIT) != 0


@njit(cache=True, inline="always")
def is_promotion(m: int) -> bool:
    """True for promotions (with or without capture)."""
    return (m & PROMOTION_BIT) != 0


@njit(cache=True, inline="always")
def is_noisy(m: int) -> bool:
    """True for captures and promotions (the moves quiescence searches)."""
    return (m & (CAPTURE_BIT | PROMOTION_BIT)) != 0


@njit(cache=True, inline="always")
def promotion_kind(m: int) -> int:
    """Piece kind promoted to (KNIGHT..QUEEN); only meaningful for promotions."""
    return ((m >> FLAG_SHIFT) & 3) + KNIGHT


@njit(cache=True, inline="always")
def castle_right(to: int, flag: int) -> int:
    """Index (0-3: WK, WQ, BK, BQ) of the castling right a castling move whose king lands
    on ``to`` uses."""
    return (2 if to >= 56 else 0) + (flag - FLAG_KING_CASTLE)


def castle_targets(right: int) -> tuple[int, int]:
    """King and rook destinations of a castling right (0-3): g and f, or c and d files,
    in Chess960 as in standard chess (plain Python, for setting up a position)."""
    rank = 56 if right >= 2 else 0
    if right & 1:
        return rank + 2, rank + 3
    return rank + 6, rank + 5


@njit(cache=True, inline="always")
def rook_castle_squares(castle_rooks: np.ndarray, to: int, flag: int) -> tuple[int, int]:
    """From and to squares of the rook in a castling move whose king lands on ``to``
    (``castle_rooks``: the position's rook square of each right, ``Position.castle_rooks``)."""
    if flag == FLAG_KING_CASTLE:
        return castle_rooks[castle_right(to, flag)], to - 1
    return castle_rooks[castle_right(to, flag)], to + 1


def promotion_of(m: int) -> int | None:
    """Kind a move promotes to, or None (plain Python, for the board layer)."""
    return ((m >> FLAG_SHIFT) & 3) + KNIGHT if m & PROMOTION_BIT else None
