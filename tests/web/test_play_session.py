"""The Play session without a server: moves, undo and the PGN it writes."""

from __future__ import annotations

import io
from typing import Any

import chess.pgn
import pytest

from plies.board import Board, Move
from plies.web.errors import ApiError
from plies.web.play import PlaySession, game_pgn


def session() -> tuple[PlaySession, list[dict[str, Any]]]:
    """A session with the engine off, and the list its messages go to."""
    sent: list[dict[str, Any]] = []
    play = PlaySession(sent.append, lambda func: func())
    play.handle({"type": "new", "engine": "none"})
    return play, sent


def test_pgn_reads_back_with_python_chess() -> None:
    """The PGN of a game from a FEN with Black to move replays to the same position."""
    play, sent = session()
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 2"
    play.handle({"type": "fen", "fen": fen})
    for move in ("g8f6", "f1c4", "f6e4", "b1c3", "e4c3", "d2c3"):
        play.handle({"type": "move", "uci": move})
    text = sent[-1]["pgn"]
    assert "2... Nf6 3. Bc4 Nxe4" in text and '[FEN "' + fen + '"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert game.end().board().fen() == play.board.fen()
    assert sent[-1]["moves"] == ["Nf6", "Bc4", "Nxe4", "Nc3", "Nxc3", "dxc3"]


def test_long_movetext_is_wrapped() -> None:
    """Movetext lines stay within 79 characters."""
    moves = [Move.from_uci(m) for m in ("g1f3", "g8f6", "f3g1", "f6g8")] * 20
    text = game_pgn(moves, Board(), "*", None)
    assert max(len(line) for line in text.splitlines()) <= 79
    assert "40. Ng1 Ng8 *" in text


def test_undo_takes_back_one_move_without_an_engine() -> None:
    """With nobody playing the engine, undo takes back exactly one move."""
    play, sent = session()
    play.handle({"type": "move", "uci": "e2e4"})
    play.handle({"type": "move", "uci": "e7e5"})
    play.handle({"type": "undo"})
    assert sent[-1]["moves"] == ["e4"]
    with pytest.raises(ApiError):
        play.handle({"type": "move", "uci": "e2e4"})
    assert sent[-1]["moves"] == ["e4"]


def test_known_san_gives_the_same_pgn() -> None:
    """Handing the writer the SAN the session already has changes nothing in the text."""
    play, sent = session()
    for move in ("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "g1f3", "c8g4"):
        play.handle({"type": "move", "uci": move})
    board = play.board
    fast = game_pgn(board.move_stack, board.root(), "*", None, play.sans)
    assert fast == game_pgn(board.move_stack, board.root(), "*", None)
    assert "2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Bg4 *" in fast and sent[-1]["pgn"] == fast
