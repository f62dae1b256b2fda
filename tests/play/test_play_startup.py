"""``plies play`` on a first run: the board is drawn and a move taken before the engine compiles,
and only a first run says that it compiles."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.waiting import HANG_S

from plies import Engine

NOTICE = "a first run compiles it"
"""What the game says while the engine compiles in the background."""

# A fresh, empty numba cache: everything the engine needs would have to be compiled.
# No compile workers: the test ends the game long before they would finish.


def _compiled(cache: Path, name: str) -> bool:
    """Whether numba's cache in ``cache`` holds the function ``name`` (module.function)."""
    return any(cache.rglob(f"{name}-*.nbi"))


def test_board_and_first_move_need_no_compiled_code(tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PLIES_NO_COMPILE_WORKERS": "1",
           "COLUMNS": "120"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "play", "--ascii"], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    try:
        rows: list[str] = []
        waiting = False
        sent = False
        noticed = False
        for line in proc.stdout:
            noticed = noticed or NOTICE in line
            if line.strip()[:1].isdigit():
                rows.append(line.strip())
            if not sent and line.strip().startswith("1 "):
                # The first board is complete: the engine cannot have been compiled.
                assert not _compiled(cache, "search.search_root")
                proc.stdin.write("e4\n")
                proc.stdin.flush()
                sent = True
            if "Waiting for the engine" in line:
                waiting = True
                break
        assert sent and waiting, proc.stderr.read() if proc.poll() is not None else rows
        assert noticed, "a cold start compiles the engine: the game must say so"
        # The board after e4 was drawn (a python-chess board), still before the search exists.
        assert not _compiled(cache, "search.search_root")
        assert rows[6].split()[5] == "P"  # first board: the pawn on e2
        after = [r for r in rows[8:] if r.startswith("4 ")]
        assert after and after[0].split()[5] == "(P)", rows  # then on e4, marked as the last move
    finally:
        proc.kill()
        proc.wait(timeout=HANG_S)


def test_a_warm_start_does_not_speak_of_compiling() -> None:
    Engine(hash_mb=1).warm_up()  # the cache the command loads from is complete
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "play", "--ascii"], input="e4\nquit\n",
        env=env, capture_output=True, text=True, timeout=HANG_S, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Bye." in proc.stdout  # the game ran: the engine replied to e4, then quit
    assert NOTICE not in proc.stdout and "compil" not in proc.stderr, proc.stdout
