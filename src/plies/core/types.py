"""Encodings shared by the compiled core: pieces, the move integer, position arrays.

Pieces
    ``piece = color * 6 + kind`` with colors WHITE=0, BLACK=1 and kinds
    PAWN=0, KNIGHT=1, BISHOP=2, ROOK=3, QUEEN=4, KING=5; ``EMPTY = 12``.
    Squares run A1=0, B1=1, ..., H8=63.

The move integer (16 significant bits, held in an int64)::

    bits  0-5   from square
    bits  6-11  to square
    bits 12-15  flag:
                0 quiet            1 double pawn push
                2 king-side castle 3 queen-side castle
                4 capture          5 en-passant capture
                8-11  promotion to N, B, R, Q
                12-15 capture with promotion to N, B, R, Q

    bit 14 set (flag >= 4, below 8, or flag >= 12) marks a capture;
    bit 15 set (flag >= 8) marks a promotion. ``NO_MOVE = 0`` is never legal
    (a1 to a1).

A position is five arrays, always passed together as ``bb, mb, st, hist, keys``:

    bb    uint64[14]  piece bitboards 0..11, then occupancy of WHITE (12), BLACK (13)
    mb    int64[64]   mailbox: the piece on each square or EMPTY
    st    int64[ST_SIZE]  side, castling rights, en-passant square, clocks, ply
    hist  int64[cap, H_SIZE]  one undo record per move made (the undo stack)
    keys  uint64[cap]  Zobrist key after each ply; keys[st[ST_PLY]] is current

``st[ST_PLY]`` counts the moves made since the position was set up, so
``keys[0 .. ply]`` is the whole game seen by repetition detection.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WHITE = 0
BLACK = 1

PAWN = 0
KNIGHT = 1
BISHOP = 2
ROOK = 3
QUEEN = 4
KING = 5
EMPTY = 12

OCC_WHITE = 12
OCC_BLACK = 13
BB_SIZE = 14

# Castling-right bits in st[ST_CASTLE].
CASTLE_WK = 1
CASTLE_WQ = 2
CASTLE_BK = 4
CASTLE_BQ = 8

NO_SQUARE = 64

# Indices into st.
ST_SIDE = 0
ST_CASTLE = 1
ST_EP = 2
ST_HALFMOVE = 3
ST_FULLMOVE = 4
ST_PLY = 5
ST_SIZE = 8

# Columns of one undo record in hist.
H_MOVE = 0
H_CAPTURED = 1
H_CASTLE = 2
H_EP = 3
H_HALFMOVE = 4
H_SIZE = 5

# Move flags.
FLAG_QUIET = 0
FLAG_DOUBLE = 1
FLAG_KING_CASTLE = 2
FLAG_QUEEN_CASTLE = 3
FLAG_CAPTURE = 4
FLAG_EP = 5
FLAG_PROMO = 8
FLAG_PROMO_CAPTURE = 12

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
# Every move buffer in core/ and engine/ has this many slots (>= MAX_LEGAL_MOVES).
MAX_MOVES = 416


@njit(cache=True, inline="always")
def encode_move(frm: int, to: int, flag: int) -> int:
    """Pack from, to and flag into a move integer."""
    return frm | (to << 6) | (flag << 12)


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
    return (m >> 12) & 15


@njit(cache=True, inline="always")
def is_capture(m: int) -> bool:
    """True for captures, en passant and capture-promotions."""
    return (m >> 14) & 1 == 1


@njit(cache=True, inline="always")
def is_promotion(m: int) -> bool:
    """True for promotions (with or without capture)."""
    return (m >> 15) & 1 == 1


@njit(cache=True, inline="always")
def promotion_kind(m: int) -> int:
    """Piece kind promoted to (KNIGHT..QUEEN); only meaningful for promotions."""
    return ((m >> 12) & 3) + KNIGHT


def new_position_arrays(capacity: int = 512) -> tuple[np.ndarray, ...]:
    """Allocate empty ``bb, mb, st, hist, keys`` arrays with room for ``capacity`` plies."""
    bb = np.zeros(BB_SIZE, dtype=np.uint64)
    mb = np.full(64, EMPTY, dtype=np.int64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_EP] = NO_SQUARE
    hist = np.zeros((capacity, H_SIZE), dtype=np.int64)
    keys = np.zeros(capacity + 1, dtype=np.uint64)
    return bb, mb, st, hist, keys
