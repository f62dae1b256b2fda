"""The connect-four solver: exact scores against public, independent and brute-force answers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.cli.runs import RunCli

from plies.games.connect4 import Connect4, Connect4State
from plies.games.connect4_kernel import GENERATIONS, table_state
from plies.games.connect4_solver import (
    SIZE,
    Connect4Solver,
    brute_force_score,
    generic_score,
    null_window_score,
    parse_moves,
    score_bounds,
    win_score,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
# Positions of each generated set checked in the default run (the full sets: benchmarks/).
PER_SET = 12


def read_set(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    """Return the first ``limit`` (moves, score) lines of a data file, comments skipped."""
    cases = []
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases[:limit]


@pytest.fixture(scope="module")
def solver() -> Iterator[Connect4Solver]:
    """One compiled solver (a small table) shared by the module's tests."""
    yield Connect4Solver(tt_entries=1 << 20)


def random_late_games(seed: int, count: int, empty: int) -> list[str]:
    """Return ``count`` random games (as moves) still in play with exactly ``empty`` free cells."""
    rng = random.Random(seed)
    game = Connect4()
    found: list[str] = []
    while len(found) < count:
        state, text = game.initial_state(), []
        while state.winner is None and state.moves < SIZE - empty:
            column = rng.choice(list(game.actions(state)))
            state = game.result(state, column)
            text.append(str(column + 1))
        if state.winner is None:
            found.append("".join(text))
    return found


def random_late_positions(seed: int, count: int, empty: int) -> list[Connect4State]:
    """Return the positions of :func:`random_late_games`."""
    return [parse_moves(m) for m in random_late_games(seed, count, empty)]


def test_pons_published_lines(solver: Connect4Solver) -> None:
    """Lines quoted from Pascal Pons' own test sets: every score reproduced."""
    cases = read_set("pons_sample.txt")
    assert len(cases) == 21
    for moves, score in cases:
        assert solver.solve(moves, best=False).score == score, moves


@pytest.mark.parametrize("name", ["end_easy.txt", "middle_easy.txt", "middle_medium.txt"])
def test_generated_sets_agree_with_the_independent_labels(
    solver: Connect4Solver, name: str
) -> None:
    """The first positions of each set: the score an independent C++ solver gave."""
    for moves, score in read_set(name, PER_SET):
        assert solver.solve(moves, best=False).score == score, moves


@pytest.mark.slow
@pytest.mark.parametrize("name", ["end_easy.txt", "middle_easy.txt", "middle_medium.txt"])
def test_whole_generated_sets(solver: Connect4Solver, name: str) -> None:
    """Every position of each set (1000 each; about a minute in all on this machine)."""
    for moves, score in read_set(name):
        assert solver.solve(moves, best=False).score == score, moves


def test_scores_match_brute_force_negamax_on_small_cases(solver: Connect4Solver) -> None:
    """Positions 6 cells from the end: plain negamax over the whole tree agrees."""
    for state in random_late_positions(seed=7, count=25, empty=6):
        assert solver.score(state) == brute_force_score(state)


def test_scores_match_the_generic_alphabeta_on_late_positions(solver: Connect4Solver) -> None:
    """Positions 10 cells from the end: the generic layer's alpha-beta on null windows agrees."""
    states = random_late_positions(seed=11, count=12, empty=10)
    states += [parse_moves(m) for m, _ in read_set("end_easy.txt") if len(m) >= 33][:6]
    for state in states:
        solver.reset()
        assert solver.score(state) == generic_score(state)


def test_best_columns_are_exactly_those_keeping_the_score(solver: Connect4Solver) -> None:
    """Each best column's own score (an immediate win or minus the reply's) equals the score."""
    game = Connect4()
    for moves, score in read_set("middle_easy.txt", 6) + read_set("pons_sample.txt", 6):
        state = parse_moves(moves)
        solution = solver.solve(moves)
        assert solution.score == score
        for column in game.actions(state):
            child = game.result(state, column)
            if child.winner is not None:
                value = win_score(state.moves)
            else:
                solver.reset()
                value = -solver.score(child)
            assert (column + 1 in solution.best_columns) == (value == score), (moves, column)


def test_bitbully_agrees_on_random_middle_positions(solver: Connect4Solver) -> None:
    """A differential test against the bitbully package's solver on fresh random positions."""
    bb = pytest.importorskip("bitbully")
    peer = bb.BitBully(opening_book=None)
    for moves in random_late_games(seed=3, count=20, empty=18):
        expected = int(peer.mtdf(bb.Board.from_moves([int(c) - 1 for c in moves])))
        assert solver.solve(moves, best=False).score == expected, moves


def test_null_window_search_finds_every_score() -> None:
    """Fed a fail-hard test of a known value, the bisection returns exactly that value."""
    low, high = score_bounds(10)
    for truth in range(low, high + 1):
        calls: list[int] = []

        def test(alpha: int, beta: int, truth: int = truth, calls: list[int] = calls) -> int:
            """A fail-hard oracle: alpha if the value is at most alpha, else beta."""
            calls.append(alpha)
            return alpha if truth <= alpha else beta

        assert null_window_score(test, low, high) == truth
        assert len(calls) <= 12  # a linear scan of the 32 scores would need up to 32


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ("48", r"move 2 .*not a column"),
        ("1111111", "move 7: column 1 is full"),
        ("1212121", "already won"),
        ("12121213", "after the game was won"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(moves: str, reason: str) -> None:
    """Non-columns, full columns and play after a win raise ValueError saying which move."""
    with pytest.raises(ValueError, match=reason):
        parse_moves(moves)


def test_table_generations_isolate_positions(solver: Connect4Solver) -> None:
    """A reset forgets everything: the same solve visits the same positions again."""
    moves = read_set("middle_medium.txt", 1)[0][0]
    first = solver.solve(moves, best=False)
    second = solver.solve(moves, best=False)
    assert first.score == second.score and first.nodes == second.nodes > 1
    table, generation = table_state(solver._tables)
    assert table.any()
    for _ in range(GENERATIONS - int(generation) + 1):
        solver.reset()
    table, generation = table_state(solver._tables)
    assert generation == 1 and not table.any()
    assert solver.solve(moves, best=False).nodes == first.nodes


def test_full_board_and_immediate_win() -> None:
    """A full board is a draw without moves; a win on the next disc scores at once."""
    solver = Connect4Solver(tt_entries=1024)
    drawn = _full_drawn_board()
    assert solver.solve(drawn).score == 0 and solver.solve(drawn).best_columns == ()
    solution = solver.solve("121212")
    assert solution.score == win_score(6) == 18
    assert solution.best_columns == (1,)


def _full_drawn_board() -> str:
    """Return a 42-move game without four in a row (found by seeded random search)."""
    game = Connect4()
    rng = random.Random(5)
    while True:
        state, text = game.initial_state(), []
        while not game.is_terminal(state):
            column = rng.choice(list(game.actions(state)))
            state = game.result(state, column)
            text.append(str(column + 1))
        if state.winner is None:
            return "".join(text)


def test_cli_solve_prints_score_and_best_columns(cli: RunCli) -> None:
    """``--solve``: 'score: N', its meaning and the best columns; --generic agrees."""
    moves, score = read_set("pons_sample.txt", 2)[1]
    status, out, _ = cli(["connect4", "--solve", moves])
    assert status == 0
    assert f"score: {score}\n" in out
    assert score == 1 and len(moves) % 2 == 0
    assert "meaning: X wins with its disc number 21 (X to move)\n" in out
    assert "best columns: 2 6\n" in out
    assert "positions per second:" in out
    status, out, _ = cli(["connect4", "--solve", moves, "--generic"])
    assert status == 0 and f"score: {score}\n" in out
    for argv in (["--solve", "4x"], ["--generic"]):
        status, out, err = cli(["connect4", *argv])
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_cli_solve_file_counts_reports_and_flags_errors(cli: RunCli, tmp_path: Path) -> None:
    """``--solve-file``: solved N/M, timings; a wrong score and bad lines are named, status 1."""
    good = read_set("end_easy.txt", 5)
    lines = ["# a comment", *(f"{m} {s}" for m, s in good), "", f"{good[0][0]} {good[0][1] + 1}",
             "junk", "99999 0"]
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = cli(["connect4", "--solve-file", str(path)])
    assert status == 1
    assert "solved: 5/8\n" in out
    assert "mean time:" in out and "positions per second:" in out
    assert f"set.txt:8: {good[0][0]} scored {good[0][1]}, the file says {good[0][1] + 1}" in out
    assert "set.txt:9: not 'MOVES SCORE'" in err and "set.txt:10: bad position" in err
    good_path = tmp_path / "good.txt"
    good_path.write_text("".join(f"{m} {s}\n" for m, s in good))
    status, out, _ = cli(["connect4", "--solve-file", str(good_path)])
    assert status == 0 and "solved: 5/5\n" in out
    status, out, err = cli(["connect4", "--solve-file", str(tmp_path / "missing.txt")])
    assert status == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1
