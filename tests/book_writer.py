"""A Polyglot book writer and its fixtures, from the public format (no download needed).

Each entry is 16 big-endian bytes: the position's Polyglot key
(``chess.polyglot.zobrist_hash``), the move (bits 0-5 to square, 6-11 from
square, 12-14 promotion piece: 1 knight .. 4 queen; castling written as the
king taking its own rook), the weight and the learn field; entries sorted by key.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from pathlib import Path

import chess
import chess.polyglot
import pytest

BookLine = tuple[str, str, int]
"""A FEN (or "startpos" plus space-separated UCI moves), a UCI move and its weight."""

_CASTLING_AS_ROOK_CAPTURE = {"e1g1": "e1h1", "e1c1": "e1a1", "e8g8": "e8h8", "e8c8": "e8a8"}


def _board(position: str) -> chess.Board:
    """``startpos`` optionally followed by UCI moves, or a FEN."""
    if position.startswith("startpos"):
        board = chess.Board()
        for uci in position.split()[1:]:
            board.push_uci(uci)
        return board
    return chess.Board(position)


def encode_move(board: chess.Board, uci: str) -> int:
    """The 16-bit Polyglot encoding of ``uci`` in ``board``."""
    move = chess.Move.from_uci(uci)
    if board.is_castling(move):
        move = chess.Move.from_uci(_CASTLING_AS_ROOK_CAPTURE[uci])
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
    return (
        chess.square_file(move.to_square)
        | chess.square_rank(move.to_square) << 3
        | chess.square_file(move.from_square) << 6
        | chess.square_rank(move.from_square) << 9
        | promotion[move.promotion] << 12
    )


def write_book(path: Path, lines: Sequence[BookLine]) -> Path:
    """Write the entries as a sorted Polyglot book at ``path``."""
    entries = []
    for position, uci, weight in lines:
        board = _board(position)
        entries.append((chess.polyglot.zobrist_hash(board), encode_move(board, uci), weight, 0))
    entries.sort(key=lambda e: e[0])  # stable: a position's moves keep their order
    path.write_bytes(b"".join(struct.pack(">QHHI", *e) for e in entries))
    return path


# The Ruy Lopez after 4...Nf6: White may castle.
CASTLING_POSITION = "startpos e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6"

# A small book: two first moves for White, replies to 1.e4, and a castling entry.
SMALL_BOOK: tuple[BookLine, ...] = (
    ("startpos", "e2e4", 30),
    ("startpos", "d2d4", 10),
    ("startpos e2e4", "e7e5", 5),
    ("startpos e2e4", "c7c5", 15),
    ("startpos d2d4", "g8f6", 7),
    ("startpos e2e4 e7e5", "g1f3", 9),
    ("startpos e2e4 c7c5", "g1f3", 4),
    ("startpos e2e4 e7e5 g1f3", "b8c6", 8),
    (CASTLING_POSITION, "e1g1", 3),
)


@pytest.fixture
def small_book(tmp_path: Path) -> Path:
    """:data:`SMALL_BOOK` written to a temporary ``.bin`` file."""
    return write_book(tmp_path / "small.bin", SMALL_BOOK)


@pytest.fixture
def book_writer(tmp_path: Path) -> Callable[[str, Sequence[BookLine]], Path]:
    """Write any entries to ``tmp_path / name``."""
    return lambda name, lines: write_book(tmp_path / name, lines)
