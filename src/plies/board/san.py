"""Standard algebraic notation: writing and reading moves in SAN, from the legal move
integers the board already holds."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from plies.board.calls import GREW
from plies.board.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from plies.board.move import Move
from plies.board.squares import (
    FILE_NAMES,
    KNIGHT,
    PAWN,
    PIECE_SYMBOLS,
    RANK_NAMES,
    SQUARE_NAMES,
    WHITE,
    square,
)
from plies.core.encoding import (
    CAPTURE_BIT,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
    PROMOTION_BIT,
)

if TYPE_CHECKING:
    from plies.board.board import Board

_SAN_RE = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")
_CASTLES = {
    "O-O": 1, "O-O+": 1, "O-O#": 1, "0-0": 1, "0-0+": 1, "0-0#": 1,
    "O-O-O": 0, "O-O-O+": 0, "O-O-O#": 0, "0-0-0": 0, "0-0-0+": 0, "0-0-0#": 0,
}  # fmt: skip
"""Castling in SAN: 1 for king-side, 0 for queen-side (as python-chess reads it)."""
_NULL_SAN = ("--", "Z0", "0000", "@@@@")
_LETTERS = ("", "", "N", "B", "R", "Q", "K")
# Castling is flag 2 or 3 whatever its capture bit says (a Chess960 king may take its rook).
_FLAG = 0b1011 << FLAG_SHIFT
_KING_CASTLE = FLAG_KING_CASTLE << FLAG_SHIFT
_QUEEN_CASTLE = FLAG_QUEEN_CASTLE << FLAG_SHIFT


def san(board: Board, move: Move) -> str:
    """SAN of a legal move, with ``+`` for check and ``#`` for mate (``--``: the null move)."""
    if not move:
        return "--"
    code = board._code_of(move) or board._code_of(board._castling_alias(move))
    if code == 0:
        raise IllegalMoveError(f"illegal san: {move.uci()!r} in {board.fen()}"
                               f"{board._why_illegal(move)}")  # fmt: skip
    return _with_suffix(board, code, _san_body(board, code))


def _san_body(board: Board, code: int) -> str:
    """SAN of legal move integer ``code`` without its check suffix."""
    flag = code & _FLAG
    if flag == _KING_CASTLE:
        return "O-O"
    if flag == _QUEEN_CASTLE:
        return "O-O-O"
    frm, to = code & 63, (code >> 6) & 63
    squares = board._squares
    kind = int(squares[frm]) & 7
    capture = code & CAPTURE_BIT
    if kind == PAWN:
        text = FILE_NAMES[frm & 7] + "x" if capture else ""
    else:
        text = _LETTERS[kind]
        rivals = [c & 63 for c in board._legal_codes()
                  if (c >> 6) & 63 == to and c & 63 != frm and int(squares[c & 63]) & 7 == kind
                  and c & _FLAG not in (_KING_CASTLE, _QUEEN_CASTLE)]  # fmt: skip
        if rivals:
            if all((sq & 7) != (frm & 7) for sq in rivals):
                text += FILE_NAMES[frm & 7]
            elif all((sq >> 3) != (frm >> 3) for sq in rivals):
                text += RANK_NAMES[frm >> 3]
            else:
                text += SQUARE_NAMES[frm]
        if capture:
            text += "x"
    text += SQUARE_NAMES[to]
    if code & PROMOTION_BIT:
        text += "=" + _LETTERS[((code >> FLAG_SHIFT) & 3) + KNIGHT]
    return text


def _with_suffix(board: Board, code: int, text: str) -> str:
    """``text`` with ``+`` or ``#`` as legal move ``code`` gives check or mate."""
    given = board._c.check_after(board._pos, code)
    if given & GREW:
        board._read_arrays()
        given &= ~GREW
    return text + ("#" if given == 2 else "+" if given == 1 else "")


def parse_san(board: Board, text: str) -> Move:
    """The legal move a SAN string names (python-chess's reading, overspecified and long
    algebraic moves included); InvalidMoveError, IllegalMoveError or AmbiguousMoveError."""
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
    to = SQUARE_NAMES.index(to_name)
    promotion = PIECE_SYMBOLS.index(promo[-1].lower()) if promo else None
    if not letter and from_file and from_rank:
        # Fully specified moves (long algebraic, castling as a king move) as python-chess.
        move = board.find_move(square(FILE_NAMES.index(from_file), int(from_rank) - 1), to,
                               promotion)  # fmt: skip
        if move.promotion != promotion:
            raise IllegalMoveError(f"missing promotion piece type: {text!r} in {board.fen()}")
        return move
    kind = PIECE_SYMBOLS.index(letter.lower()) if letter else PAWN
    if not letter and not from_file:
        from_file = to_name[0]  # a pawn move without a file stays on its file: no capture
    file_index = FILE_NAMES.index(from_file) if from_file else -1
    rank_index = int(from_rank) - 1 if from_rank else -1
    squares = board._squares
    own = board.turn
    found = 0
    for code in board._legal_codes():
        frm = code & 63
        if ((code >> 6) & 63 != to or int(squares[frm]) & 7 != kind
                or (file_index >= 0 and frm & 7 != file_index)
                or (rank_index >= 0 and frm >> 3 != rank_index)):  # fmt: skip
            continue
        if code & _FLAG in (_KING_CASTLE, _QUEEN_CASTLE):
            continue  # castling is written O-O, never as a king move
        target = int(squares[to])
        if target and (target < 8) == own:
            continue
        if (((code >> FLAG_SHIFT) & 3) + KNIGHT if code & PROMOTION_BIT else None) != promotion:
            continue
        if found:
            raise AmbiguousMoveError(f"ambiguous san: {text!r} in {board.fen()}")
        found = code
    if not found:
        raise IllegalMoveError(f"illegal san: {text!r} in {board.fen()}")
    return board.move_of(found)


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
