"""play connect four (7 x 6) against the computer.

Play connect four against the computer: type a column number (1-7) to drop a disc; 'help'
lists the open columns, 'quit' stops. Works with piped input. Or solve positions exactly:
--solve MOVES prints 'score: N' (positive: the player to move wins, 22 minus the winner's
discs at the end; negative: loses; 0: draw; Pascal Pons' convention) and the best columns;
--solve-file checks a file of 'MOVES SCORE' lines. Positions are the columns played, from 1
(4453).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from plies.cli.board_game import add_player_arguments
from plies.cli.common import CliError, Command

# Defaults that answer within about a second a move in Python.
_DEFAULT_SECONDS = 1.0
_DEFAULT_MINIMAX_DEPTH = 4
# Shown when loading the compiled solver takes a while (compiling it, on the first run).
_LOADING = "loading the connect-four solver (the first run compiles it: a few seconds)..."


COMMAND = Command("connect4", __doc__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``plies connect4``."""
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--play", action="store_true", help="play a game (the default)")
    modes.add_argument("--solve", metavar="MOVES",
                       help="solve the position reached by these columns (e.g. 4453); the first "
                       "few discs can take from seconds to minutes")
    modes.add_argument("--solve-file", metavar="FILE", type=Path,
                       help="solve every 'MOVES SCORE' line of FILE ('#' lines skipped); "
                       "report solved N/M, mean time and positions per second")
    parser.add_argument("--generic", action="store_true",
                        help="with --solve: search with the generic Game layer in Python "
                        "(slow: late positions only) instead of the compiled solver")
    add_player_arguments(
        parser,
        depth_help=f"search depth in plies (minimax default {_DEFAULT_MINIMAX_DEPTH}; "
        "alphabeta: deepest iteration)",
        time_help=f"seconds per move for alphabeta (default {_DEFAULT_SECONDS}) and mcts",
    )


def run(args: argparse.Namespace) -> int:
    """Solve what was asked, or play one game between the person and the computer."""
    if args.generic and args.solve is None:
        raise CliError("--generic goes with --solve MOVES")
    if args.solve is not None:
        return _solve_one(args.solve, args.generic)
    if args.solve_file is not None:
        return _solve_file(args.solve_file)
    from plies.cli.board_game import play_computer
    from plies.games.connect4 import Connect4

    game = Connect4()
    depth = args.depth
    if depth is None and args.algorithm in ("minimax", "negamax"):
        depth = _DEFAULT_MINIMAX_DEPTH
    seconds = args.time
    if seconds is None and args.algorithm == "alphabeta" and args.depth is None:
        seconds = _DEFAULT_SECONDS
    return play_computer(game, game.centre_first, args, depth, seconds)


def _meaning(score: int, moves: int) -> str:
    """Say in words what ``score`` means for the player to move after ``moves`` discs."""
    from plies.games.connect4_solver import winner_discs

    if score == 0:
        return "a draw with best play"
    mover = "X" if moves % 2 == 0 else "O"
    other = "O" if mover == "X" else "X"
    winner = mover if score > 0 else other
    return f"{winner} wins with its disc number {winner_discs(score)} ({mover} to move)"


def _solve_one(moves: str, generic: bool) -> int:
    """Print the score, its meaning, the best columns and the search's statistics."""
    from plies.compile_notice import compile_notice
    from plies.games.connect4_solver import Connect4Solver, generic_score, parse_moves

    try:
        state = parse_moves(moves)
    except ValueError as exc:
        raise CliError(f"bad position {moves!r}: {exc}") from None
    if generic:
        start = time.perf_counter()
        score = generic_score(state)
        print(f"score: {score}")
        print(f"meaning: {_meaning(score, state.moves)}")
        print(f"time: {time.perf_counter() - start:.3f} s (generic alpha-beta, Python)")
        return 0
    solver = Connect4Solver()
    with compile_notice(_LOADING):
        solver.warm_up()
    solution = solver.solve(moves)
    columns = " ".join(str(c) for c in solution.best_columns) or "none (the board is full)"
    print(f"score: {solution.score}")
    print(f"meaning: {_meaning(solution.score, state.moves)}")
    print(f"best columns: {columns}")
    rate = solution.nodes / solution.seconds if solution.seconds > 0 else 0.0
    print(f"positions: {solution.nodes:,}  time: {solution.seconds:.3f} s  "
          f"positions per second: {rate:,.0f}")
    return 0


def _read_cases(path: Path) -> list[tuple[int, str, int | None]]:
    """Read the lines 'MOVES SCORE' of ``path``: (line number, moves, score or None if bad)."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None
    cases: list[tuple[int, str, int | None]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        expected: int | None = None
        if len(fields) == 2:
            try:
                expected = int(fields[1])
            except ValueError:
                expected = None
        cases.append((number, fields[0] if len(fields) == 2 else line, expected))
    return cases


def _solve_file(path: Path) -> int:
    """Solve every position of ``path`` from a fresh table; report what matched and how fast."""
    from plies.compile_notice import compile_notice
    from plies.games.connect4_solver import Connect4Solver, parse_moves

    cases = _read_cases(path)
    if not cases:
        raise CliError(f"{path} holds no 'MOVES SCORE' line")
    solver = Connect4Solver()
    with compile_notice(_LOADING):
        solver.warm_up()
    solved = timed = nodes = 0
    wall = cpu = slowest = slowest_cpu = 0.0
    for number, moves, expected in cases:
        if expected is None:
            print(f"{path}:{number}: not 'MOVES SCORE': {moves!r}", file=sys.stderr)
            continue
        try:
            state = parse_moves(moves)
        except ValueError as exc:
            print(f"{path}:{number}: bad position {moves!r}: {exc}", file=sys.stderr)
            continue
        solver.reset()
        start, start_cpu = time.perf_counter(), time.process_time()
        score = solver.score(state)
        took = time.perf_counter() - start
        took_cpu = time.process_time() - start_cpu
        timed += 1
        wall += took
        cpu += took_cpu
        slowest = max(slowest, took)
        slowest_cpu = max(slowest_cpu, took_cpu)
        nodes += solver.nodes
        if score == expected:
            solved += 1
        else:
            print(f"{path}:{number}: {moves} scored {score}, the file says {expected}")
    total = len(cases)
    print(f"solved: {solved}/{total}")
    if timed and wall > 0:
        # CPU time as well: on a busy machine it is what an idle one would show.
        print(f"mean time: {1000 * wall / timed:.3f} ms (CPU {1000 * cpu / timed:.3f} ms), "
              f"slowest {1000 * slowest:.1f} ms (CPU {1000 * slowest_cpu:.1f} ms)")
        print(f"mean positions: {nodes / timed:,.0f}")
        per_cpu = f" ({nodes / cpu:,.0f} per CPU second)" if cpu > 0 else ""
        print(f"positions per second: {nodes / wall:,.0f}{per_cpu}")
    return 0 if solved == total else 1
