"""Standard algebraic notation: writing and reading moves in SAN, from the legal move
integers the board already holds."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from chess import (
    FILE_NAMES,
    PIECE_SYMBOLS,
    SQUARE_NAMES,
    WHITE,
    Move,
    square,
)

from plies.board.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from plies.core.board_handle import SAN_GREW
from plies.core.encoding import (
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
)

if TYPE_CHECKING:
    from plies.board.board import Board

_SAN_RE = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")
_CASTLES = {
    "O-O": 1, "O-O+": 1, "O-O#": 1, "0-0": 1, "0-0+": 1, "0-0#": 1,
    "O-O-O": 0, "O-O-O+": 0, "O-O-O#": 0, "0-0-0": 0, "0-0-0+": 0, "0-0-0#": 0,
}  # fmt: skip
"""Castling in SAN: 1 for king-side, 0 for queen-side (as python-chess reads it)."""
_SQUARES = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
_TEXTS: dict[int, str] = {}
"""Each SAN met so far by its packed bytes (``plies.core.board_handle.san_at``): a few
thousand at most."""
_NULL_SAN = ("--", "Z0", "0000", "@@@@")
_LETTERS = ("", "", "N", "B", "R", "Q", "K")
# Castling is flag 2 or 3 whatever its capture bit says (a Chess960 king may take its rook).
_FLAG = 0b1011 << FLAG_SHIFT
_KING_CASTLE = FLAG_KING_CASTLE << FLAG_SHIFT
_QUEEN_CASTLE = FLAG_QUEEN_CASTLE << FLAG_SHIFT


def san(board: Board, move: Move) -> str:
    """SAN of a legal move, with ``+`` for check and ``#`` for mate (``--``: the null move)."""
    code = board._code_of(move)
    if code == 0:
        if not move:
            return "--"
        code = board._code_of(board._castling_alias(move))
        if code == 0:
            raise IllegalMoveError(f"illegal san: {move.uci()!r} in {board.fen()}"
                                   f"{board._why_illegal(move)}")  # fmt: skip
    packed = board._c.san(board._h, code)
    if packed & SAN_GREW:
        board._read_arrays()
        packed &= ~SAN_GREW
    text = _TEXTS.get(packed)
    if text is None:
        text = _TEXTS[packed] = bytes((packed >> shift) & 127 for shift in range(0, 56, 7)
                                      if (packed >> shift) & 127).decode()  # fmt: skip
    return text


def parse_san(board: Board, text: str) -> Move:
    """The legal move a SAN string names (python-chess's reading, overspecified and long
    algebraic moves included); InvalidMoveError, IllegalMoveError or AmbiguousMoveError."""
    if isinstance(text, str):
        # A piece or pawn move, the common case, is read in one compiled call.
        found = board._c.read_san(board._h, text if type(text) is str else str(text))
        if found > 0:
            return board.move_of(found)
        if found == 0:
            raise IllegalMoveError(f"illegal san: {text!r} in {board.fen()}")
        if found == -1:
            raise AmbiguousMoveError(f"ambiguous san: {text!r} in {board.fen()}")
    side = _CASTLES.get(text)
    if side is not None:
        for code in board._legal_codes():
            if code & _FLAG == (_KING_CASTLE if side else _QUEEN_CASTLE):
                return board.move_of(code)
        raise IllegalMoveError(f"illegal san: {text!r} in {board.fen()}")
    match = _SAN_RE.match(text)
    if not match:
        if text in _NULL_SAN:
            return Move.null()
        if "," in text:
            raise InvalidMoveError(f"unsupported multi-leg move: {text!r}")
        raise InvalidMoveError(f"invalid san: {text!r}")
    letter, from_file, from_rank, to_name, promo = match.groups()
    to = _SQUARES[to_name]
    promotion = PIECE_SYMBOLS.index(promo[-1].lower()) if promo else None
    if not letter and from_file and from_rank:
        # Fully specified moves (long algebraic, castling as a king move) as python-chess.
        move = board.find_move(square(FILE_NAMES.index(from_file), int(from_rank) - 1), to,
                               promotion)  # fmt: skip
        if move.promotion != promotion:
            raise IllegalMoveError(f"missing promotion piece type: {text!r} in {board.fen()}")
        return move
    # Every other SAN the pattern matches was read above (the compiled reader reads what
    # the pattern does); python-chess's reading stands behind it all the same.
    return board._python_chess_view(stack=False).parse_san(text)


def variation_san(board: Board, moves: Iterable[Move]) -> str:
    """A line of legal moves in SAN with move numbers, starting from ``board``."""
    scratch = board.copy()
    parts: list[str] = []
    for i, move in enumerate(moves):
        if not scratch.is_legal(move):
            raise IllegalMoveError(f"illegal move {move} in position {scratch.fen()}"
                                   f"{scratch._why_illegal(move)}")  # fmt: skip
        text = san(scratch, move)
        if scratch.turn == WHITE:
            parts.append(f"{scratch.fullmove_number}. {text}")
        elif i == 0:
            parts.append(f"{scratch.fullmove_number}...{text}")
        else:
            parts.append(text)
        scratch.push(move)
    return " ".join(parts)
