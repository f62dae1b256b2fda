"""The EvalFile and UseNet options through python-chess and raw UCI, with a small random net."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import chess
import chess.engine
import pytest
from tests.core.test_nnue import random_arrays, write_net
from tests.core.test_nnue_kings import king_arrays
from tests.uci.conftest import (
    REPLY_TIMEOUT_S,
    START_TIMEOUT_S,
    UCI_COMMAND,
    RawUci,
    open_engine,
)

import plies.core as core

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module")
def net_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random net of width 16 in a file."""
    return write_net(tmp_path_factory.mktemp("uci-net") / "net16.npz", random_arrays(21, 16))


def test_python_chess_searches_with_the_net(net_file: Path) -> None:
    """Declared options (UseNet on when plies ships a net); with UseNet and EvalFile the
    engine plays legal moves on the net's evaluation (another score than the classical
    one), and switches back."""
    engine = open_engine()
    try:
        options = engine.options
        assert options["UseNet"].type == "check"
        assert options["UseNet"].default is (core.default_net_path() is not None)
        assert options["EvalFile"].type == "string"
        assert options["EvalFile"].default in ("", "<empty>")
        board = chess.Board(KIWIPETE)
        limit = chess.engine.Limit(depth=4)
        engine.configure({"UseNet": False})
        classical = engine.analyse(board, limit)
        engine.configure({"EvalFile": str(net_file), "UseNet": True})
        with_net = engine.analyse(board, limit)
        played = engine.play(board, chess.engine.Limit(depth=3))
        assert played.move is not None and played.move in board.legal_moves
        for info in (classical, with_net):
            score = info["score"].white()
            assert not score.is_mate() and abs(score.score() or 0) < core.MATE_BOUND
        assert with_net["score"] != classical["score"]
        engine.configure({"UseNet": False})
        again = engine.analyse(board, limit)
        assert again["score"] == classical["score"] and again["nodes"] == classical["nodes"]
    finally:
        engine.quit()


def test_bad_eval_file_is_refused_in_one_line(net_file: Path, tmp_path: Path) -> None:
    """A missing or broken EvalFile: one info string, the engine keeps searching; UseNet
    without a net says so; a good file is named; ``eval`` and ``bench`` use the net."""
    uci = RawUci()
    try:
        uci.ready()
        broken = tmp_path / "broken.npz"
        broken.write_text("not a net", encoding="utf-8")
        for path in (tmp_path / "absent.npz", broken):
            uci.send(f"setoption name EvalFile value {path}")
            lines = uci.ready()[:-1]
            assert len(lines) == 1 and lines[0].startswith("info string option unchanged: net file")
        uci.send("setoption name UseNet value true")
        (line,) = uci.ready()[:-1]
        if core.default_net_path() is None:
            assert line.startswith("info string UseNet: no net to use")
        else:
            assert line.startswith("info string evaluation: net")
        uci.send("position startpos moves e2e4", "go depth 3")
        assert uci.expect("bestmove")[-1].split()[1] != "(none)"
        uci.send(f"setoption name EvalFile value {net_file}")
        (line,) = uci.ready()[:-1]
        assert line == f"info string evaluation: net {net_file} (hidden 16)"
        uci.send("eval")
        got = uci.ready()
        assert any(x.startswith("Static evaluation:") for x in got)
        assert f"Evaluated by: net {net_file} (hidden 16)" in got
        uci.send("go depth 3")
        assert uci.expect("bestmove")[-1].split()[1] != "(none)"
        uci.send("bench 2")
        got = uci.expect("Nodes/second")
        assert f"info string bench with the net {net_file} (hidden 16)" in got
        assert uci.proc.poll() is None
    finally:
        assert uci.close() == 0


def test_unusable_default_net_is_one_info_string(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A corrupt default net (named by ``$PLIES_DEFAULT_NET``): python-chess still starts the
    engine, sees one ``info string`` saying why, and games are played classically."""
    corrupt = tmp_path / "default.npz"
    corrupt.write_bytes(b"PK\x03\x04 truncated, not a net")
    env = dict(os.environ, PLIES_DEFAULT_NET=str(corrupt))
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=START_TIMEOUT_S, env=env)
    try:
        engine.ping()
        engine.timeout = REPLY_TIMEOUT_S
        board = chess.Board()
        played = engine.play(board, chess.engine.Limit(depth=3))
        assert played.move is not None and played.move in board.legal_moves
    finally:
        engine.quit()
    notices = [r.getMessage() for r in caplog.records if "default net unusable" in r.getMessage()]
    received = [m for m in notices if ">> info string" in m]
    assert len(received) == 1, notices
    assert str(corrupt) in received[0] and "classical" in received[0]


def test_python_chess_plays_with_a_king_bucketed_net(tmp_path: Path) -> None:
    """A format-2 net (4 mirrored king buckets) over UCI: the engine names it, and a game of
    king moves in an endgame (every king crossing into another bucket or half) stays legal
    with scores below the mate range, as does a search with two threads."""
    path = write_net(tmp_path / "kings.npz", king_arrays(5))
    engine = open_engine()
    try:
        engine.configure({"EvalFile": str(path), "UseNet": True})
        board = chess.Board("8/2k5/8/1p1p4/1P1P4/8/3K4/8 w - - 0 1")
        for _ in range(12):
            if board.is_game_over():
                break
            info = engine.analyse(board, chess.engine.Limit(depth=6))
            score = info["score"].white()
            assert score.is_mate() or abs(score.score() or 0) < core.MATE_BOUND
            played = engine.play(board, chess.engine.Limit(depth=6))
            assert played.move is not None and played.move in board.legal_moves
            board.push(played.move)
        engine.configure({"Threads": 2})
        played = engine.play(chess.Board(KIWIPETE), chess.engine.Limit(depth=6))
        assert played.move in chess.Board(KIWIPETE).legal_moves
    finally:
        engine.quit()
    uci = RawUci()
    try:
        uci.ready()
        uci.send(f"setoption name EvalFile value {path}")
        (line,) = uci.ready()[:-1]
        assert line == f"info string evaluation: net {path} (hidden 32, 4 king buckets, " \
                       "mirrored, 8 output buckets)"  # fmt: skip
    finally:
        assert uci.close() == 0
