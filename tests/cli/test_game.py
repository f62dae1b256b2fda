"""``plies game``: play, solve, compare and check any game a spec names."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from plies.cli.main import main

DATA = Path(__file__).parents[1] / "games" / "data"
NIM = str(DATA / "nim.py")
BROKEN = str(DATA / "broken_games.py")
CONNECT4 = Path(__file__).parents[1] / "data" / "connect4" / "end_easy.txt"


def run_cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    """Run ``plies argv`` in-process with ``stdin`` as typed input; return status, out, err."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def solve_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str
) -> dict[str, object]:
    """Run ``plies game solve --json ARGV`` and return the parsed answer."""
    status, out, err = run_cli(monkeypatch, capsys, ["game", "solve", "--json", *argv])
    assert status == 0, err
    answer: dict[str, object] = json.loads(out)
    return answer


def test_solve_json_tictactoe_is_a_draw_with_every_first_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tic-tac-toe is a draw and no first move loses."""
    answer = solve_json(monkeypatch, capsys, "tictactoe")
    assert answer["value"] == 0.0
    assert sorted(answer["best_actions"]) == sorted(  # type: ignore[arg-type]
        f"{c}{r}" for c in "abc" for r in "123"
    )
    assert answer["exact"] is True
    assert isinstance(answer["nodes"], int) and answer["nodes"] > 0


def test_solve_json_tictactoe_after_a_corner_reply_mistake(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After X a1, O a2 (an edge, not the centre) X wins, and b2 is one way to."""
    answer = solve_json(monkeypatch, capsys, "tictactoe", "--state", "a1 a2")
    assert answer["value"] == 1.0
    assert "b2" in answer["best_actions"]  # type: ignore[operator]


def test_solve_json_nim_takes_the_nim_sum_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nim 1-3-5 (nim-sum 7): the first player wins, only by taking 3 from the pile of 5."""
    answer = solve_json(monkeypatch, capsys, NIM)
    assert answer == {**answer, "value": 1.0, "best_actions": ["(2, 3)"], "exact": True}
    lost = solve_json(monkeypatch, capsys, NIM, "--state", "(2, 3)")
    assert lost["value"] == -1.0


def test_solve_json_connect4_end_games_match_the_known_scores(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Late connect-four positions: the sign of the published score is the value."""
    rows = [
        line.split() for line in CONNECT4.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    late = [r for r in rows if len(r[0]) >= 36][:3]
    assert late
    for moves, score in late:
        answer = solve_json(monkeypatch, capsys, "connect4", "--state", " ".join(moves))
        expected = (int(score) > 0) - (int(score) < 0)
        assert answer["value"] == expected, moves


def test_solve_with_a_depth_says_heuristic(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A depth cutoff that decides nothing is reported as a heuristic value."""
    status, out, _ = run_cli(monkeypatch, capsys, ["game", "solve", "connect4", "--depth", "2"])
    assert status == 0
    assert "(heuristic, depth 2)" in out
    answer = solve_json(monkeypatch, capsys, "connect4", "--time", "0")
    assert answer["exact"] is False and answer["depth"] == 1


def test_solve_openspiel_nim(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenSpiel's normal-play nim 1-3-5 through the adapter: same answer as the reader's."""
    pytest.importorskip("pyspiel")
    answer = solve_json(monkeypatch, capsys, "openspiel:nim(pile_sizes=1;3;5,is_misere=false)")
    assert answer["value"] == 1.0
    assert answer["best_actions"] == ["pile:3, take:3;"]


def test_check_exits_1_and_shows_the_state(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A breach: status 1, its kind, detail, line and picture."""
    argv = ["game", "check", f"{BROKEN}:MutatingGame", "--playouts", "5"]
    status, out, _ = run_cli(monkeypatch, capsys, argv)
    assert status == 1
    assert "BREACH mutates: result changed its input state (5 times)" in out
    assert "first in game 1, after: (the initial state)" in out
    assert "    total 0, player 1 to move" in out
    status, out, _ = run_cli(monkeypatch, capsys, ["game", "check", NIM, "--playouts", "20"])
    assert status == 0
    assert "no breach of the protocol found" in out


def test_compare_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The gametree table for the reader's Nim, to the end: every search agrees on the value."""
    status, out, _ = run_cli(
        monkeypatch, capsys, ["game", "compare", NIM, "--depth", "end", "--playouts", "50"]
    )
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    values = {r[0]: r for r in rows if r and r[0] in ("minimax", "negamax", "alpha-beta")}
    assert set(values) == {"minimax", "negamax", "alpha-beta"}
    assert all("win" in row for row in values.values())


def test_play_by_number_and_by_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The menu: a number or an action's text; nonsense explained; a perfect opponent wins."""
    argv = ["game", "play", NIM, "--opponent", "perfect", "--state", "(2, 3)"]
    script = "zz\n99\n(0, 1)\n1\n1\n1\n1\n"
    status, out, _ = run_cli(monkeypatch, capsys, argv, script)
    assert status == 0
    assert "actions: 1) (0, 1)  2) (1, 1)" in out
    assert "not a legal action here: 'zz'; type a number from 1 to" in out
    assert "not a legal action here: '99'" in out
    assert "player 2 (you) plays (0, 1)" in out
    assert out.rstrip().endswith("player 1 (computer) wins.")


def test_bad_specs_and_options_are_one_line_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Specs that cannot load and silly options: one line, status 2."""
    cases = [
        ["game", "solve", "nosuchgame"],
        ["game", "check", "missing.py"],
        ["game", "compare", "tictactoe", "--depth", "zero"],
        ["game", "play", "tictactoe", "--opponent", "oracle"],
        ["game", "play", "tictactoe", "--opponent", "mcts:width=3"],
        ["game", "solve", "tictactoe", "--state", "b2 b2"],
        ["game", "solve", "tictactoe", "--depth", "0"],
        ["game", "check", f"{BROKEN}:Missing"],
    ]
    for argv in cases:
        status, _, err = run_cli(monkeypatch, capsys, argv)
        assert status == 2, argv
        assert err.count("\n") == 1 and err.startswith("plies game: error:"), err


def test_gametree_is_kept() -> None:
    """``plies gametree`` still prints its named positions (a real process)."""
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "gametree", "--playouts", "20"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "after a1 b2 c3" in proc.stdout
