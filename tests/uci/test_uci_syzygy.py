"""Syzygy tablebases through ``plies uci``: the options, ``tbhits``, bad paths, a won ending."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import chess
import chess.engine
import chess.syzygy
from tests.syzygy.positions import random_position
from tests.uci.conftest import RawUci

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"


def test_options_are_declared(uci_engine: chess.engine.SimpleEngine) -> None:
    """The four options with Stockfish's names, types, defaults and bounds."""
    o = uci_engine.options
    assert o["SyzygyPath"].type == "string" and o["SyzygyPath"].default in ("", "<empty>")
    assert (o["SyzygyProbeDepth"].default, o["SyzygyProbeDepth"].min,
            o["SyzygyProbeDepth"].max) == (1, 1, 100)  # fmt: skip
    assert o["Syzygy50MoveRule"].type == "check" and o["Syzygy50MoveRule"].default is True
    assert (o["SyzygyProbeLimit"].default, o["SyzygyProbeLimit"].min,
            o["SyzygyProbeLimit"].max) == (7, 0, 7)  # fmt: skip


def test_engine_mates_kq_v_k_with_tbhits(uci_engine: chess.engine.SimpleEngine) -> None:
    """With the tables the engine mates the longest KQvK defence in the tables' DTZ,
    and every search reports ``tbhits``."""
    oracle = chess.syzygy.open_tablebase(str(DATA))
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    dtz = oracle.probe_dtz(board)
    uci_engine.configure({"SyzygyPath": str(DATA)})
    try:
        while not board.is_game_over(claim_draw=True):
            if board.turn == chess.WHITE:
                result = uci_engine.play(board, chess.engine.Limit(depth=5),
                                         info=chess.engine.INFO_ALL)  # fmt: skip
                assert result.move is not None
                assert result.info.get("tbhits", 0) >= 1
                board.push(result.move)
            else:
                board.push(max(board.legal_moves, key=lambda m: _dtz_after(board, m, oracle)))
    finally:
        uci_engine.configure({"SyzygyPath": "<empty>"})
    assert board.is_checkmate() and len(board.move_stack) == dtz


def _dtz_after(board: chess.Board, move: chess.Move, oracle: chess.syzygy.Tablebase) -> int:
    """The DTZ for the side to move after ``move`` (the defender wants it largest)."""
    child = board.copy(stack=False)
    child.push(move)
    if child.is_checkmate():
        return -1000
    return oracle.probe_dtz(child)


def test_bad_paths_are_reported_and_the_engine_plays(
    spawn_uci: Callable[[], RawUci], tmp_path: Path
) -> None:
    """A missing directory and a corrupt file: one ``info string`` each, then play goes on
    with the usable table (``tbhits`` counted from it)."""
    (tmp_path / "KQvK.rtbw").write_bytes((DATA / "KQvK.rtbw").read_bytes()[:100])
    (tmp_path / "KRvK.rtbw").write_bytes((DATA / "KRvK.rtbw").read_bytes())
    uci = spawn_uci()
    uci.ready()
    path = f"{tmp_path / 'nowhere'}{os.pathsep}{tmp_path}"
    uci.send(f"setoption name SyzygyPath value {path}", "isready")
    lines = [x for x in uci.expect("readyok") if x.startswith("info string")]
    assert lines[0].startswith("info string found 1 WDL and 0 DTZ tablebases")
    assert len(lines) == 3
    assert any("nowhere" in x for x in lines) and any("KQvK" in x for x in lines)
    uci.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 4")
    got = uci.expect("bestmove")
    assert chess.Move.from_uci(got[-1].split()[1]) in chess.Board(
        "8/8/8/4k3/8/8/8/KQ6 w - - 0 1").legal_moves  # fmt: skip
    infos = [x for x in got if x.startswith("info depth")]
    assert infos and all(" tbhits 0 " in x for x in infos)  # KQvK is the broken one
    uci.send("position fen 8/8/8/8/4k3/8/8/R6K w - - 0 1", "go depth 4")
    got = uci.expect("bestmove")
    assert any(" tbhits " in x for x in got if x.startswith("info depth"))


def _won_positions(oracle: chess.syzygy.Tablebase, count: int) -> list[chess.Board]:
    """``count`` won 4-man positions whose every root move the bundled tables answer."""
    rng = random.Random(48)
    found: list[chess.Board] = []
    while len(found) < count:
        name = rng.choice(["KQvKR", "KQvKP", "KRvKB", "KBNvK", "KPvKP"])
        board = random_position(name, rng, swap=len(found) % 2 == 1)
        if board.is_game_over() or oracle.get_wdl(board) != 2:
            continue
        children = []
        for move in board.legal_moves:
            board.push(move)
            children.append(oracle.get_wdl(board))
            board.pop()
        if None not in children:
            found.append(board)
    return found


def test_root_resolved_positions_always_report_tbhits(
    uci_engine: chess.engine.SimpleEngine,
) -> None:
    """24 won 4-man positions the tables settle at the root: every search reports tbhits,
    counting the root moves ranked, also one stopped before its first iteration ends
    (a one-node budget) and one that never probes below the root."""
    oracle = chess.syzygy.open_tablebase(str(DATA))
    uci_engine.configure({"SyzygyPath": str(DATA)})
    try:
        for board in _won_positions(oracle, 24):
            for limit in (chess.engine.Limit(nodes=1), chess.engine.Limit(depth=3)):
                info = uci_engine.analyse(board, limit, info=chess.engine.INFO_ALL)
                assert info.get("tbhits", 0) >= board.legal_moves.count(), (board.fen(), limit)
    finally:
        uci_engine.configure({"SyzygyPath": "<empty>"})
