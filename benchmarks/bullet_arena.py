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
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn

from harness import STOCKFISH, machine_line

PLIES = f"uci:{sys.executable} -m plies uci"
_SECONDS = re.compile(r"(\d+\.\d+)s")


@dataclass
class Tally:
    """What happened to one engine over the games it played."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    crashes: int = 0
    illegal: int = 0
    time_losses: int = 0
    moves: int = 0
    slowest_ms: float = 0.0
    lowest_clock_ms: float = float("inf")
    time_loss_plies: list[int] = field(default_factory=list)


def _pairings(which: str, elo: int) -> dict[str, tuple[str, str]]:
    """The arena player specs of each pairing asked for."""
    out: dict[str, tuple[str, str]] = {}
    if which in ("self", "both"):
        out["self"] = (f"{PLIES}:name=plies-a", f"{PLIES}:name=plies-b")
    if which in ("stockfish", "both"):
        sf = f"uci:{STOCKFISH}:UCI_LimitStrength=true,UCI_Elo={elo},name=stockfish-{elo}"
        out["stockfish"] = (f"{PLIES}:name=plies", sf)
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
    start = time.perf_counter()
    subprocess.run(command, check=False)
    return time.perf_counter() - start


def tally(pgn: Path, base_ms: float, inc_ms: float) -> dict[str, Tally]:
    """Read every game of ``pgn`` into one Tally per engine name."""
    tallies: dict[str, Tally] = {}
    with pgn.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            _add_game(game, tallies, base_ms, inc_ms)
    return tallies


def _add_game(
    game: chess.pgn.Game, tallies: dict[str, Tally], base_ms: float, inc_ms: float
) -> None:
    """Count one game for both of its engines."""
    h = game.headers
    names = {chess.WHITE: h["White"], chess.BLACK: h["Black"]}
    result = h["Result"]
    termination = h.get("Termination", "")
    clocks = {chess.WHITE: base_ms, chess.BLACK: base_ms}
    node: chess.pgn.GameNode = game
    last_comment = game.comment
    plies = 0
    for child in game.mainline():
        mover = not child.board().turn
        plies += 1
        match = _SECONDS.search(child.comment)
        t = tallies.setdefault(names[mover], Tally())
        if match and "book" not in child.comment:
            ms = float(match.group(1)) * 1000
            t.moves += 1
            t.slowest_ms = max(t.slowest_ms, ms)
            clocks[mover] -= ms
            t.lowest_clock_ms = min(t.lowest_clock_ms, clocks[mover])
            clocks[mover] += inc_ms
        node = child
        last_comment = child.comment
    loser_side = {"1-0": chess.BLACK, "0-1": chess.WHITE}.get(result)
    for side in (chess.WHITE, chess.BLACK):
        t = tallies.setdefault(names[side], Tally())
        t.games += 1
        if loser_side is None:
            t.draws += 1
        elif loser_side == side:
            t.losses += 1
        else:
            t.wins += 1
    # The faulty side is the one to move in the final position.
    at_fault = names[node.board().turn]
    t = tallies[at_fault]
    reason = last_comment or game.comment
    if termination == "time forfeit":
        t.time_losses += 1
        t.time_loss_plies.append(plies)
    elif termination == "rules infraction":
        t.illegal += 1
    elif termination == "abandoned" or "crashed" in reason or "hung" in reason:
        t.crashes += 1


def report(name: str, tallies: dict[str, Tally], wall_s: float) -> None:
    """Print one pairing's table."""
    print(f"\n{name}: {wall_s:.0f} s wall")
    header = (f"{'engine':<22}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'crash':>7}{'illegal':>8}"
              f"{'time':>6}{'moves':>8}{'slowest ms':>11}{'min clock ms':>13}")  # fmt: skip
    print(header)
    for engine, t in sorted(tallies.items()):
        print(
            f"{engine:<22}{t.games:>6}{t.wins:>5}{t.draws:>5}{t.losses:>5}{t.crashes:>7}"
            f"{t.illegal:>8}{t.time_losses:>6}{t.moves:>8}{t.slowest_ms:>11.0f}"
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
    base_s, _, inc_s = args.tc.partition("+")
    base_ms, inc_ms = float(base_s) * 1000, float(inc_s or 0) * 1000
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    for name, players in _pairings(args.pairing, args.elo).items():
        pgn = args.out / f"{name}.pgn"
        wall = 0.0
        if not args.report_only:
            pgn.unlink(missing_ok=True)
            wall = run_pairing(players, args.games, args.tc, pgn, args.seed, args.nice)
        if pgn.exists():
            report(name, tally(pgn, base_ms, inc_ms), wall)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
