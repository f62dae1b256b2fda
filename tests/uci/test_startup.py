"""The UCI engine right after start: ``isready`` and ``go`` are answered correctly at once."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import threading
from pathlib import Path

import chess
import chess.engine
from tests.uci.conftest import START_TIMEOUT_S, UCI_COMMAND, run_script


def test_go_right_after_start_without_isready() -> None:
    lines = run_script("uci\nposition startpos moves e2e4\ngo depth 4\nisready\nquit\n")
    assert lines.index("uciok") < len(lines) - 1
    best = [ln for ln in lines if ln.startswith("bestmove ")]
    assert len(best) == 1, lines
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best[0].split()[1]) in board.legal_moves
    assert "readyok" in lines  # answered at once, even while the search runs


def test_python_chess_pings_and_plays_at_once() -> None:
    mate_in_one = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND,
                                                 timeout=START_TIMEOUT_S)  # fmt: skip
    try:
        engine.ping()  # isready: waits for the engine to load (or compile)
        result = engine.play(mate_in_one, chess.engine.Limit(depth=3))
        assert result.move == chess.Move.from_uci("a1a8")
        engine.ping()
    finally:
        engine.quit()


def _until_ready(env: dict[str, str]) -> list[str]:
    """Start ``plies uci``, send ``uci`` and ``isready``; the lines up to the first
    ``info string`` or ``readyok``, whichever comes first (then the process is ended)."""
    proc = subprocess.Popen(UCI_COMMAND, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(ln.strip()) for ln in proc.stdout or ()],
                     daemon=True).start()  # fmt: skip
    seen: list[str] = []
    try:
        proc.stdin.write("uci\nisready\n")
        proc.stdin.flush()
        while not seen or not seen[-1].startswith(("info string", "readyok")):
            seen.append(lines.get(timeout=START_TIMEOUT_S))
    finally:
        proc.kill()
        proc.wait()
    return seen


def test_a_warm_start_says_nothing_before_readyok() -> None:
    # A shared pytest fixture compiled the engine: this start loads it from the cache.
    assert _until_ready(dict(os.environ))[-1] == "readyok"


def test_a_cold_start_says_that_it_compiles_and_for_how_long(tmp_path: Path) -> None:
    # Ended at the notice: the compile itself is the budget test's business.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PLIES_NO_COMPILE_WORKERS": "1"}
    notice = _until_ready(env)[-1]
    assert "compiling the chess engine" in notice, notice
    assert re.search(r"about \d+ s", notice), notice
