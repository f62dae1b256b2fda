"""OwnBook, BookFile and BookMode: in the loop (exact output) and through python-chess."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest
from tests.uci.conftest import START_TIMEOUT_S, UCI_COMMAND
from tests.uci.harness import Harness


class Loop(Harness):
    """The UCI loop writing to a buffer, fed line by line (its engine loads when first needed)."""

    def __init__(self) -> None:
        """A fresh loop."""
        super().__init__(start_engine=False)


@pytest.fixture
def loop() -> Iterator[Loop]:
    """A loop, shut down after the test."""
    harness = Loop()
    yield harness
    harness.loop.shutdown()


def test_options_are_declared(loop: Loop) -> None:
    """``uci`` declares the three book options with their defaults."""
    loop.send("uci")
    lines = loop.until("uciok")
    assert "option name OwnBook type check default false" in lines
    assert "option name BookFile type string default <empty>" in lines
    assert "option name BookMode type combo default weighted var weighted var best" in lines


def test_book_move_is_played_without_searching(loop: Loop, small_book: Path) -> None:
    """In book: an info string and the heaviest move at once, no search line; then a search."""
    loop.send("setoption name BookFile value " + str(small_book),
              "setoption name OwnBook value true", "setoption name BookMode value best")
    assert loop.new_output() == []
    loop.send("position startpos moves e2e4", "go depth 30")
    got = loop.until("bestmove")
    assert got == ["info string book move c7c5", "bestmove c7c5"]
    loop.send("position startpos moves e2e4 c7c5 g1f3", "go depth 3")  # out of book
    got = loop.until("bestmove")
    assert any(line.startswith("info depth 3") for line in got)
    assert not any("book move" in line for line in got)


def test_own_book_off_infinite_and_searchmoves_search(loop: Loop, small_book: Path) -> None:
    """OwnBook false, ``go infinite`` and ``searchmoves`` ignore the book."""
    loop.send(f"setoption name BookFile value {small_book}", "position startpos", "go depth 2")
    assert not any("book move" in line for line in loop.until("bestmove"))
    loop.send("setoption name OwnBook value true", "go depth 2 searchmoves a2a3")
    assert loop.until("bestmove")[-1].startswith("bestmove a2a3")
    loop.send("go infinite")
    got = loop.until("info depth")  # the search runs
    loop.send("stop")
    got += loop.until("bestmove")
    assert any(line.startswith("info depth") for line in got)
    assert not any("book move" in line for line in got)


def test_bad_book_file_keeps_the_old_book(loop: Loop, small_book: Path, tmp_path: Path) -> None:
    """A missing or malformed file: one info string, and the previous book still plays."""
    broken = tmp_path / "broken.bin"
    broken.write_bytes(b"not a book")
    loop.send(f"setoption name BookFile value {small_book}", "setoption name OwnBook value true",
              "setoption name BookMode value best")
    for bad in (tmp_path / "missing.bin", broken):
        loop.send(f"setoption name BookFile value {bad}")
        out = loop.new_output()
        assert len(out) == 1 and out[0].startswith("info string option unchanged"), out
    assert loop.loop.values["BookFile"] == str(small_book)
    loop.send("setoption name BookMode value sometimes")
    assert loop.new_output()[0].startswith("info string option unchanged")
    loop.send("position startpos", "go depth 20")
    assert loop.until("bestmove") == ["info string book move e2e4", "bestmove e2e4"]
    loop.send("setoption name BookFile value <empty>", "go depth 1")  # no book any more
    assert not any("book move" in line for line in loop.until("bestmove"))


def test_python_chess_plays_the_book_then_searches(small_book: Path) -> None:
    """Through python-chess against ``plies uci``: book moves (weighted), then a search."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=START_TIMEOUT_S, env=env)
    try:
        assert engine.options["OwnBook"].default is False
        assert engine.options["BookMode"].var == ["weighted", "best"]
        engine.configure({"OwnBook": True, "BookFile": str(small_book)})
        seen = set()
        for _ in range(12):
            result = engine.play(chess.Board(), chess.engine.Limit(depth=40),
                                 info=chess.engine.INFO_ALL)
            assert "book move" in str(result.info.get("string", ""))
            seen.add(result.move)
        assert seen <= {chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")}
        board = chess.Board()
        for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
            board.push_uci(uci)
        result = engine.play(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves and result.info.get("depth") == 4
    finally:
        engine.quit()
