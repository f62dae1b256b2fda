"""The one game-record writer: the start position block is the same for every front end."""

from __future__ import annotations

import io

import chess
import chess.pgn

from plies.arena.game import GameRecord
from plies.arena.openings import Opening
from plies.arena.pgn import format_game, new_game, to_pgn
from plies.play.game import Game
from plies.web.play import game_pgn


def tags(text: str) -> dict[str, str]:
    """The headers of a PGN text."""
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    return dict(game.headers)


def test_standard_start_has_no_setup() -> None:
    game = new_game(chess.Board(), {"White": "a", "Black": "b"}, [chess.Move.from_uci("e2e4")])
    assert "FEN" not in game.headers and "SetUp" not in game.headers
    assert game.headers["Date"] == "????.??.??" and game.headers["White"] == "a"
    assert str(game.end().move) == "e2e4"


def test_set_up_position_carries_fen() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    game = new_game(chess.Board(fen), {"Event": "x"})
    assert game.headers["FEN"] == fen and game.headers["SetUp"] == "1"


def test_chess960_start_518_is_written_alike_by_arena_and_web() -> None:
    """Position #518 is the standard array; a Chess960 game still names it and its variant."""
    start = chess.Board.from_chess960_pos(518)
    record = GameRecord("a", "b", Opening(start.fen(), (), "", True), result="*")
    arena = tags(format_game(to_pgn(record)))
    web = tags(game_pgn(Game(chess.Board.from_chess960_pos(518))))
    for t in (arena, web):
        assert t["FEN"] == start.fen() and t["SetUp"] == "1" and t["Variant"] == "Chess960"
    # Another Chess960 start: castling written as python-chess reads it back.
    board = chess.Board.from_chess960_pos(0)
    game = new_game(board, {}, [chess.Move.from_uci("d1c3")])
    back = chess.pgn.read_game(io.StringIO(str(game)))
    assert back is not None and back.board().chess960 and back.end().board().fen() != board.fen()
