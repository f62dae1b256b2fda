"""``plies game``: play, solve, compare and check any game a spec names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.runs import RunCli, one_line_error, plies

DATA = Path(__file__).parents[1] / "games" / "data"
NIM = str(DATA / "nim.py")
BROKEN = str(DATA / "broken_games.py")
STICKS = str(DATA / "sticks.py") + ":Sticks"
PINS = str(DATA / "sticks.py") + ":Pins"
CONNECT4 = Path(__file__).parents[1] / "data" / "connect4" / "end_easy.txt"


def solve_json(cli: RunCli, *argv: str) -> dict[str, object]:
    """Run ``plies game solve --json ARGV`` and return the parsed answer."""
    status, out, err = cli(["game", "solve", "--json", *argv])
    assert status == 0, err
    answer: dict[str, object] = json.loads(out)
    return answer


def test_solve_json_tictactoe_is_a_draw_with_every_first_move(cli: RunCli) -> None:
    """Tic-tac-toe is a draw and no first move loses."""
    answer = solve_json(cli, "tictactoe")
    assert answer["value"] == 0.0
    assert sorted(answer["best_actions"]) == sorted(  # type: ignore[arg-type]
        f"{c}{r}" for c in "abc" for r in "123"
    )
    assert answer["exact"] is True
    assert isinstance(answer["nodes"], int) and answer["nodes"] > 0


def test_solve_json_tictactoe_after_a_corner_reply_mistake(cli: RunCli) -> None:
    """After X a1, O a2 (an edge, not the centre) X wins, and b2 is one way to."""
    answer = solve_json(cli, "tictactoe", "--state", "a1 a2")
    assert answer["value"] == 1.0
    assert "b2" in answer["best_actions"]  # type: ignore[operator]


def test_solve_json_nim_takes_the_nim_sum_move(cli: RunCli) -> None:
    """Nim 1-3-5 (nim-sum 7): the first player wins, only by taking 3 from the pile of 5."""
    answer = solve_json(cli, NIM)
    assert answer == {**answer, "value": 1.0, "best_actions": ["(2, 3)"], "exact": True}
    lost = solve_json(cli, NIM, "--state", "(2, 3)")
    assert lost["value"] == -1.0


def test_solve_json_connect4_end_games_match_the_known_scores(cli: RunCli) -> None:
    """Late connect-four positions: the sign of the published score is the value."""
    rows = [
        line.split() for line in CONNECT4.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    late = [r for r in rows if len(r[0]) >= 36][:3]
    assert late
    for moves, score in late:
        answer = solve_json(cli, "connect4", "--state", " ".join(moves))
        expected = (int(score) > 0) - (int(score) < 0)
        assert answer["value"] == expected, moves


def test_solve_with_a_depth_says_heuristic(cli: RunCli) -> None:
    """A depth cutoff that decides nothing is reported as a heuristic value."""
    status, out, _ = cli(["game", "solve", "connect4", "--depth", "2"])
    assert status == 0
    assert "(heuristic, depth 2)" in out
    answer = solve_json(cli, "connect4", "--time", "0")
    assert answer["exact"] is False and answer["depth"] == 1


def test_solve_openspiel_nim(cli: RunCli) -> None:
    """OpenSpiel's normal-play nim 1-3-5 through the adapter: same answer as the reader's."""
    pytest.importorskip("pyspiel")
    answer = solve_json(cli, "openspiel:nim(pile_sizes=1;3;5,is_misere=false)")
    assert answer["value"] == 1.0
    assert answer["best_actions"] == ["pile:3, take:3;"]


def test_check_exits_1_and_shows_the_state(cli: RunCli) -> None:
    """A breach: status 1, its kind, detail, line and picture."""
    argv = ["game", "check", f"{BROKEN}:MutatingGame", "--playouts", "5"]
    status, out, _ = cli(argv)
    assert status == 1
    assert "BREACH mutates: result changed its input state (5 times)" in out
    assert "first in game 1, after: (the initial state)" in out
    assert "    total 0, player 1 to move" in out
    status, out, _ = cli(["game", "check", NIM, "--playouts", "20"])
    assert status == 0
    assert "no breach of the protocol found" in out


def test_compare_any_game(cli: RunCli) -> None:
    """The gametree table for the reader's Nim, to the end: every search agrees on the value."""
    status, out, _ = cli(
        ["game", "compare", NIM, "--depth", "end", "--playouts", "50"]
    )
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    values = {r[0]: r for r in rows if r and r[0] in ("minimax", "negamax", "alpha-beta")}
    assert set(values) == {"minimax", "negamax", "alpha-beta"}
    assert all("win" in row for row in values.values())


def table(out: str) -> dict[str, list[str]]:
    """The rows of a compare table by algorithm: best action and value first."""
    rows = {}
    for line in out.splitlines():
        for name in ("minimax", "negamax", "alpha-beta + ordering + TT", "alpha-beta",
                     "iterative deepening"):
            if line.startswith(name + "  "):
                rows.setdefault(name, line[len(name):].split())
    return rows


def test_compare_solves_a_small_game_exactly_by_default(cli: RunCli) -> None:
    """15 sticks, take 1 to 3: solved within the default budget, so every search runs to
    the end, proves the win and takes 3 (leaving a multiple of 4)."""
    status, out, _ = cli(["game", "compare", STICKS, "--playouts", "50"])
    assert status == 0
    assert "initial state: solved exactly" in out
    assert "value for player 0 to move: win; winning actions: 3" in out
    assert "every action: 1 loss, 2 loss, 3 win" in out
    rows = table(out)
    assert len(rows) == 5
    assert all(row[:2] == ["3", "win"] for row in rows.values()), rows


def test_compare_says_in_words_when_values_are_guesses(cli: RunCli) -> None:
    """No time to solve it: the depth-limited values are called guesses, not results."""
    status, out, _ = cli(["game", "compare", STICKS, "--time", "0", "--playouts", "50"])
    assert status == 0
    assert "initial state: not solved within 0 s" in out
    assert "a value other than win, loss or draw is a guess" in out
    status, out, _ = cli(["game", "compare", STICKS, "--depth", "3", "--playouts", "50"])
    assert status == 0
    assert "searches stop at depth 3" in out and "is a guess" in out


def test_compare_to_the_end_gives_up_at_the_time_limit(cli: RunCli) -> None:
    """A search that cannot finish in time says so in its row instead of a value."""
    argv = ["game", "compare", STICKS, "--depth", "end", "--time", "0", "--playouts", "20"]
    status, out, _ = cli(argv)
    assert status == 0
    assert "every search runs to the end of the game (or gives up after 0 s)" in out
    rows = table(out)
    assert len(rows) == 5
    assert all(row[:2] == ["-", "-"] and " ".join(row).endswith("(not finished within 0 s)")
               for row in rows.values()), rows


def test_play_by_number_and_by_text(cli: RunCli) -> None:
    """The menu: a number or an action's text; nonsense explained; a perfect opponent wins."""
    argv = ["game", "play", NIM, "--opponent", "perfect", "--state", "(2, 3)"]
    script = "zz\n99\n(0, 1)\n1\n1\n1\n1\n"
    status, out, _ = cli(argv, script)
    assert status == 0
    assert "actions: 1) (0, 1)  2) (1, 1)" in out
    assert "(an action or its number; help, quit)" in out
    assert "not a legal action here: 'zz'; type an action as listed or its number from 1 to" in out
    assert "not a legal action here: '99'" in out
    assert "player 1 (you) plays (0, 1)" in out
    assert out.rstrip().endswith("player 0 (computer) wins.")


def test_play_integer_actions_by_their_own_text(cli: RunCli) -> None:
    """Pins numbered from 0: no menu numbers to mistake for them, and 5 plays pin 5."""
    status, out, _ = cli(["game", "play", PINS, "--opponent", "perfect"], "5\n")
    assert status == 0
    assert "actions: 0  1  2  3  4  5  6\n" in out
    assert "player 0 (you) to move (an action as listed; help, quit): 5" in out
    assert "player 0 (you) plays 5\n((0, 1, 2, 3, 4, 7), 1)" in out
    status, out, _ = cli(["game", "play", PINS, "--opponent", "perfect"], "7\n")
    assert "not a legal action here: '7'; type an action as listed" in out


def test_play_reads_the_games_own_numbers_before_menu_numbers(cli: RunCli) -> None:
    """Tic-tac-toe reads 5 as cell 5 (b2), so menu numbers take a mark: #2 is c3."""
    argv = ["game", "play", "tictactoe", "--state", "a3", "--opponent", "perfect"]
    status, out, _ = cli(argv, "5\n")
    assert status == 0
    assert "actions: #1) b3  #2) c3  #3) a2  #4) b2  #5) c2  #6) a1  #7) b1  #8) c1\n" in out
    assert "player 1 (you) to move (an action or its #number; help, quit): 5" in out
    assert "player 1 (you) plays b2" in out
    status, out, _ = cli(argv, "#2\n")
    assert "player 1 (you) plays c3" in out


def test_bad_specs_and_options_are_one_line_status_2(cli: RunCli) -> None:
    """Specs that cannot load and silly options: one line, status 2."""
    cases = [
        ["game", "solve", "nosuchgame"],
        ["game", "check", "missing.py"],
        ["game", "compare", "tictactoe", "--depth", "zero"],
        ["game", "compare", "tictactoe", "--time", "-1"],
        ["game", "compare", "tictactoe", "--depth", "3", "--time", "1"],
        ["game", "play", "tictactoe", "--opponent", "oracle"],
        ["game", "play", "tictactoe", "--opponent", "mcts:width=3"],
        ["game", "solve", "tictactoe", "--state", "b2 b2"],
        ["game", "solve", "tictactoe", "--depth", "0"],
        ["game", "check", f"{BROKEN}:Missing"],
    ]
    for argv in cases:
        status, _, err = cli(argv)
        assert one_line_error(status, err).startswith("plies game: error:"), argv


def test_gametree_is_kept() -> None:
    """``plies gametree`` still prints its named positions (a real process)."""
    proc = plies("gametree", "--depth", "3", "--playouts", "20")
    assert proc.returncode == 0, proc.stderr
    assert "after a1 b2 c3" in proc.stdout
