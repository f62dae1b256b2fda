"""The pipe UCI player: the same games as python-chess's client, and the same faults."""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

import chess
import pytest
from tests.waiting import HANG_S

from plies.agents.player import MATE_CP, MoveRequest, PlayerError
from plies.agents.spec import parse_player
from plies.agents.uci_player import UciPlayer
from plies.arena.game import GameSettings, play_game
from plies.arena.openings import Opening
from plies.arena.pipe_uci import PipeUciPlayer, _go_command, _last_score, pipe_player
from plies.engine.limits import Limit
from plies.engine.score import Cp
from plies.games.budget import Budget
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, play_datagen_game

TOY = [sys.executable, str(Path(__file__).with_name("toy_uci.py"))]
STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None
)


def test_last_score_and_depth_as_python_chess_reads_them() -> None:
    """The last line with a score gives the score, the last with a depth the depth."""
    lines = [
        "info depth 1 seldepth 1 score cp 12 nodes 20 pv e2e4",
        "info depth 2 seldepth 3 score cp -40 upperbound nodes 90 pv d2d4 d7d5",
        "info depth 3 currmove e2e4 currmovenumber 1",
        "info string score cp 999 is only text",
        "bestmove d2d4",
    ]
    assert _last_score(lines) == (-40, 3)
    assert _last_score(["info depth 9 score mate 3 pv a1a8", "bestmove a1a8"]) == (MATE_CP - 3, 9)
    assert _last_score(["info depth 9 score mate -2 pv a1a2"]) == (-MATE_CP + 2, 9)
    assert _last_score(["info depth 1 score mate 0"]) == (-MATE_CP, 1)
    assert _last_score(["info nodes 5 pv score cp 3", "bestmove e2e4"]) == (None, None)
    assert _last_score(["info depth x score cp y", "bestmove e2e4"]) == (None, None)


def test_go_command_spells_each_budget() -> None:
    """Depth, nodes, move time and both clocks from the mover's point of view."""
    board = chess.Board()
    assert _go_command(board, MoveRequest(Budget(depth=7))) == "go depth 7"
    assert _go_command(board, MoveRequest(Budget(nodes=500, movetime_ms=30))) == (
        "go nodes 500 movetime 30"
    )
    board.push_uci("e2e4")
    clocks = Budget(time_left_ms=900, opponent_time_ms=1200, increment_ms=10, moves_to_go=5)
    assert _go_command(board, MoveRequest(clocks)) == (
        "go wtime 1200 btime 900 winc 10 binc 10 movestogo 5"
    )
    flagging = Budget(time_left_ms=900, opponent_time_ms=0)
    assert _go_command(board, MoveRequest(flagging)) == "go wtime 0 btime 900 winc 0 binc 0"


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_datagen_games_equal_python_chess_clients() -> None:
    """Stockfish at a fixed depth plays the same games, scores and lines through either client."""
    assert STOCKFISH is not None
    settings = DatagenSettings(
        player=f"uci:{STOCKFISH}", nodes=None, depth=5, seed=3, scores=True, max_moves=80
    )
    lines = []
    for pipes in (False, True):
        spec = parse_player(settings.player)
        player = pipe_player(spec) if pipes else spec.create()
        assert isinstance(player, PipeUciPlayer if pipes else UciPlayer)
        try:
            records = [play_datagen_game(settings, n, player, player) for n in (1, 2, 3)]
        finally:
            player.close()
        assert all(r.finished for r in records)
        lines.append(
            [position_lines(r, settings.skip_plies, settings.scores) for r in records]
            + [[(m.move, m.score, m.depth) for m in r.moves] for r in records]
        )
    assert lines[0] == lines[1]
    assert sum(len(game) for game in lines[1][:3]) > 50


def _toy(mode: str = "none", after: int = 0) -> PipeUciPlayer:
    """The toy engine over pipes, misbehaving in ``mode`` after ``after`` moves."""
    return PipeUciPlayer("toy", TOY, {"Mode": mode, "After": str(after)})


def test_toy_game_and_its_faults() -> None:
    """A whole game; a crash, an illegal reply and a null move each cost the game, named."""
    good = _toy()
    assert good.engine_name == "ToyUCI"
    opening = Opening(chess.STARTING_FEN, ("e2e4",), "test")
    # A depth, not a move time: a move time would also set each move's timeout to about a
    # second, which a busy machine may miss.
    settings = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S)
    try:
        record = play_game(good, good, opening, settings, seed=1)
        assert record.finished and record.moves and record.moves[0].score.relative == Cp(0)
        faults = (("crash", "crashed"), ("illegal", "illegal move: unreadable move 'a1a1'"),
                  ("null", "illegal move: no move"))  # fmt: skip
        for mode, words in faults:
            bad = _toy(mode, after=2)
            try:
                record = play_game(good, bad, opening, settings, seed=1)
            finally:
                bad.close()
            assert record.result == "1-0" and words in record.reason, record.reason
            assert len(record.moves) == 4  # after e4, two moves each, then Black fails
    finally:
        good.close()


def test_hang_times_out_and_the_next_game_restarts_the_engine() -> None:
    """No reply within the timeout is a hang; the killed engine starts again for a new game."""
    player = _toy("hang", after=1)
    board = chess.Board()
    # A move that comes is given all the time a hang needs; the hung one only half a second
    # (it never comes, so no machine meets that timeout).
    request = MoveRequest(Budget(movetime_ms=5), timeout_s=HANG_S)
    short = MoveRequest(Budget(movetime_ms=5), timeout_s=0.5)
    try:
        player.new_game(None)
        board.push(player.move(board, request).move or chess.Move.null())
        with pytest.raises(PlayerError) as caught:
            player.move(board, short)
        assert caught.value.kind == "hang"
        assert not player.healthy
        with pytest.raises(PlayerError) as crashed:
            player.move(board, request)
        assert crashed.value.kind == "crash"
        player.new_game(None)
        assert player.healthy and player.move(board, request).move in board.legal_moves
    finally:
        player.close()


def test_abort_from_another_thread_ends_a_hung_search() -> None:
    """``abort`` kills the engine, so a move waiting without a timeout fails at once."""
    player = _toy("hang")
    player.new_game(None)
    timer = threading.Timer(0.3, player.abort)
    timer.start()
    try:
        with pytest.raises(PlayerError) as caught:
            player.move(chess.Board(), MoveRequest(Budget(depth=1)))  # ends only by the abort
        assert caught.value.kind == "crash"
    finally:
        timer.cancel()
        player.close()


def test_start_failures_are_one_line_player_errors(tmp_path: Path) -> None:
    """A missing program, an unknown option and a program that is not an engine."""
    with pytest.raises(PlayerError, match="did not start") as missing:
        PipeUciPlayer("nothing", [str(tmp_path / "no-such-engine")], {})
    assert missing.value.kind == "start"
    with pytest.raises(PlayerError, match="no option 'Colour'"):
        PipeUciPlayer("toy", TOY, {"Colour": "blue"})
    with pytest.raises(PlayerError, match="did not start"):
        PipeUciPlayer("false", ["/bin/false"], {})


def test_close_leaves_no_process() -> None:
    """``close`` after a normal ``quit`` and after a hang both end the process."""
    for mode in ("none", "hang"):
        player = _toy(mode)
        assert player._process is not None
        process = player._process.process
        assert process is not None
        if mode == "hang":
            with pytest.raises(PlayerError):
                player.move(chess.Board(), MoveRequest(Budget(depth=1), timeout_s=0.2))
        player.close()
        assert process.poll() is not None
