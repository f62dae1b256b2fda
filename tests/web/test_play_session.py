"""The Play session without a server: moves, undo and the PGN it writes."""

from __future__ import annotations

import io
from typing import Any

import chess
import chess.pgn
import pytest

from plies.play.human_game import HumanGame
from plies.web.errors import ApiError
from plies.web.play import WebPlaySession, game_pgn


def session() -> tuple[WebPlaySession, list[dict[str, Any]]]:
    """A session with the engine off, and the list its messages go to."""
    sent: list[dict[str, Any]] = []
    play = WebPlaySession(sent.append, lambda func: func())
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
    game = HumanGame(computer=None)
    for move in ["g1f3", "g8f6", "f3g1", "f6g8"] * 20:
        game.push(chess.Move.from_uci(move))
    text = game_pgn(game)
    assert max(len(line) for line in text.splitlines()) <= 79
    # Repeating the knight dance ends the game (fivefold repetition): the record says so.
    assert "40. Ng1 Ng8" in text and text.rstrip().endswith("1/2-1/2")


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
    """Handing the writer the SAN the game already has changes nothing in the text."""
    play, sent = session()
    for move in ("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "g1f3", "c8g4"):
        play.handle({"type": "move", "uci": move})
    fast = game_pgn(play.game)
    plain = play.game.record({"Event": "plies serve", "White": "Player", "Black": "Player"})
    exporter = chess.pgn.StringExporter(columns=80, headers=True, variations=False)
    assert fast == plain.accept(exporter) + "\n"
    assert "2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Bg4 *" in fast and sent[-1]["pgn"] == fast


def test_chess960_new_game_castles_king_takes_rook_or_two_squares() -> None:
    """A Chess960 game starts from the position asked for; castling is accepted as the king
    taking its rook and, from e1, as the king two squares over; the PGN says Chess960."""
    play, sent = session()
    play.handle({"type": "new", "engine": "none", "chess960": 518})
    state = sent[-1]
    assert state["chess960"] and state["fen"] == chess.STARTING_FEN
    for move in ("e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"):
        play.handle({"type": "move", "uci": move})
    assert sent[-1]["castling_aliases"] == {"e1g1": "e1h1"}
    assert "e1h1" in sent[-1]["legal"] and "e1g1" not in sent[-1]["legal"]
    play.handle({"type": "move", "uci": "e1g1"})
    play.handle({"type": "move", "uci": "e8h8"})
    state = sent[-1]
    assert state["moves"][-2:] == ["O-O", "O-O"] and state["last_move"] == "e8h8"
    game = chess.pgn.read_game(io.StringIO(state["pgn"]))
    assert game is not None and not game.errors
    assert game.headers["Variant"] == "Chess960" and game.headers["SetUp"] == "1"
    assert game.end().board().fen() == play.board.fen()


def test_chess960_position_number_is_validated_and_random_is_a_start_position() -> None:
    play, sent = session()
    for bad in (960, -1, "7", True, 3.5, "anything"):
        with pytest.raises(ApiError, match="start position 0-959"):
            play.handle({"type": "new", "engine": "none", "chess960": bad})
    assert not play.board.chess960
    play.handle({"type": "new", "engine": "none", "chess960": "random"})
    fen = sent[-1]["fen"]
    assert sent[-1]["chess960"]
    assert any(chess.Board.from_chess960_pos(n).fen() == fen for n in range(960))
    play.handle({"type": "new", "engine": "none"})
    assert not sent[-1]["chess960"]
    assert sent[-1]["castling_aliases"] == {}


def test_chess960_king_takes_rook_from_a_fen() -> None:
    play, sent = session()
    play.handle({"type": "fen", "fen": "2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1", "chess960": True})
    assert "b1a1" in sent[-1]["legal"]
    play.handle({"type": "move", "uci": "b1a1"})
    assert sent[-1]["moves"] == ["O-O-O#"] and sent[-1]["outcome"].startswith("1-0")
