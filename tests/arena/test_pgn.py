"""The one game-record writer: the start position block is the same for every front end, and
a mate in N is written mate in N."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import chess
import chess.pgn
import pytest

from plies.agents.player import Player
from plies.agents.spec import parse_player
from plies.arena.openings import Opening
from plies.arena.pgn import format_game, new_game, to_pgn
from plies.arena.referee import Adjudication, GameRecord, GameSettings, play_game
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.engine.score import Mate, pov
from plies.play.human_game import HumanGame
from plies.web.play import game_pgn

STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None
)
MATE_IN_3 = "1k6/3R4/2K5/8/8/8/8/8 w - - 0 1"
"""White mates in three moves (Rh7 Ka8 Kb6 Kb8 Rh8#)."""


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
    web = tags(game_pgn(HumanGame(chess.Board.from_chess960_pos(518))))
    for t in (arena, web):
        assert t["FEN"] == start.fen() and t["SetUp"] == "1" and t["Variant"] == "Chess960"
    # Another Chess960 start: castling written as python-chess reads it back.
    board = chess.Board.from_chess960_pos(0)
    game = new_game(board, {}, [chess.Move.from_uci("d1c3")])
    back = chess.pgn.read_game(io.StringIO(str(game)))
    assert back is not None and back.board().chess960 and back.end().board().fen() != board.fen()


class Mating(Player):
    """Plays the first legal move and reports ``score`` (from its own side) at depth 12."""

    def __init__(self, score: Mate) -> None:
        """Report ``score`` on every move."""
        self.score = score

    def play(self, board: Board, limit: Limit) -> Info:
        """The first legal move, with the mate score it was built to report."""
        move = next(iter(board.legal_moves))
        return Info(move=move, score=pov(self.score, board.turn), depth=12)


def comments(record: GameRecord) -> list[str]:
    """The score part of each played move's PGN comment."""
    game = to_pgn(record)
    return [node.comment.split()[0] for node in game.mainline()]


def test_a_reported_mate_in_n_is_written_mate_in_n() -> None:
    """A mate in 3 moves is ``+M3``, a mated in 2 ``-M2``, whatever the player."""
    record = play_game(Mating(Mate(3)), Mating(Mate(-2)), Opening(),
                       GameSettings(limit=Limit(depth=12), adjudication=Adjudication(max_moves=1)))
    assert len(record.moves) == 2, record.reason
    assert record.moves[0].score == pov(Mate(3), True)
    assert comments(record) == ["+M3/12", "-M2/12"]


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
def test_a_uci_engines_mate_in_3_is_written_mate_in_3() -> None:
    """Stockfish's ``score mate 3`` (rook and king against king) reaches the PGN as ``+M3``,
    and each later report as the engine gave it: ``-M`` for the side being mated."""
    players = [parse_player(f"uci:{STOCKFISH}").create() for _ in range(2)]
    try:
        record = play_game(players[0], players[1], Opening(MATE_IN_3),
                           GameSettings(limit=Limit(depth=12)))
    finally:
        for player in players:
            player.close()
    assert record.result == "1-0", record.reason
    written = comments(record)
    # Black's first report is the engine's own (a fresh engine says mated in 2 or in 4).
    assert written[0] == "+M3/12" and written[1].startswith("-M")
    assert written[2:] == ["+M2/12", "-M1/12", "+M1/12"]
