"""The game session both front ends draw: moves, taking back, endings and the record."""

from __future__ import annotations

import io

import chess
import chess.pgn

from plies.play.human_game import HumanGame


def play(game: HumanGame, *ucis: str) -> None:
    """Play moves given in UCI."""
    for uci in ucis:
        game.push(chess.Move.from_uci(uci))


def test_take_back_returns_to_the_persons_turn() -> None:
    game = HumanGame(computer=chess.BLACK)
    assert game.take_back() == 0  # nothing to take back
    play(game, "e2e4", "e7e5", "g1f3")
    assert game.take_back() == 1 and game.sans == ["e4", "e5"]  # the person's own move
    assert game.take_back() == 2 and game.sans == []  # the move and the reply
    # The computer opened (the person plays Black): its opening move is not the person's.
    game.restart(chess.Board(), chess.WHITE)
    play(game, "d2d4")
    assert game.undo_plies() == 0
    play(game, "d7d5", "c2c4")
    assert game.take_back() == 2 and game.sans == ["d4"]
    # Nobody plays the computer's side: one move at a time.
    game.restart(chess.Board(), None)
    play(game, "e2e4", "e7e5")
    assert game.take_back() == 1 and game.sans == ["e4"]


def test_resignation_result_and_withdrawal() -> None:
    game = HumanGame()
    play(game, "e2e4")
    game.resigned = chess.WHITE
    assert game.over() and game.result() == "0-1"
    assert game.ending() == "White resigns. Black wins (0-1)."
    assert game.take_back() == 0 and game.resigned is None and game.sans == ["e4"]


def test_endings_are_said_and_recorded() -> None:
    game = HumanGame(computer=None)
    play(game, "f2f3", "e7e5", "g2g4", "d8h4")
    assert game.result() == "0-1" and game.reason() == "checkmate"
    assert game.ending() == "Black wins by checkmate (0-1)."
    record = game.record({"Event": "test", "White": "a", "Black": "b"})
    assert record.headers["Result"] == "0-1" and record.headers["Termination"] == "normal"
    assert record.end().comment == game.ending()
    back = chess.pgn.read_game(io.StringIO(str(record)))
    assert back is not None and back.end().board().is_checkmate()
    stalemate = HumanGame(chess.Board("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"), None)
    play(stalemate, "f7f6")
    assert not stalemate.outcome() and not stalemate.over()
    play(stalemate, "h8g8")
    play(stalemate, "f6e7")
    play(stalemate, "g8h8")
    play(stalemate, "e7f7")
    assert stalemate.ending() == "Draw by stalemate (1/2-1/2)."


def test_chess960_record_names_the_start() -> None:
    start = chess.Board.from_chess960_pos(0)
    game = HumanGame(start, chess.BLACK)
    play(game, "d1c3")
    record = game.record({})
    assert record.headers["Variant"] == "Chess960" and record.headers["FEN"] == start.fen()
    assert game.sans == ["Nc3"]
