"""How long one ``go`` takes at bullet clocks, timed by the client around it (as python-chess does).

For each clock (1000, 300, 100 and 30 ms left, 10 ms increment) the probe
sends ``--goes`` searches from positions deep into random games (so the
``position ... moves`` line is long, as late in a real game) and times each
``play`` call from the client's side: a ``go`` that overruns a short clock shows
up here before it loses a game.  Stockfish 15.1 is measured the same way::

    python benchmarks/bullet_probe.py
    python benchmarks/bullet_probe.py --goes 50 --inc 1
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

import chess
import chess.engine

from harness import STOCKFISH, clocked, machine_line, random_positions

CLOCKS_MS = (1000, 300, 100, 30)


def probe(command: list[str], boards: list[chess.Board], inc_ms: int) -> dict[int, list[float]]:
    """Client-timed milliseconds of each ``go`` per clock."""
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=600)
    engine.ping()
    out: dict[int, list[float]] = {}
    try:
        for clock in CLOCKS_MS:
            limit = chess.engine.Limit(
                white_clock=clock / 1000, black_clock=clock / 1000,
                white_inc=inc_ms / 1000, black_inc=inc_ms / 1000,
            )  # fmt: skip
            times = out.setdefault(clock, [])
            times += [clocked(lambda b=board, t=limit: engine.play(b, t)).wall * 1000
                      for board in boards]
    finally:
        engine.quit()
    return out


def main() -> int:
    """Probe plies and Stockfish; print median, 90th percentile and maximum per clock."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goes", type=int, default=30, help="searches per clock (30)")
    parser.add_argument("--inc", type=int, default=10, help="increment in ms (10)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    boards = random_positions(args.goes, (100, 200), random.Random(args.seed))
    engines = {"plies": [sys.executable, "-m", "plies", "uci"]}
    if Path(STOCKFISH).exists():
        engines["stockfish"] = [STOCKFISH]
    results = {name: probe(cmd, boards, args.inc) for name, cmd in engines.items()}
    print(f"client-timed go, {args.inc} ms increment, {args.goes} positions 100-200 plies deep")
    for clock in CLOCKS_MS:
        row = [f"{clock:5} ms left"]
        for name, by_clock in results.items():
            ms = sorted(by_clock[clock])
            p90 = statistics.quantiles(ms, n=10)[8]
            median = statistics.median(ms)
            row.append(f"{name} median {median:5.1f} p90 {p90:5.1f} max {ms[-1]:6.1f}")
        if "stockfish" in results:
            medians = [statistics.median(results[n][clock]) for n in ("plies", "stockfish")]
            row.append(f"median plies/stockfish {medians[0] / medians[1]:.2f}")
        print("  |  ".join(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
