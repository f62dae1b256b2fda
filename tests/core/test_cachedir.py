"""The compiled cache is keyed on all core sources: edits anywhere recompile, nothing piles up.

The unit tests drive ``plies.core.cachedir`` on temporary directories. The
end-to-end test copies the package, runs perft in a subprocess, edits a
constant in ``core/movegen.py`` of the copy and runs again: ``core/perft.py``,
untouched, must pick up the new move generator (numba's own per-file cache
keeps the old one), while an unchanged second run loads everything from the
cache.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from plies.core import cachedir

SRC = Path(cachedir.__file__).resolve().parents[2]


def _fake_core(tmp_path: Path) -> Path:
    """A directory with two source files standing in for core/."""
    core = tmp_path / "core"
    core.mkdir()
    (core / "a.py").write_text("X = 1\n")
    (core / "b.py").write_text("Y = 2\n")
    return core


def test_hash_covers_every_source_file(tmp_path: Path) -> None:
    """The hash changes with any file's content or name, and only then."""
    core = _fake_core(tmp_path)
    first = cachedir.sources_hash(core)
    assert cachedir.sources_hash(core) == first
    (core / "b.py").write_text("Y = 3\n")
    second = cachedir.sources_hash(core)
    assert second != first
    (core / "c.py").write_text("")
    assert cachedir.sources_hash(core) not in (first, second)


def test_configure_picks_a_per_hash_directory_and_removes_stale_ones(tmp_path: Path) -> None:
    """The directory is named after the hash; dead processes' old directories go, live ones stay."""
    core = _fake_core(tmp_path)
    base = tmp_path / "cache"
    env: dict[str, str] = {}
    first = cachedir.configure(core, env, [base])
    assert first is not None and first.parent == base
    assert first.name.endswith(cachedir.sources_hash(core))
    assert env[cachedir.ENV] == env[cachedir.MARK] == str(first)
    assert (first / f".pid-{os.getpid()}").exists()

    # Another process, now finished, used a directory for other sources.
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead = first.with_name(first.name[:-4] + "dead")
    dead.mkdir()
    (dead / f".pid-{done.stdout.strip()}").touch()
    # And this very process still uses the first directory.
    (core / "a.py").write_text("X = 5\n")
    second = cachedir.configure(core, env, [base])
    assert second is not None and second != first
    assert env[cachedir.ENV] == str(second)
    assert not dead.exists()
    assert first.exists()


def test_unwritable_base_falls_back_to_the_next(tmp_path: Path) -> None:
    """A base that cannot hold directories (read-only install) is skipped."""
    core = _fake_core(tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a directory")
    env: dict[str, str] = {}
    chosen = cachedir.configure(core, env, [blocked, tmp_path / "user"])
    assert chosen is not None and chosen.parent == tmp_path / "user"


def test_users_cache_dir_is_kept_and_purged_when_sources_change(tmp_path: Path) -> None:
    """A NUMBA_CACHE_DIR the user set stays; plies's stale files in it are deleted."""
    core = _fake_core(tmp_path)
    user = tmp_path / "mine"
    env = {cachedir.ENV: str(user)}
    assert cachedir.configure(core, env, [tmp_path / "unused"]) == user
    assert env == {cachedir.ENV: str(user)}
    sub = cachedir.numba_subdir(user, core)
    index = sub / "search._negamax-1.py311.nbi"
    data = sub / "search._negamax-1.py311.1.nbc"
    other = user / "elsewhere_0123" / "their.nbi"
    for path in (index, data, other):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("cached")
    cachedir.configure(core, env, [])
    assert index.exists() and data.exists()  # same sources: nothing purged
    (core / "a.py").write_text("X = 7\n")
    cachedir.configure(core, env, [])
    assert not index.exists() and not data.exists()
    assert other.exists()  # another package's cache is not ours to touch
    assert (sub / cachedir.STAMP).read_text().strip() == cachedir.sources_hash(core)


def test_inherited_directory_is_replaced(tmp_path: Path) -> None:
    """A directory a parent plies process chose (MARK == ENV) is not reused for other sources."""
    core = _fake_core(tmp_path)
    parent = tmp_path / "parent-choice"
    env = {cachedir.ENV: str(parent), cachedir.MARK: str(parent)}
    chosen = cachedir.configure(core, env, [tmp_path / "own"])
    assert chosen is not None and chosen.parent == tmp_path / "own"
    assert env[cachedir.ENV] == str(chosen)


FEN = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
PROGRAM = f"""
from plies import Board
from plies.board import perft
print("RESULT", perft(Board("{FEN}"), 2))
"""


def _replies(board: chess.Board, move: chess.Move) -> int:
    """Number of legal replies to ``move`` (python-chess)."""
    board.push(move)
    try:
        return board.legal_moves.count()
    finally:
        board.pop()


def _run(copy: Path, program: str = PROGRAM, timeout: float = 900) -> tuple[int, str]:
    """Run ``program`` on the copied package; return the number it prints and numba's log."""
    env = {k: v for k, v in os.environ.items() if k not in (cachedir.ENV, cachedir.MARK)}
    env["PYTHONPATH"] = str(copy)
    env["NUMBA_DEBUG_CACHE"] = "1"
    proc = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    match = re.search(r"^RESULT (-?\d+)$", proc.stdout, re.MULTILINE)
    assert match, proc.stdout[-2000:]
    return int(match.group(1)), proc.stdout


def test_edit_in_a_callee_file_reaches_cached_callers(tmp_path: Path) -> None:
    """Edit movegen.py in a copy: perft.py's cached code follows; an unchanged run hits."""
    copy = tmp_path / "src"
    shutil.copytree(SRC / "plies", copy / "plies",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    reference = chess.Board(FEN)
    knight = chess.Move.from_uci("a7a8n")
    expected = sum(_replies(reference, move) for move in list(reference.legal_moves))
    before, log = _run(copy)
    assert "data saved" in log
    assert before == expected

    again, log = _run(copy)
    assert again == before
    assert "data loaded" in log and "data saved" not in log

    movegen = copy / "plies" / "core" / "movegen.py"
    text = movegen.read_text()
    old, new = "for offset in range(3, -1, -1):", "for offset in range(3, 0, -1):"
    assert old in text
    movegen.write_text(text.replace(old, new))  # no knight promotion: one root move fewer
    after, log = _run(copy)
    assert after == before - _replies(reference, knight)
    assert "data saved" in log
    caches = list((copy / "plies" / "core" / "__pycache__").glob(cachedir.PREFIX + "*"))
    assert len(caches) == 1, caches  # the old hash's directory was removed


SEARCH_PROGRAM = """
from plies import Board, Engine, Limit
result = Engine(hash_mb=1).search(Board(), Limit(depth=2))
print("RESULT", result.info.score_cp)
"""


@pytest.mark.slow
def test_edit_in_evaluate_reaches_the_cached_search(tmp_path: Path) -> None:
    """A cross-file edit: a new TEMPO in evaluate.py changes the cached search's score."""
    copy = tmp_path / "src"
    shutil.copytree(SRC / "plies", copy / "plies",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    before, _ = _run(copy, SEARCH_PROGRAM, 3600)
    again, log = _run(copy, SEARCH_PROGRAM, 3600)
    assert again == before and "data saved" not in log
    evaluate = copy / "plies" / "core" / "evaluate.py"
    text = evaluate.read_text()
    tempo = re.search(r"^TEMPO = (\d+)$", text, re.MULTILINE)
    assert tempo, "evaluate.py has no TEMPO constant any more"
    evaluate.write_text(text.replace(tempo.group(0), f"TEMPO = {int(tempo.group(1)) + 100}"))
    after, _ = _run(copy, SEARCH_PROGRAM, 3600)
    assert after != before
