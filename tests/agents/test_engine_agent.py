"""The engine rung of the ladder: limits, legality, mate in one, and a short arena match."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from plies.agents import make_player
from plies.board import Board
from plies.engine.limits import Limit

DATA = Path(__file__).resolve().parents[1] / "data"
MATE1 = [ln.strip() for ln in (DATA / "mates" / "mate1.fen").read_text().splitlines() if ln.strip()]


def test_limits_own_options_win_and_clocks_pass_through() -> None:
    agent = make_player("engine", {"depth": 3})
    limit = agent.limit_for(Limit(depth=9, wtime=5000, btime=4000, winc=100))
    assert (limit.depth, limit.wtime, limit.btime, limit.winc) == (3, 5000, 4000, 100)
    bare = make_player("engine").limit_for(Limit())
    assert bare.movetime is not None and bare.movetime > 0
    assert make_player("engine").limit_for(Limit(depth=5)).depth == 5
    assert make_player("engine", {"level": 2}).limit_for(Limit(depth=5)).depth == 2
    assert make_player("engine", {"movetime": 50}).limit_for(Limit(movetime=900)).movetime == 50


def test_engine_plays_legal_moves_and_reports_its_thinking() -> None:
    agent = make_player("engine", {"depth": 2})
    rnd = make_player("random", seed=4)
    board = Board()
    ref = chess.Board()
    seen = []
    agent.on_info = seen.append
    for _ in range(20):
        if ref.is_game_over():
            break
        mover = agent if ref.turn == chess.WHITE else rnd
        move = mover.play(board.copy(), Limit()).move
        assert move and chess.Move.from_uci(move.uci()) in ref.legal_moves
        board.push(move)
        ref.push_uci(move.uci())
    assert seen and all(t.depth >= 1 and t.score is not None for t in seen)
    assert agent.last is not None and agent.last.pv and agent.last.move == agent.last.pv[0]


@pytest.mark.parametrize("fen", MATE1)
def test_engine_takes_mate_in_one(fen: str) -> None:
    agent = make_player("engine", {"depth": 3})
    info = agent.play(Board(fen), Limit())
    ref = chess.Board(fen)
    ref.push(info.move)
    assert ref.is_checkmate()
    assert info.score is not None and info.score.relative.mate() == 1


def test_engine_in_the_arena_under_a_clock() -> None:
    from plies.agents.spec import parse_player
    from plies.arena.clock import TimeControl
    from plies.arena.match import Match, MatchSettings
    from plies.arena.openings import opening_schedule
    from plies.arena.referee import Adjudication, GameSettings

    specs = [parse_player("engine"), parse_player("capture")]
    settings = GameSettings(tc=TimeControl(3000, 50), adjudication=Adjudication(max_moves=60))
    match = Match(specs, MatchSettings(games=2, seed=2), settings, opening_schedule(1, None, 2, 2))
    res = match.run()
    assert res.played == 2
    assert all("time" not in r.reason and "crash" not in r.reason for r in res.records)
    assert res.scores[(0, 1)].losses == 0
