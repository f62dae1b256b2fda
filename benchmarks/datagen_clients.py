"""Datagen throughput with the pipe UCI client beside python-chess's, measured in one run.

Plays the same seeded datagen games (Stockfish at a fixed depth, as
``plies datagen --player uci:/usr/games/stockfish --depth 7 --scores`` does)
once through :class:`plies.arena.players.UciPlayer` (``chess.engine``) and once
through :class:`plies.arena.pipe_uci.PipeUciPlayer`, alternating ``--repeat``
times, and prints the training positions per CPU second (this process, its
threads and the engine), best of the repeats, with the ratio.  CPU time, not
wall time, so a busy machine does not blur the comparison; both runs must write
the same lines, or the script says so and exits 1.

Usage: python benchmarks/datagen_clients.py [--games N] [--depth D] [--repeat N] [--engine PATH]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from harness import STOCKFISH, machine_line
from plies.arena.pipe_uci import pipe_player
from plies.arena.players import parse_player
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, play_datagen_game


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (the engines) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(settings: DatagenSettings, games: range, pipes: bool) -> tuple[list[str], float, float]:
    """The games' lines, this process's CPU seconds and the engine's, for one client."""
    spec = parse_player(settings.player)
    player = pipe_player(spec) if pipes else spec.create()
    engine_before = _children_cpu()
    own_before = time.process_time()
    lines: list[str] = []
    try:
        for number in games:
            record = play_datagen_game(settings, number, player, player)
            lines += position_lines(record, settings.skip_plies, settings.scores)
    finally:
        own = time.process_time() - own_before
        player.close()  # the engine's CPU counts once it has exited
    return lines, own, _children_cpu() - engine_before


def main() -> int:
    """Measure both clients and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--engine", default=STOCKFISH)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    settings = DatagenSettings(
        player=f"uci:{args.engine}", nodes=None, depth=args.depth, seed=args.seed, scores=True
    )
    games = range(1, args.games + 1)
    best: dict[bool, float] = {}
    reference: list[str] | None = None
    for _ in range(args.repeat):
        for pipes in (False, True):
            lines, own, engine = run(settings, games, pipes)
            if reference is None:
                reference = lines
            elif lines != reference:
                print("the two clients wrote different lines", file=sys.stderr)
                return 1
            rate = len(lines) / (own + engine)
            best[pipes] = max(best.get(pipes, 0.0), rate)
            name = "pipes" if pipes else "python-chess"
            print(f"{name:>12}: {len(lines)} positions, client {own:.2f} CPU s, "
                  f"engine {engine:.2f} CPU s, {rate:.1f} positions per CPU s")  # fmt: skip
    print(f"best of {args.repeat}: pipes {best[True]:.1f}, python-chess {best[False]:.1f} "
          f"positions per CPU s, ratio {best[True] / best[False]:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
