"""How fast ``stop`` ends ``go infinite``: client-side latency from ``stop`` to ``bestmove``.

Starts ``plies uci`` (and Stockfish, the peer, the same way) as a subprocess
with raw pipes, and for each of ``--stops`` rounds: sets a position, sends
``go infinite``, waits a random 10-300 ms, sends ``stop`` and times how long
the ``bestmove`` line takes to arrive.  Prints the distribution for both
engines and how many stops took longer than 50 ms (the most a GUI should wait)::

    python benchmarks/stop_latency.py                 # 200 stops each
    python benchmarks/stop_latency.py --stops 50 --no-peer
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from harness import STOCKFISH, machine_line, random_positions

TARGET_MS = 50.0


class Pipe:
    """A UCI engine on raw pipes, its stdout lines queued with their arrival time."""

    def __init__(self, command: list[str]) -> None:
        """Start the engine and a reader thread."""
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Queue (time, line) for every line."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.strip()))

    def send(self, line: str) -> float:
        """Write a line; return the time just before it was written."""
        assert self.proc.stdin is not None
        at = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return at

    def wait_for(self, prefix: str, timeout: float = 600.0) -> float:
        """Arrival time of the next line starting with ``prefix``."""
        deadline = time.monotonic() + timeout
        while True:
            at, line = self.lines.get(timeout=max(0.001, deadline - time.monotonic()))
            if line.startswith(prefix):
                return at

    def close(self) -> None:
        """Quit and reap."""
        self.send("quit")
        self.proc.wait(timeout=60)


def measure(command: list[str], stops: int, seed: int) -> list[float]:
    """Milliseconds from ``stop`` to ``bestmove`` for each round."""
    rng = random.Random(seed)
    pipe = Pipe(command)
    pipe.send("uci")
    pipe.wait_for("uciok")
    pipe.send("isready")
    pipe.wait_for("readyok")
    latencies = []
    for board in random_positions(stops, (20, 60), rng):
        pipe.send(f"position fen {board.fen()}")
        pipe.send("go infinite")
        time.sleep(rng.uniform(0.010, 0.300))
        sent = pipe.send("stop")
        latencies.append((pipe.wait_for("bestmove") - sent) * 1000.0)
    pipe.close()
    return latencies


def describe(name: str, ms: list[float]) -> str:
    """One line: count, min, median, p90, p99, max, and how many exceeded the target."""
    s = sorted(ms)
    q = statistics.quantiles(s, n=100)
    over = sum(1 for x in s if x > TARGET_MS)
    return (
        f"{name:<12} n={len(s):4}  min {s[0]:6.2f}  median {statistics.median(s):6.2f}  "
        f"p90 {q[89]:6.2f}  p99 {q[98]:6.2f}  max {s[-1]:7.2f} ms  over {TARGET_MS:.0f} ms: {over}"
    )


def main() -> int:
    """Measure plies (and Stockfish) and print both distributions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stops", type=int, default=200, help="stops per engine (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of positions and waits")
    parser.add_argument("--no-peer", action="store_true", help="skip Stockfish")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    plies_ms = measure([sys.executable, "-m", "plies", "uci"], args.stops, args.seed)
    print(describe("plies", plies_ms))
    if not args.no_peer and Path(STOCKFISH).exists():
        sf_ms = measure([STOCKFISH], args.stops, args.seed)
        print(describe("stockfish", sf_ms))
        ratio = statistics.median(plies_ms) / max(statistics.median(sf_ms), 1e-9)
        print(f"median ratio plies/stockfish: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
