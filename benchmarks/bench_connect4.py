"""Connect-four solver speed: plies' compiled solver beside bitbully (C++) on the same sets.

Every position is solved from an empty table (both solvers' tables are reset before
each position, outside the timing) and its score checked against the file.  Wall
and CPU time are both shown: on a shared machine the CPU time is the fair figure.
bitbully's table reset costs about 0.1 s a position (untimed), so a full run of
the 3000 positions takes several minutes.  The
generic layer's alpha-beta (Python) is timed on the first positions of the end-game
set as a second peer.

    python benchmarks/bench_connect4.py                      # the three sets of tests/data/connect4
    python benchmarks/bench_connect4.py --generic 50 --sets end_easy
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from harness import clocked, machine_line
from plies.games.connect4_solver import Connect4Solver, generic_score, parse_moves

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
SETS = ("end_easy", "middle_easy", "middle_medium")


def read_set(path: Path, limit: int | None) -> list[tuple[str, int]]:
    """Return the (moves, score) lines of ``path``, comments skipped, at most ``limit``."""
    cases = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases[:limit]


# What one solve reports: score, positions visited, wall seconds, CPU seconds.
Outcome = tuple[int, int, float, float]


def timed(func: Callable[[], tuple[int, int]]) -> Outcome:
    """Run ``func`` (-> score, nodes) and add its wall and CPU seconds."""
    run = clocked(func)
    score, nodes = run.value
    return score, nodes, run.wall, run.cpu


def measure(
    cases: list[tuple[str, int]], solve: Callable[[str], Outcome]
) -> tuple[int, list[float], list[float], int]:
    """Run ``solve`` on every case: (right answers, wall times, CPU times, positions)."""
    right = nodes = 0
    walls, cpus = [], []
    for moves, expected in cases:
        score, visited, wall, cpu = solve(moves)
        right += score == expected
        nodes += visited
        walls.append(wall)
        cpus.append(cpu)
    return right, walls, cpus, nodes


def report(name: str, cases: int, right: int, walls: list[float], cpus: list[float],
           nodes: int | None) -> float:
    """Print one solver's line and return its mean CPU time in seconds."""
    cpu = statistics.fmean(cpus)
    per_second = f"{nodes / sum(cpus):>11,.0f} pos/CPU-s" if nodes is not None else ""
    mean_nodes = f"{nodes / cases:>9,.0f} pos" if nodes is not None else " " * 13
    print(f"  {name:<17} {right:>4}/{cases} right  mean {1000 * statistics.fmean(walls):8.3f} ms "
          f"(CPU {1000 * cpu:7.3f})  max {1000 * max(walls):7.1f} ms (CPU {1000 * max(cpus):6.1f})"
          f"  {mean_nodes} {per_second}")
    return cpu


def main() -> int:
    """Benchmark each set and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--limit", type=int, help="positions per set (default all)")
    parser.add_argument("--generic", type=int, default=30,
                        help="end-game positions to time the generic alpha-beta on (0: none)")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    ours = Connect4Solver()
    ours.warm_up()

    def solve_ours(moves: str) -> Outcome:
        """Score with plies' compiled solver from a fresh table."""
        state = parse_moves(moves)
        ours.reset()
        return timed(lambda: (ours.score(state), ours.nodes))

    try:
        import bitbully as bb
    except ImportError:
        bb = None
        print("bitbully is not installed (pip install bitbully): no C++ peer")
    if bb is not None:
        peer = bb.BitBully(opening_book=None)

    def solve_peer(moves: str) -> Outcome:
        """Score with bitbully's MTD(f) from a fresh table (its reset takes ~0.1 s, untimed)."""
        board = bb.Board.from_moves([int(c) - 1 for c in moves])
        peer.reset_transposition_table()
        peer.reset_node_counter()
        return timed(lambda: (int(peer.mtdf(board)), int(peer.get_node_counter())))

    def solve_generic(moves: str) -> Outcome:
        """Score with the generic layer's alpha-beta in Python (nodes not counted)."""
        state = parse_moves(moves)
        return timed(lambda: (generic_score(state), 0))

    for name in args.sets.split(","):
        cases = read_set(DATA / f"{name}.txt", args.limit)
        print(f"{name} ({len(cases)} positions):")
        right, walls, cpus, nodes = measure(cases, solve_ours)
        mine = report("plies (numba)", len(cases), right, walls, cpus, nodes)
        if bb is not None:
            right, walls, cpus, nodes = measure(cases, solve_peer)
            theirs = report(f"bitbully {bb.__version__}", len(cases), right, walls, cpus, nodes)
            print(f"  ratio: plies takes {mine / theirs:.2f}x bitbully's mean CPU time")
        if name == "end_easy" and args.generic > 0:
            few = cases[: args.generic]
            right, walls, cpus, _ = measure(few, solve_generic)
            slow = report("generic (Python)", len(few), right, walls, cpus, None)
            fast = statistics.fmean(measure(few, solve_ours)[2])
            print(f"  ratio: the generic alpha-beta takes {slow / fast:.0f}x plies' mean CPU "
                  f"time on these {len(few)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
