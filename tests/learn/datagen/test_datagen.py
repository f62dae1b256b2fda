"""``plies datagen``: same seed same file, every written position passes the filters, resumption."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from plies.cli.main import main
from plies.learn.datagen.selfplay import game_seed
from plies.learn.lines import parse_line

# Tiny budgets keep each game to a fraction of a second once the engine is compiled.
_ARGS = [
    "--nodes",
    "150",
    "--seed",
    "7",
    "--max-moves",
    "60",
    "--skip-plies",
    "10",
    "--scores",
    "-q",
]


def _datagen(out: Path, games: int, *extra: str) -> int:
    """Run ``plies datagen`` in process."""
    return main(["datagen", str(out), "--games", str(games), *_ARGS, *extra])


def test_same_seed_same_lines_and_filters_hold(tmp_path: Path) -> None:
    """Two runs with one seed give identical bytes; every line is a quiet, legal position."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert _datagen(a, 3) == 0
    assert _datagen(b, 3) == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert len(lines) > 20
    other = tmp_path / "c.txt"
    assert main(["datagen", str(other), "--games", "3", *_ARGS[:2], "--seed", "8", *_ARGS[4:]]) == 0
    assert other.read_bytes() != a.read_bytes()
    previous_fen = None
    for line in lines:
        fen, score, result = parse_line(line)
        board = chess.Board(fen)
        assert board.is_valid()
        assert not board.is_check()
        assert score is not None and abs(score) < 90_000
        assert result in (0.0, 0.5, 1.0)
        # Ply of the position from the FEN's move counters: at least --skip-plies.
        ply = 2 * (board.fullmove_number - 1) + (0 if board.turn == chess.WHITE else 1)
        assert ply >= 10
        assert fen != previous_fen
        previous_fen = fen
    # The played move and the previous move are quiet: check through consecutive lines.
    _check_quiet_moves(lines)


def _check_quiet_moves(lines: list[str]) -> None:
    """Between consecutive positions one ply apart, the move between them is no capture."""
    boards = [chess.Board(parse_line(line)[0]) for line in lines]
    checked = 0
    for before, after in itertools.pairwise(boards):
        for move in before.legal_moves:
            before.push(move)
            same = before.board_fen() == after.board_fen() and before.turn == after.turn
            before.pop()
            if same:
                # The move from `before` was its best move, and the last move into `after`.
                assert not before.is_capture(move) and move.promotion is None
                checked += 1
                break
    assert checked > 5


def test_progress_record_and_resume_equal_one_run(tmp_path: Path) -> None:
    """2 games then 4 (plus a torn half-written game) give the bytes of 4 games in one go."""
    whole, parts = tmp_path / "whole.txt", tmp_path / "parts.txt"
    assert _datagen(whole, 4) == 0
    assert _datagen(parts, 2) == 0
    record = json.loads((tmp_path / "parts.txt.progress.json").read_text())
    assert record["games"] == 2 and record["bytes"] == parts.stat().st_size
    with parts.open("a") as fh:
        fh.write("8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.")  # a game cut off mid-line
    assert _datagen(parts, 4) == 0
    assert parts.read_bytes() == whole.read_bytes()


def test_bad_resumes_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Other settings, or a file datagen did not write, give a one-line error and keep the file."""
    out = tmp_path / "d.txt"
    assert _datagen(out, 1) == 0
    before = out.read_bytes()
    assert _datagen(out, 2, "--nodes", "200") == 2
    assert "other settings" in capsys.readouterr().err
    assert out.read_bytes() == before
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("hello\n")
    assert _datagen(foreign, 1) == 2
    assert "refusing" in capsys.readouterr().err
    assert foreign.read_text() == "hello\n"
    assert main(["datagen", str(tmp_path / "e.txt"), "--games", "0"]) == 2


def test_game_seed_depends_on_base_and_number() -> None:
    """Seeds are stable and differ per game and per base seed."""
    assert game_seed(1, 1) == game_seed(1, 1)
    assert len({game_seed(1, 1), game_seed(1, 2), game_seed(2, 1)}) == 3


def test_ctrl_c_keeps_finished_games_and_resume_matches(tmp_path: Path) -> None:
    """SIGINT mid-run exits 130 with whole games on disk; re-running completes the same file."""
    games = 6
    whole, cut = tmp_path / "whole.txt", tmp_path / "cut.txt"
    assert _datagen(whole, games) == 0
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "plies", "datagen", str(cut), "--games", str(games), *_ARGS[:-1]]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    progress = tmp_path / "cut.txt.progress.json"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if progress.exists() and json.loads(progress.read_text() or "{}").get("games", 0) >= 1:
            break
        time.sleep(0.05)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    record = json.loads(progress.read_text())
    if record["games"] < games:
        assert proc.returncode == 130, err.decode()
        assert b"interrupted" in err
    else:  # every game was played before the signal landed, or it landed on the way out
        assert proc.returncode in (0, 130, -signal.SIGINT), err.decode()
    assert cut.stat().st_size == record["bytes"]
    kept = cut.read_text().splitlines()
    assert whole.read_text().splitlines()[: len(kept)] == kept, _first_difference(whole, cut)
    assert _datagen(cut, games) == 0
    assert cut.read_bytes() == whole.read_bytes(), _first_difference(whole, cut)


def _first_difference(expected: Path, got: Path) -> str:
    """Where two datagen files first part: the line number and both lines."""
    a, b = expected.read_text().splitlines(), got.read_text().splitlines()
    for number, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if x != y:
            return f"line {number} of {len(a)}/{len(b)}: expected {x!r}, got {y!r}"
    return f"one file is a prefix of the other: {len(a)} against {len(b)} lines"


def test_concurrency_writes_the_same_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two worker processes give the bytes of a one-process run; a bad player is one line."""
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    assert _datagen(one, 4) == 0
    assert _datagen(two, 4, "--concurrency", "2") == 0
    assert two.read_bytes() == one.read_bytes()
    assert json.loads((tmp_path / "two.txt.progress.json").read_text())["games"] == 4
    bad = tmp_path / "bad.txt"
    assert _datagen(bad, 2, "--concurrency", "2", "--player", "uci:/bin/false") == 2
    assert "worker" in capsys.readouterr().err
    assert main(["datagen", str(tmp_path / "z.txt"), "--concurrency", "0"]) == 2
