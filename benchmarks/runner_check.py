"""The strength figure by two runners at once: ``gauntlet.py`` (the arena) beside ``uci_match.py``.

Both runners play the same openings against the same engine at the same time,
one game each at a time (two games on the machine), so they share the load.
Before and after, each engine's own ``bench`` is run, and the CPU model and the
load are printed: the figures carry the conditions they were measured in.

Usage:
  python benchmarks/runner_check.py --engine fairy-stockfish --games 40 --first 1
  python benchmarks/runner_check.py --engine ethereal --games 40 --log-dir /tmp/check
Not a test: 40 games at 10+0.1 take about twenty minutes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from harness import ETHEREAL, FAIRY_STOCKFISH, PLIES, bench_speed, machine_line

ENGINES = {"fairy-stockfish": FAIRY_STOCKFISH, "ethereal": ETHEREAL}
"""The gauntlet engines this check knows, by ``gauntlet.py``'s names."""
HERE = Path(__file__).resolve().parent


def benches(engine: str) -> str:
    """Both engines' bench speeds, measured now, on one line."""
    return "  ".join(bench_speed(e).text() for e in (PLIES, engine))


def last_lines(path: Path, count: int) -> str:
    """The last ``count`` lines of a log."""
    return "\n".join(path.read_text(encoding="utf-8").splitlines()[-count:])


def main() -> int:
    """Measure the bench speeds, run both runners side by side, print both tallies."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", choices=sorted(ENGINES), required=True)
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--first", type=int, default=1, help="the first opening (1-based)")
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--openings", default=str(HERE / "openings" / "balanced-100.pgn"))
    p.add_argument("--log-dir", default=".", help="where the two runners' logs and PGNs go")
    args = p.parse_args()
    engine = ENGINES[args.engine]
    logs = Path(args.log_dir)
    logs.mkdir(parents=True, exist_ok=True)
    stem = f"{args.engine}-{args.first}-{args.games}"
    print(machine_line(), flush=True)
    print("before:", benches(engine), flush=True)
    common = ["--games", str(args.games), "--tc", args.tc, "--openings", args.openings,
              "--first", str(args.first), "--concurrency", "1"]
    arena_log, own_log = logs / f"{stem}-arena.log", logs / f"{stem}-uci_match.log"
    t0 = time.perf_counter()
    with arena_log.open("w") as a_out, own_log.open("w") as o_out:
        arena = subprocess.Popen(
            [sys.executable, str(HERE / "gauntlet.py"), "--engines", args.engine,
             "--bootstrap", "0", "--pgn", str(logs / f"{stem}-arena.pgn"), *common],
            stdout=a_out, stderr=subprocess.STDOUT)
        own = subprocess.Popen(
            [sys.executable, str(HERE / "uci_match.py"), "--engine", engine,
             "--pgn", str(logs / f"{stem}-uci_match.pgn"), *common],
            stdout=o_out, stderr=subprocess.STDOUT)
        codes = (arena.wait(), own.wait())
    print(f"both runners done in {time.perf_counter() - t0:.0f} s (exit {codes})")
    print("after:", benches(engine), flush=True)
    print(machine_line())
    print("-- arena (gauntlet.py) --")
    print(last_lines(arena_log, 6))
    print("-- uci_match.py --")
    print(last_lines(own_log, 1))
    return 0 if codes == (0, 0) else 1


if __name__ == "__main__":
    sys.exit(main())
