"""Every front end takes every player spec: ``plies players``, ``arena``, ``play``, ``mind``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import chess.pgn
import pytest
from tests.cli.runs import in_process, one_line_error, plies

TOY_MIND = Path(__file__).resolve().parents[1] / "arena" / "toy_mind.py"
FAIRYMAX = shutil.which("fairymax") or shutil.which("fairymax", path="/usr/games")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_players_lists_every_name() -> None:
    proc = plies("players")
    assert proc.returncode == 0, proc.stderr
    names = [line.split()[0] for line in proc.stdout.splitlines() if line and line[0] != " "]
    assert names[:5] == ["random", "capture", "minimax", "alphabeta", "engine"]
    if FAIRYMAX:
        assert f"xboard:{FAIRYMAX}" in names
    for form in ("FILE.py[:NAME]", "mind:COMMAND", "mind+http://HOST:PORT/PATH", "xboard:"):
        assert form in proc.stdout


@pytest.mark.skipif(FAIRYMAX is None, reason="fairymax is not installed")
def test_arena_takes_every_spec_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "first.py").write_text("def choose(board):\n    return board.legal_moves[0]\n")
    pgn = tmp_path / "games.pgn"
    monkeypatch.chdir(tmp_path)
    proc = in_process("arena", "first.py", f"mind:{sys.executable} {TOY_MIND}",
                      f"xboard:{FAIRYMAX}", "--games", "2", "--depth", "1", "--max-moves", "15",
                      "--seed", "1", "--pgn", str(pgn))
    assert proc.returncode == 0, proc.stderr
    assert "6 of 6 games played" in proc.stdout
    with pgn.open() as fh:
        players = set()
        while (game := chess.pgn.read_game(fh)) is not None:
            players |= {game.headers["White"], game.headers["Black"]}
            assert game.headers["Termination"] in ("normal", "adjudication"), game.headers
    assert players == {"first", "toy_mind.py", "fairymax"}


def test_bad_specs_are_one_line_and_exit_2_in_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every reason is checked in-process (tests/arena/test_player_specs.py); here each
    # command meets both kinds of failure: a spec refused when read, and code that fails
    # only when loaded.
    (tmp_path / "loops.py").write_text("import nosuchthing\ndef choose(board):\n    pass\n")
    read, loaded = ("missing.py", "no such file"), (
        "loops.py", "ModuleNotFoundError: No module named 'nosuchthing'")
    monkeypatch.chdir(tmp_path)
    for spec, reason in (read, loaded):
        for command in (("arena", spec, "random", "--depth", "1"), ("play", "--opponent", spec),
                        ("mind", "--agent", spec)):
            proc = in_process(*command)
            one_line_error(proc.returncode, proc.stderr, f"player {spec!r}: ", reason)
            assert proc.stdout == ""


def test_mind_answers_with_any_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "first.py").write_text("def choose(board):\n    return 'Nf3'\n")
    fens = f"{START}\nnot a fen\n"
    monkeypatch.chdir(tmp_path)
    for spec in ("first.py", f"mind:{sys.executable} {TOY_MIND}", "random"):
        proc = in_process("mind", "--agent", spec, "--seed", "1", stdin=fens)
        assert proc.returncode == 0, proc.stderr
        first, second = proc.stdout.splitlines()
        assert second == "0,0"
        if spec == "first.py":
            assert first == "6,21"  # g1f3
        frm, to = (int(x) for x in first.split(","))
        assert any(m.from_square == frm and m.to_square == to
                   for m in chess.Board(START).legal_moves)
