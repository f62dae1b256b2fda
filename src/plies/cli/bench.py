"""search the bench positions at a fixed depth: node signature and nodes/second.

Search a fixed set of openings, middlegames and endgames to a fixed depth with cleared
tables. 'Nodes searched' is a behaviour signature (same code, same number); 'Nodes/second'
is the engine's speed.
"""

from __future__ import annotations

import argparse

from plies.cli.common import CliError, Command

COMMAND = Command("bench", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies bench``."""
    from plies.uci.bench import DEFAULT_DEPTH

    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, metavar="D",
                   help=f"search depth in plies (default {DEFAULT_DEPTH})")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the totals")


def run(args: argparse.Namespace) -> int:
    """Run the bench and print one line per position, then the totals."""
    if not 1 <= args.depth <= 64:
        raise CliError(f"depth must be between 1 and 64, got {args.depth}")
    from plies.engine import Engine
    from plies.uci.bench import BENCH_POSITIONS, BenchPosition, bench_lines, run_bench

    Engine(1).warm_up()  # announces a first-run compile itself; keeps it out of the timing
    count = len(BENCH_POSITIONS)
    seen = 0

    def show(position: BenchPosition) -> None:
        """One line per finished position."""
        nonlocal seen
        seen += 1
        if not args.quiet:
            nps = int(position.nodes / position.time_s) if position.time_s > 0 else 0
            print(
                f"Position {seen:2}/{count} {position.name:<26} nodes {position.nodes:>10}  "
                f"{position.time_s * 1000:8.0f} ms  {nps:>9} nps  bestmove {position.best_move}",
                flush=True,
            )

    result = run_bench(args.depth, on_position=show)
    if not args.quiet:
        print()
    for line in bench_lines(result):
        print(line)
    return 0
