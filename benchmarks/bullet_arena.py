"""Bullet games through ``plies arena``: crashes, illegal moves and losses on time, per engine.

Plays plies (``python -m plies uci``, a real subprocess timed from the
arena's side of the pipe, as python-chess does) against itself and against
Stockfish 15.1 at ``UCI_LimitStrength=true,UCI_Elo=2000`` at 1+0.01, then
reads the PGN back and prints, for every engine: games, W/D/L, crashes
(crashed, hung or failed to start), illegal moves, losses on time, the
slowest move (client-timed) and the least time any clock showed after a move
(replayed from the per-move times in the PGN).  Stockfish is the peer: its
time losses in the same run show how much the machine's load alone costs.

The default plays 1,000 games per pairing, enough to see rare losses on time::

    python benchmarks/bullet_arena.py                      # 1,000 + 1,000 games
    python benchmarks/bullet_arena.py --games 100 --pairing self
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from harness import STOCKFISH, MatchTally, clocked, machine_line, plies_player, tally_pgn
from plies.arena.clock import TimeControl


def _pairings(which: str, elo: int) -> dict[str, tuple[str, str]]:
    """The arena player specs of each pairing asked for."""
    out: dict[str, tuple[str, str]] = {}
    if which in ("self", "both"):
        out["self"] = (plies_player(64, "plies-a"), plies_player(64, "plies-b"))
    if which in ("stockfish", "both"):
        sf = f"uci:{STOCKFISH}:UCI_LimitStrength=true,UCI_Elo={elo},name=stockfish-{elo}"
        out["stockfish"] = (plies_player(64), sf)
    return out


def run_pairing(
    players: tuple[str, str], games: int, tc: str, pgn: Path, seed: int, nice: int
) -> float:
    """Play the match through ``plies arena``; return the wall time in seconds."""
    command = [
        sys.executable, "-m", "plies", "arena", *players, "--tc", tc, "--games", str(games),
        "--random-openings", "8", "--seed", str(seed), "--pgn", str(pgn), "-q",
    ]  # fmt: skip
    if nice:
        command = ["nice", "-n", str(nice), *command]
    print("$", " ".join(command), flush=True)
    return clocked(lambda: subprocess.run(command, check=False)).wall


def report(name: str, tally: MatchTally, wall_s: float) -> None:
    """Print one pairing's table."""
    print(f"\n{name}: {wall_s:.0f} s wall")
    header = (f"{'engine':<22}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'crash':>7}{'illegal':>8}"
              f"{'time':>6}{'moves':>8}{'slowest ms':>11}{'min clock ms':>13}")  # fmt: skip
    print(header)
    for engine, t in sorted(tally.engines.items()):
        s, f = t.score, t.faults
        print(
            f"{engine:<22}{s.games:>6}{s.wins:>5}{s.draws:>5}{s.losses:>5}{f['crash']:>7}"
            f"{f['illegal']:>8}{f['time']:>6}{t.moves:>8}{t.slowest_ms:>11.0f}"
            f"{t.lowest_clock_ms:>13.0f}"
        )
        if t.time_loss_plies:
            print(f"  {engine} lost on time at plies {sorted(t.time_loss_plies)}")


def main() -> int:
    """Run the pairings asked for and print the tallies."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (1000)")
    parser.add_argument("--tc", default="1+0.01", help="time control (1+0.01)")
    parser.add_argument("--pairing", choices=("self", "stockfish", "both"), default="both")
    parser.add_argument("--elo", type=int, default=2000, help="Stockfish UCI_Elo (2000)")
    parser.add_argument("--seed", type=int, default=9, help="seed of the random openings")
    parser.add_argument("--out", type=Path, default=Path("bullet_arena"), help="PGN directory")
    parser.add_argument("--nice", type=int, default=5, help="niceness of the arena (5)")
    parser.add_argument("--report-only", action="store_true", help="only read existing PGNs")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    try:
        tc = TimeControl.parse(args.tc)
    except ValueError as exc:
        parser.error(str(exc))
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    for name, players in _pairings(args.pairing, args.elo).items():
        pgn = args.out / f"{name}.pgn"
        wall = 0.0
        if not args.report_only:
            pgn.unlink(missing_ok=True)
            wall = run_pairing(players, args.games, args.tc, pgn, args.seed, args.nice)
        if pgn.exists():
            report(name, tally_pgn(pgn, tc), wall)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
