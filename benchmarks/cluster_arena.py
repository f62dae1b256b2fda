"""Arena throughput on Ray (``--cluster auto``) beside the local thread pool, same games.

Plays the same Stockfish-vs-Stockfish match (fixed nodes or a fast time control)
locally on 1 and 2 threads and on a private local Ray instance with 1 and 2
worker processes, and prints games per minute, the Ray start-up cost, and the
overhead per game of a cluster run against a local run with as many workers.

    python benchmarks/cluster_arena.py --games 24 --tc 1+0.01
"""

from __future__ import annotations

import argparse
import time

from harness import STOCKFISH, machine_line
from plies.agents.spec import parse_player
from plies.arena.clock import TimeControl
from plies.arena.cluster import ray_session
from plies.arena.match import Match, MatchSettings
from plies.arena.openings import opening_schedule
from plies.arena.referee import Adjudication, GameSettings
from plies.arena.runner import run_match


def _play(games: int, settings: GameSettings, concurrency: int, cluster: str | None) -> float:
    """Seconds to play the match (Ray already connected when ``cluster`` is set)."""
    specs = [parse_player(f"uci:{STOCKFISH}:name=a"), parse_player(f"uci:{STOCKFISH}:name=b")]
    openings = opening_schedule((games + 1) // 2, None, 6, 1)
    match = Match(specs, MatchSettings(games=games, concurrency=concurrency, seed=1,
                                       cluster=cluster, cluster_slots=concurrency),
                  settings, openings)
    start = time.perf_counter()
    result = run_match(match)
    elapsed = time.perf_counter() - start
    assert result.played == games, (result.played, games)
    return elapsed


def main() -> None:
    """Measure and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--tc", default="1+0.01", help="time control (default 1+0.01)")
    ap.add_argument("--max-moves", type=int, default=60)
    args = ap.parse_args()
    print(machine_line(), flush=True)
    settings = GameSettings(tc=TimeControl.parse(args.tc),
                            adjudication=Adjudication(max_moves=args.max_moves))
    rows = []
    for workers in (1, 2):
        rows.append((f"local, {workers} thread(s)", workers,
                     _play(args.games, settings, workers, None)))
    start = time.perf_counter()
    with ray_session("auto"):
        startup = time.perf_counter() - start
        for workers in (1, 2):
            rows.append((f"--cluster auto, {workers} worker(s)", workers,
                         _play(args.games, settings, workers, "auto")))
    print(f"{args.games} games per run, tc {args.tc}, max {args.max_moves} moves")
    print(f"Ray start-up (private local instance): {startup:.1f} s (once per command)")
    print(f"{'run':34} {'seconds':>8} {'games/min':>10}")
    for name, _, secs in rows:
        print(f"{name:34} {secs:8.1f} {60 * args.games / secs:10.1f}")
    for workers in (1, 2):
        local = next(s for n, w, s in rows if w == workers and n.startswith("local"))
        ray = next(s for n, w, s in rows if w == workers and n.startswith("--cluster"))
        per_game = (ray - local) / (args.games / workers)
        print(f"{workers} worker(s): cluster/local time ratio {ray / local:.2f}, "
              f"overhead {1000 * per_game:+.0f} ms per game (includes starting the actors)")
    one = next(s for n, w, s in rows if w == 1 and n.startswith("--cluster"))
    two = next(s for n, w, s in rows if w == 2 and n.startswith("--cluster"))
    print(f"cluster scaling 1 -> 2 workers: {one / two:.2f}x")


if __name__ == "__main__":
    main()
