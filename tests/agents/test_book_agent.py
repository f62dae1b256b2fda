"""``plies play --book`` and ``plies arena --book FILE --book-depth N``."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

import chess
import chess.pgn
import pytest
from rich.console import Console

from plies.agents import make_player
from plies.agents.book_agent import BookPlayer
from plies.arena.openings import OpeningError, book_openings
from plies.board.polyglot import OpeningBook
from plies.cli.main import main
from plies.play.session import Settings, TerminalSession

Writer = Callable[[str, Sequence[tuple[str, str, int]]], Path]


def test_session_opponent_plays_from_the_book_then_thinks(small_book: Path) -> None:
    """Against 1.e4 the book's best reply (c5) comes first; out of book the player plays."""
    lines = iter(["e4", "Nf3", "fen", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    agent = BookPlayer(make_player("random", {}, seed=3), OpeningBook(small_book), mode="best")
    session = TerminalSession(agent, Settings(human="white", seed=3), console,
                          read_line=lambda: next(lines) + "\n")
    try:
        assert session.run() == 0
    finally:
        agent.close()
    text = console.export_text()
    assert "book move" in text and "plies plays c5" in text
    assert text.count("book move") == 1  # after 1.e4 c5 2.Nf3 the book is silent
    moves = [m.uci() for m in session.board.move_stack]
    assert moves[:3] == ["e2e4", "c7c5", "g1f3"] and len(moves) == 4


def test_play_command_with_a_book(small_book: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``plies play --book`` with White for plies: its first move is a book move."""
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", "--agent", "random", "--color", "black", "--book", str(small_book),
            "--seed", "5", "--ascii"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "book move" in out
    assert "plies plays e4" in out or "plies plays d4" in out


def test_play_with_a_bad_book_is_one_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A missing book file: one line on stderr, exit status 2."""
    assert main(["play", "--agent", "random", "--book", str(tmp_path / "none.bin")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such book file" in err


def _in_book(book: OpeningBook, moves: tuple[str, ...] | list[str]) -> bool:
    """Whether every move of the line is a book move of its position."""
    board = chess.Board()
    for uci in moves:
        if chess.Move.from_uci(uci) not in [m for m, _ in book.moves(board)]:
            return False
        board.push_uci(uci)
    return True


def test_book_openings_are_seeded_book_lines(small_book: Path) -> None:
    """Lines follow the book, stop at the depth or the book's end, vary, and repeat by seed."""
    openings = book_openings(small_book, 3, 6, seed=11)
    assert openings == book_openings(small_book, 3, 6, seed=11)
    lines = {o.moves for o in openings}
    # The small book holds exactly these three lines of up to three plies.
    assert lines == {("e2e4", "e7e5", "g1f3"), ("e2e4", "c7c5", "g1f3"), ("d2d4", "g8f6")}
    with OpeningBook(small_book) as book:
        assert all(_in_book(book, o.moves) for o in openings)
    assert {len(o.moves) for o in book_openings(small_book, 1, 4, seed=2)} == {1}


def test_book_without_a_start_move_is_refused(book_writer: Writer) -> None:
    """A book that does not know the start position cannot open games."""
    path = book_writer("late.bin", [("startpos e2e4", "e7e5", 1)])
    with pytest.raises(OpeningError, match="no move for the start position"):
        book_openings(path, 4, 2, seed=None)


def test_arena_games_start_from_the_book(small_book: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``plies arena --book --book-depth``: every game opens with a book line, colours swapped."""
    pgn = tmp_path / "games.pgn"
    argv = ["arena", "random", "capture", "--games", "4", "--depth", "1", "--book",
            str(small_book), "--book-depth", "2", "--seed", "3", "--pgn", str(pgn), "-q"]
    assert main(argv) == 0
    capsys.readouterr()
    games = []
    with pgn.open(encoding="utf-8") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            games.append(game)
    assert len(games) == 4
    with OpeningBook(small_book) as book:
        for game in games:
            first = [m.uci() for m in game.mainline_moves()][:2]
            assert _in_book(book, first), first
    # Games 1 and 2 share their opening with the players' colours swapped.
    assert [m.uci() for m in games[0].mainline_moves()][:2] == \
        [m.uci() for m in games[1].mainline_moves()][:2]
    assert games[0].headers["White"] == games[1].headers["Black"]


def test_arena_with_a_bad_book_is_one_line(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A truncated book file: one line, exit status 2, before any game."""
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"12345")
    argv = ["arena", "random", "random", "--depth", "1", "--book", str(bad)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a multiple of 16" in err
