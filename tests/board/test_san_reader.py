"""The compiled SAN reader against python-chess's ``parse_san``, text by text.

``parse_san`` reads a piece or pawn move in one compiled call
(``plies.core.board_entry.read_san``) and leaves castling, null moves, long algebraic
moves and malformed text to the Python reader. For the legal moves of positions from
random games, each written in many forms python-chess reads (captures with and
without ``x``, promotions with and without ``=``, over-specified origins, check
marks right and wrong) and in forms it refuses (edited characters), plies must give
python-chess's move or refuse with the same error class.
"""

from __future__ import annotations

import random

import chess
import pytest

from plies.board import Board

JUNK = ["", "x", "=", "+", "#", "-", "P", "p", "O", "0", "9", "i", "Kx", "@", "é", " ", "Z"]


def _forms(board: chess.Board, move: chess.Move, rng: random.Random) -> list[str]:
    """SAN of ``move`` in the forms python-chess reads, and a few edited ones."""
    san = board.san(move)
    uci = move.uci()
    bare = san.rstrip("+#")
    names = [san, bare, bare + "+", bare + "#", bare.replace("x", ""), bare.replace("=", ""),
             uci, uci[:2] + "-" + uci[2:], bare.lower(), bare.upper()]  # fmt: skip
    piece = board.piece_at(move.from_square)
    assert piece is not None
    letter = "" if piece.piece_type == chess.PAWN else piece.symbol().upper()
    to = chess.square_name(move.to_square)
    origin = chess.square_name(move.from_square)
    names += [letter + origin[0] + to, letter + origin[1] + to, letter + origin + to,
              letter + origin + "x" + to, letter + to]  # fmt: skip
    if move.promotion:
        symbol = chess.piece_symbol(move.promotion)
        names += [bare[:-1] + symbol, bare[:-2] + symbol.upper(), bare + "Q", bare[:-1] + "K"]
    for _ in range(3):
        i = rng.randrange(len(san) + 1)
        names.append(san[:i] + rng.choice(JUNK) + san[i + rng.randint(0, 1) :])
    return names


def _reading(board: chess.Board | Board, text: str) -> str:
    """The UCI of the move ``text`` names, or the class of the refusal."""
    try:
        return board.parse_san(text).uci()
    except ValueError as exc:
        return type(exc).__name__


@pytest.mark.parametrize("seed", [11, 12])
def test_san_forms_read_as_python_chess_reads_them(seed: int) -> None:
    """Every form of every legal move along random games reads as in python-chess."""
    rng = random.Random(seed)
    texts = 0
    for _ in range(2):
        ref = chess.Board()
        ours = Board()
        while not ref.is_game_over() and ref.ply() < 100:
            for move in ref.legal_moves:
                for text in _forms(ref, move, rng):
                    assert _reading(ours, text) == _reading(ref, text), (text, ref.fen())
                    texts += 1
            move = rng.choice(list(ref.legal_moves))
            ref.push(move)
            ours.push(move)
    assert texts > 10_000


@pytest.mark.parametrize("fen", [
    "7k/1P6/8/8/8/8/8/K7 w - - 0 1",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1",
    "4k3/8/8/2N5/8/2N5/8/4K3 w - - 0 1",
    "4k3/8/8/Q1Q5/8/Q1Q5/8/4K3 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
])  # fmt: skip
def test_promotions_ambiguities_and_en_passant_read_as_python_chess(fen: str) -> None:
    """Promotions (each piece, with and without ``=``), two and three rivals, en passant."""
    rng = random.Random(fen)
    ref = chess.Board(fen)
    ours = Board(fen)
    texts = {text for move in ref.legal_moves for text in _forms(ref, move, rng)}
    texts |= {"Nd4", "Nc4", "Nd3", "Qb4", "Qb5", "Qab4", "Qa3b4", "exf6", "ef6", "ef", "b8",
              "b8=Q", "bxa8=Q", "bxa8=N", "b7b8", "b7b8q", "gxh1=Q", "O-O", "O-O-O", "--"}
    for text in sorted(texts):
        assert _reading(ours, text) == _reading(ref, text), text
