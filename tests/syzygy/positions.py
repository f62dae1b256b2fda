"""Random legal positions of a given ending, for comparing probes with python-chess."""

from __future__ import annotations

import random
from collections.abc import Iterator

import chess

_KINDS = {
    "P": chess.PAWN,
    "N": chess.KNIGHT,
    "B": chess.BISHOP,
    "R": chess.ROOK,
    "Q": chess.QUEEN,
    "K": chess.KING,
}


def random_position(name: str, rng: random.Random, swap: bool) -> chess.Board:
    """A random valid position with the material of ``name`` (``KRvKP``), colours swapped if asked.

    Either side may be to move; positions with a pawn on either side facing an
    enemy pawn sometimes get an en-passant square from a just-made double push.
    """
    first, second = name.split("v")
    sides = (second, first) if swap else (first, second)
    while True:
        board = chess.Board(None)
        board.turn = rng.random() < 0.5
        free = list(range(64))
        rng.shuffle(free)
        for color, letters in zip((chess.WHITE, chess.BLACK), sides, strict=True):
            for letter in letters:
                kind = _KINDS[letter]
                for i, sq in enumerate(free):
                    if kind != chess.PAWN or 8 <= sq < 56:
                        board.set_piece_at(sq, chess.Piece(kind, color))
                        free.pop(i)
                        break
        if rng.random() < 0.5:
            _try_en_passant(board, rng)
        if board.is_valid():
            return board


def _try_en_passant(board: chess.Board, rng: random.Random) -> None:
    """Put a pawn of the side not to move on its 4th rank next to an enemy pawn, as if pushed."""
    them = not board.turn
    rank = 3 if them == chess.WHITE else 4
    step = -8 if them == chess.WHITE else 8
    pawns = list(board.pieces(chess.PAWN, them))
    capturers = list(board.pieces(chess.PAWN, board.turn))
    if not pawns or not capturers:
        return
    pawn = rng.choice(pawns)
    capturer = rng.choice(capturers)
    board.remove_piece_at(pawn)
    board.remove_piece_at(capturer)
    file = rng.randrange(8)
    target = chess.square(file, rank)
    beside = [chess.square(f, rank) for f in (file - 1, file + 1) if 0 <= f < 8]
    side_sq = rng.choice(beside)
    ep = target + step
    if any(board.piece_at(sq) for sq in (target, side_sq, ep, ep + step)):
        board.set_piece_at(pawn, chess.Piece(chess.PAWN, them))
        board.set_piece_at(capturer, chess.Piece(chess.PAWN, board.turn))
        return
    board.set_piece_at(target, chess.Piece(chess.PAWN, them))
    board.set_piece_at(side_sq, chess.Piece(chess.PAWN, board.turn))
    board.ep_square = ep


def en_passant_positions(count: int, seed: int) -> Iterator[chess.Board]:
    """``count`` random KPvKP positions in which an en-passant capture is legal."""
    rng = random.Random(seed)
    seen = 0
    while seen < count:
        board = random_position("KPvKP", rng, swap=False)
        if board.has_legal_en_passant():
            seen += 1
            yield board
