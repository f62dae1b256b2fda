"""The core's integers as the board's values: move codes to ``Move``, piece codes to types."""

from __future__ import annotations

from plies.board.move import Move
from plies.board.squares import BLACK, KING, WHITE, Color, PieceType
from plies.core.encoding import (
    COLOR_SHIFT,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
    promotion_of,
)

# PIECE_CODE[color][piece_type]: the core's piece code (kind 0: the colour's occupancy slot).
PIECE_CODE = tuple(tuple((c << COLOR_SHIFT) | k for k in range(KING + 1)) for c in (WHITE, BLACK))

# Moves are immutable and there are fewer than 65536 codes: share one Move each.
_MOVES: dict[int, Move] = {}


def core_to_move(m: int) -> Move:
    """Python ``Move`` of a core move integer (see ``plies.core.encoding``)."""
    move = _MOVES.get(m)
    if move is None:
        move = _MOVES[m] = Move(m & 63, (m >> 6) & 63, promotion_of(m))
    return move


def _castle_flag(m: int) -> int:
    """The castling flag of a core move (FLAG_KING_CASTLE, FLAG_QUEEN_CASTLE), else 0."""
    flag = (m >> FLAG_SHIFT) & 15
    return flag if flag in (FLAG_KING_CASTLE, FLAG_QUEEN_CASTLE) else 0


def core_to_move_960(m: int, castle_rooks: tuple[int, ...]) -> Move:
    """Python ``Move`` of a core move in Chess960 notation: castling as king takes rook
    (``castle_rooks``: the rook square of each right, K, Q, k, q)."""
    flag = _castle_flag(m)
    if not flag:
        return core_to_move(m)
    frm = m & 63
    right = (2 if frm >= 56 else 0) + flag - FLAG_KING_CASTLE
    return Move(frm, castle_rooks[right])


def piece_kind(code: int) -> PieceType:
    """Piece type of a piece code."""
    return code & 7


def piece_color(code: int) -> Color:
    """Colour of a piece code."""
    return code >> COLOR_SHIFT
