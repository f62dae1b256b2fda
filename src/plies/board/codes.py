"""The core's integers as the board's values: move codes to ``Move``, piece codes to types.

The core numbers colours white 0, black 1 and a piece code is ``colour << 3 | kind``;
python-chess's colours are ``WHITE = True``, ``BLACK = False``.
"""

from __future__ import annotations

from chess import KING, Color, Move, PieceType

from plies.core.encoding import (
    COLOR_SHIFT,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
    promotion_of,
)

# PIECE_CODE[color][piece_type]: the core's piece code, python-chess's colour as the index
# (BLACK = False first); kind 0 is the colour's occupancy slot.
PIECE_CODE = tuple(tuple((core << COLOR_SHIFT) | k for k in range(KING + 1)) for core in (1, 0))

MOVES: dict[int, Move] = {}
"""One shared ``Move`` per core move integer met so far (fewer than 65536 exist)."""
CODE_OF_ID: dict[int, int] = {}
"""The core move integer of each shared ``Move`` of ``MOVES``, by the object's ``id`` (the
objects live as long as ``MOVES``, so their ids stay theirs): a move the board handed out
carries its integer, whichever position it is pushed on, without being hashed."""


def core_to_move(m: int) -> Move:
    """Python ``Move`` of a core move integer (see ``plies.core.encoding``)."""
    move = MOVES.get(m)
    if move is None:
        move = MOVES[m] = Move(m & 63, (m >> 6) & 63, promotion_of(m))
        CODE_OF_ID[id(move)] = m
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
    """python-chess colour of a piece code (True for white)."""
    return code >> COLOR_SHIFT == 0
