"""Standard algebraic notation: writing and reading moves in SAN."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from plies.board.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from plies.board.move import Move
from plies.board.squares import (
    FILE_NAMES,
    KING,
    PAWN,
    PIECE_SYMBOLS,
    RANK_NAMES,
    SQUARE_NAMES,
    WHITE,
)

if TYPE_CHECKING:
    from plies.board.state import BoardState

_SAN_RE = re.compile(r"^([NBRQK])?([a-h])?([1-8])?[-x]?([a-h][1-8])(?:=?([NBRQnbrq]))?$")


def _piece_type(board: BoardState, move: Move) -> int:
    """Type of the piece on the move's from-square (0 if empty)."""
    piece = board.piece_at(move.from_square)
    return 0 if piece is None else piece.piece_type


def san(board: BoardState, move: Move) -> str:
    """SAN of a legal move, with ``+`` for check and ``#`` for mate (``--``: the null move)."""
    if not move:
        return "--"
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move: {move.uci()} in {board.fen()}")
    if board.is_castling(move):
        text = "O-O" if move.to_square > move.from_square else "O-O-O"
    else:
        kind = _piece_type(board, move)
        capture = board.is_capture(move)
        text = ""
        if kind == PAWN:
            if capture:
                text = FILE_NAMES[move.from_square & 7]
        else:
            text = PIECE_SYMBOLS[kind].upper()
            rivals = [
                m.from_square
                for m in board.legal_moves
                if m.to_square == move.to_square
                and m.from_square != move.from_square
                and _piece_type(board, m) == kind
            ]
            if rivals:
                same_file = any((sq & 7) == (move.from_square & 7) for sq in rivals)
                same_rank = any((sq >> 3) == (move.from_square >> 3) for sq in rivals)
                if not same_file:
                    text += FILE_NAMES[move.from_square & 7]
                elif not same_rank:
                    text += RANK_NAMES[move.from_square >> 3]
                else:
                    text += SQUARE_NAMES[move.from_square]
        if capture:
            text += "x"
        text += SQUARE_NAMES[move.to_square]
        if move.promotion:
            text += "=" + PIECE_SYMBOLS[move.promotion].upper()
    board.push(move)
    try:
        if board.is_checkmate():
            text += "#"
        elif board.is_check():
            text += "+"
    finally:
        board.pop()
    return text


def parse_san(board: BoardState, text: str) -> Move:
    """The legal move a SAN string names; IllegalMoveError if none or several."""
    cleaned = text.strip().rstrip("+#!?")
    if cleaned in ("--", "Z0", "0000", "@@@@"):
        return Move.null()
    if cleaned in ("O-O", "0-0", "O-O-O", "0-0-0"):
        king_side = len(cleaned) == 3
        for move in board.legal_moves:
            if board.is_castling(move) and (move.to_square > move.from_square) == king_side:
                return move
        raise IllegalMoveError(f"illegal san: {text!r} in {board.fen()}")
    match = _SAN_RE.match(cleaned)
    if not match:
        raise InvalidMoveError(f"invalid san: {text!r}")
    letter, from_file, from_rank, to_name, promo = match.groups()
    kind = PIECE_SYMBOLS.index(letter.lower()) if letter else PAWN
    to_sq = SQUARE_NAMES.index(to_name)
    promotion = PIECE_SYMBOLS.index(promo.lower()) if promo else None
    if promotion == KING:
        raise InvalidMoveError(f"invalid san: {text!r}")
    candidates = [
        m
        for m in board.legal_moves
        if m.to_square == to_sq
        and _piece_type(board, m) == kind
        and m.promotion == promotion
        and (from_file is None or FILE_NAMES[m.from_square & 7] == from_file)
        and (from_rank is None or RANK_NAMES[m.from_square >> 3] == from_rank)
        and not board.is_castling(m)
    ]
    if not candidates:
        raise IllegalMoveError(f"illegal san: {text!r} in {board.fen()}")
    if len(candidates) > 1:
        raise AmbiguousMoveError(f"ambiguous san: {text!r} in {board.fen()}")
    return candidates[0]


def variation_san(board: BoardState, moves: Iterable[Move]) -> str:
    """A line of legal moves in SAN with move numbers, starting from ``board``."""
    scratch = board.copy()
    parts: list[str] = []
    for i, move in enumerate(moves):
        text = san(scratch, move)
        if scratch.turn == WHITE:
            parts.append(f"{scratch.fullmove_number}. {text}")
        elif i == 0:
            parts.append(f"{scratch.fullmove_number}...{text}")
        else:
            parts.append(text)
        scratch.push(move)
    return " ".join(parts)
