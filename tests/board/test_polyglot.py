"""Reading a Polyglot book built by the tests: lookups, castling, modes and bad files."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import chess
import pytest

from plies.board import Board
from plies.board.polyglot import BookError, OpeningBook

Writer = Callable[[str, Sequence[tuple[str, str, int]]], Path]


def test_moves_and_weights_of_a_position(small_book: Path) -> None:
    """The start position has its two book moves with their weights, in file order."""
    with OpeningBook(small_book) as book:
        assert book.entries == 9
        assert book.moves(chess.Board()) == [
            (chess.Move.from_uci("e2e4"), 30), (chess.Move.from_uci("d2d4"), 10)]
        after_e4 = Board()
        after_e4.push_uci("e2e4")  # a plies board works as well as a python-chess one
        assert {m.uci() for m, _ in book.moves(after_e4)} == {"e7e5", "c7c5"}
        assert book.moves(chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")) == []


def test_castling_is_read_back_as_the_king_move(small_book: Path) -> None:
    """Polyglot writes O-O as e1h1; the book gives the legal e1g1."""
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]:
        board.push_uci(uci)
    with OpeningBook(small_book) as book:
        assert book.choose(board, "best") == chess.Move.from_uci("e1g1")


def test_best_mode_takes_the_heaviest(small_book: Path) -> None:
    """``best`` always plays the highest weight."""
    board = chess.Board()
    board.push_uci("e2e4")
    with OpeningBook(small_book) as book:
        assert {book.choose(board, "best") for _ in range(20)} == {chess.Move.from_uci("c7c5")}
        assert book.choose(chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1"), "best") is None


def test_weighted_mode_follows_the_weights(small_book: Path) -> None:
    """``weighted`` plays e4 about three times as often as d4 (weights 30 and 10), seeded."""
    rng = random.Random(7)
    with OpeningBook(small_book) as book:
        counts = Counter(book.choose(chess.Board(), "weighted", rng) for _ in range(4000))
    e4, d4 = counts[chess.Move.from_uci("e2e4")], counts[chess.Move.from_uci("d2d4")]
    assert e4 + d4 == 4000
    assert 0.70 < e4 / 4000 < 0.80  # expected 0.75; the binomial sd is under 0.007


def test_illegal_and_zero_weight_entries_are_never_played(book_writer: Writer) -> None:
    """An entry that is illegal in its position, or weighs 0, is skipped."""
    path = book_writer("odd.bin", [("startpos", "e2e5", 50), ("startpos", "a2a3", 0),
                                   ("startpos", "g1f3", 1)])
    with OpeningBook(path) as book:
        assert book.moves(chess.Board()) == [(chess.Move.from_uci("g1f3"), 1)]


def test_unknown_mode_is_refused(small_book: Path) -> None:
    """A mode other than weighted/best is a ValueError naming both."""
    with OpeningBook(small_book) as book, pytest.raises(ValueError, match="weighted, best"):
        book.choose(chess.Board(), "random")


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such book file"), (b"", "empty book file"),
     (b"x" * 17, "not a multiple of 16"), ("dir", "not a book file")],
)
def test_bad_files_give_one_line(content: bytes | str | None, message: str,
                                 tmp_path: Path) -> None:
    """Missing, empty, truncated or a directory: a BookError with a one-line reason."""
    path = tmp_path / "bad.bin"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(BookError, match=message) as info:
        OpeningBook(path)
    assert "\n" not in str(info.value)


def test_chess960_castling_from_the_book(tmp_path: Path) -> None:
    """A Chess960 board looks up its own key; Polyglot's king-takes-rook castling comes back
    as the board's legal castling move."""
    import struct

    import chess.polyglot

    fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"
    key = chess.polyglot.zobrist_hash(chess.Board(fen, chess960=True))
    b1h1 = chess.H1 | chess.B1 << 6  # to file/rank in bits 0-5, from in bits 6-11
    path = tmp_path / "c960.bin"
    path.write_bytes(struct.pack(">QHHI", key, b1h1, 1, 0))
    board = Board(fen, chess960=True)
    with OpeningBook(path) as book:
        move = book.choose(board, "best")
    assert move == chess.Move.from_uci("b1h1")
    assert board.is_castling(board.parse_uci(move.uci()))
