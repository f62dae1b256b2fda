"""The outside players asked through the one Player protocol: play(board, limit) -> Info with
typed scores, and stop() from another thread ending a program that cannot answer."""

from __future__ import annotations

import http.server
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest
from tests.loopback import serving

from plies.agents.function_player import BadAnswerError
from plies.agents.ladder import LadderPlayer
from plies.agents.player import Player, PlayerError
from plies.agents.spec import parse_player
from plies.agents.user_code import as_mind
from plies.agents.xboard_player import post_score
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.engine.score import Cp, Mate, PovScore, pov

ARENA = Path(__file__).parents[1] / "arena"
TOY_MIND = ARENA / "toy_mind.py"
TOY_XBOARD = ARENA / "toy_xboard.py"
FAIRYMAX = shutil.which("fairymax") or shutil.which("fairymax", path="/usr/games")

MINDS = """
from plies.agents import LadderPlayer
from plies.agents.player import Player
from plies.engine.limits import Info
from plies.engine.score import Mate, pov

class Mating(Player):
    def play(self, board, limit):
        return Info(move=board.legal_moves[0], score=pov(Mate(2), board.turn), depth=limit.depth)

class Seer(LadderPlayer):
    def play(self, board, limit):
        return Info(move=board.legal_moves[0], score=pov(Mate(-3), board.turn), depth=limit.depth)

def loops(board):
    while True:
        pass
"""


def _hangs_until_stopped(player: Player, board: Board, limit: Limit, after: float) -> None:
    """``player.play`` stopped from another thread after ``after`` seconds fails as a hang."""
    timer = threading.Timer(after, player.stop)
    timer.start()
    try:
        with pytest.raises(PlayerError) as caught:
            player.play(board, limit)
    finally:
        timer.cancel()
    assert caught.value.kind == "hang"


def test_a_python_mind_is_loaded_into_a_player() -> None:
    """Functions, classes and Players (a ladder player's subclass among them) alike; answers
    checked against the board."""

    def first(board: Board) -> str:
        return board.san(board.legal_moves[0])

    class Deep(LadderPlayer):
        def play(self, board: Board, limit: Limit) -> Info:
            return Info(move=next(iter(board.legal_moves)), score=pov(Cp(40), board.turn),
                        depth=limit.depth or 0)

    board = Board()
    for obj in (first, Deep, Deep(), as_mind(first, "first")):
        player = as_mind(obj, "mind")
        assert isinstance(player, Player)
        player.new_game(3)
        info = player.play(board, Limit(depth=4))
        assert info.move in board.legal_moves
    deep = as_mind(Deep, "deep").play(board, Limit(depth=4))
    assert (deep.depth, deep.score) == (4, PovScore(Cp(40), True))
    with pytest.raises(BadAnswerError, match="not a legal move"):
        as_mind(lambda b: "e2e5", "bad").play(board, Limit())


def test_python_minds_report_mates_in_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    """A Player mind's Mate(2) and a ladder subclass's Mate(-3) arrive as they were sent."""
    (tmp_path / "minds.py").write_text(MINDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    board = Board()
    board.push_uci("e2e4")
    for attr, expected, depth in (("Mating", Mate(2), 5), ("Seer", Mate(-3), 5)):
        player = parse_player(f"minds.py:{attr}").create()
        try:
            player.new_game(1)
            info = player.play(board, Limit(depth=depth))
        finally:
            player.close()
        assert info.move in board.legal_moves
        assert info.score is not None and info.score.relative == expected, attr
        assert info.score.white() == -expected and info.depth == depth


def test_stop_kills_a_python_mind_that_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """A mind cannot be told to stop: stop() kills its child and play raises 'hang'."""
    (tmp_path / "minds.py").write_text(MINDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    player = parse_player("minds.py:loops").create()
    try:
        player.new_game(1)
        _hangs_until_stopped(player, Board(), Limit(movetime=10), 0.5)
        assert not player.healthy  # its process was killed
    finally:
        player.close()


def test_mind_program_plays_and_a_stopped_hang_is_killed() -> None:
    """A ``mind:`` program's action is a move of the plies board; a silent one is stopped."""
    player = parse_player(f"mind:{sys.executable} {TOY_MIND} hang 1").create()
    board = Board()
    try:
        player.new_game(None)
        info = player.play(board, Limit(depth=1))
        assert info.move in board.legal_moves and player.last == info
        board.push(info.move)
        _hangs_until_stopped(player, board, Limit(depth=1), 0.3)
        assert not player.healthy  # its process was killed
        player.new_game(None)  # a fresh program
        assert player.healthy and player.play(Board(), Limit()).move in Board().legal_moves
    finally:
        player.close()


def test_xboard_mate_scores_are_mates_in_moves() -> None:
    """The protocol writes a mate in N moves as 100000 + N."""
    assert post_score(100003) == Mate(3)
    assert post_score(-100002) == Mate(-2)
    assert post_score(-35) == Cp(-35)


def test_xboard_engine_that_hangs_is_killed_when_stopped() -> None:
    """``?`` goes unanswered by a hung engine: it is killed once the grace has passed."""
    engine = parse_player(f"xboard:{sys.executable} {TOY_XBOARD} hang 0").create()
    try:
        engine.new_game(None)
        _hangs_until_stopped(engine, Board(), Limit(depth=1), 0.3)
        assert not engine.healthy  # its process was killed
    finally:
        engine.close()


@pytest.mark.skipif(FAIRYMAX is None, reason="fairymax is not installed")
def test_fairymax_reports_a_typed_score_and_moves_when_stopped() -> None:
    """Its thinking lines give an Info; ``?`` makes it move now."""
    engine = parse_player(f"xboard:{FAIRYMAX}").create()
    seen: list[Info] = []
    engine.on_info = seen.append
    try:
        engine.new_game(None)
        info = engine.play(Board(), Limit(depth=3))
        assert info.move in chess.Board().legal_moves
        assert info.score is not None and info.depth == 3 and seen
        timer = threading.Timer(0.5, engine.stop)
        timer.start()
        stopped = engine.play(Board(), Limit(infinite=True))
        timer.cancel()
        assert stopped.move in chess.Board().legal_moves and engine.healthy
    finally:
        engine.close()


class _Silent(http.server.BaseHTTPRequestHandler):
    """Never answers until released."""

    release = threading.Event()

    def do_POST(self) -> None:
        """Wait, then answer a forfeit."""
        self.release.wait()
        self.send_response(200)
        self.send_header("Content-Length", "3")
        self.end_headers()
        self.wfile.write(b"0,0")

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A mind server that does not answer; yields its URL."""
    with serving(_Silent, _Silent.release) as url:
        yield f"{url}/mind"


def test_http_mind_stopped_while_waiting_is_a_hang(silent_server: str) -> None:
    """``stop()`` cuts the connection under the waiting request."""
    player = parse_player(f"mind+{silent_server}").create()
    try:
        player.new_game(None)
        _hangs_until_stopped(player, Board(), Limit(), 0.3)
    finally:
        player.close()
