"""Perft speed: plies against python-chess and Stockfish, measured in one run.

Both plies and the python-chess peer count with bulk counting (at depth 1 the
number of legal moves is the answer, no move is made). python-chess is slow,
so it runs shallower; plies is also timed at the peer's depth so that the
printed ratio compares like with like. Stockfish's ``go perft`` (which bulk
counts as well) runs when /usr/games/stockfish exists. Finally the command
``plies perft 1`` is timed as a fresh process: warm (numba cache present) and,
unless --quick or --no-cold, cold (empty cache in a temporary NUMBA_CACHE_DIR).

Each perft is repeated (--repeat, best kept) because the machine may be
shared. Rates are nodes per CPU second of the process doing the counting
(process time for plies and python-chess, /proc CPU ticks for Stockfish), so
that other load on the machine does not skew the ratios; wall seconds are
printed beside them, with the load average.

Usage: python benchmarks/bench_perft.py [--depth N] [--peer-depth N] [--repeat N]
                                        [--quick] [--no-cold]
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import chess

from harness import (
    STOCKFISH,
    api_perft,
    children_cpu,
    clocked,
    in_turn,
    machine_line,
    process_cpu,
)

KNOWN_COUNTS = Path(__file__).resolve().parents[1] / "tests" / "data" / "perft" / "standard.epd"


@dataclass(frozen=True)
class Position:
    """A benchmark position with its default depths for plies and for python-chess."""

    name: str
    fen: str
    depth: int
    peer_depth: int


POSITIONS = [
    Position("start", chess.STARTING_FEN, 6, 5),
    Position(
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        4,
    ),
]


@dataclass(frozen=True)
class Run:
    """One timed perft: who, how deep, how many nodes, how long."""

    engine: str
    depth: int
    nodes: int
    seconds: float
    """Wall-clock seconds."""
    cpu: float | None
    """CPU seconds of the counting process, when known."""

    @property
    def nps(self) -> float:
        """Nodes per CPU second (per wall second when CPU time is unknown)."""
        spent = self.cpu if self.cpu else self.seconds
        return self.nodes / spent if spent > 0 else float("inf")


def known_counts() -> dict[str, dict[int, int]]:
    """Published perft counts by FEN, from the test data."""
    counts: dict[str, dict[int, int]] = {}
    if not KNOWN_COUNTS.exists():
        return counts
    with open(KNOWN_COUNTS, encoding="ascii") as handle:
        for line in handle:
            fen, *fields = (part.strip() for part in line.strip().split(";"))
            if fen:
                counts[fen] = {int(f.split()[0][1:]): int(f.split()[1]) for f in fields}
    return counts


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft with bulk counting at the last ply."""
    return api_perft(board, depth, bulk=True)


def time_perft(engine: str, count: Callable[[], int], depth: int, repeat: int) -> Run:
    """Time ``count`` (a perft to ``depth``, compiled already); the best of ``repeat``."""
    runs = in_turn([lambda: clocked(count)], repeat)[0]
    fastest = runs.best(lambda c: c.cpu)
    return Run(engine, depth, fastest.value, fastest.wall, fastest.cpu)


def time_plies(fen: str, depth: int, repeat: int) -> Run:
    """Time plies.perft on a fresh board, best of ``repeat``."""
    from plies import Board, perft

    return time_perft("plies", lambda: perft(Board(fen), depth), depth, repeat)


def time_python_chess(fen: str, depth: int, repeat: int) -> Run:
    """Time the python-chess bulk-counting perft, best of ``repeat``."""
    return time_perft("python-chess", lambda: python_chess_perft(chess.Board(fen), depth),
                      depth, repeat)


class Stockfish:
    """A Stockfish process spoken to over UCI, used only for ``go perft``."""

    def __init__(self, path: str) -> None:
        """Start the engine and wait until it is ready."""
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._send("uci")
        self._read_until("uciok")
        self._send("isready")
        self._read_until("readyok")

    def _send(self, line: str) -> None:
        """Write one command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _read_until(self, prefix: str) -> str:
        """Read output lines until one starts with prefix; return it."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"stockfish ended before printing {prefix!r}")

    def perft(self, fen: str, depth: int) -> Run:
        """Time ``go perft depth`` from the given FEN."""
        self._send(f"position fen {fen}")
        self._send("isready")
        self._read_until("readyok")
        start, cpu = time.perf_counter(), process_cpu(self.proc.pid)
        self._send(f"go perft {depth}")
        line = self._read_until("Nodes searched:")
        seconds, end_cpu = time.perf_counter() - start, process_cpu(self.proc.pid)
        spent = None if cpu is None or end_cpu is None else end_cpu - cpu
        return Run("stockfish", depth, int(line.split(":")[1]), seconds, spent)

    def close(self) -> None:
        """Ask the engine to quit and reap it."""
        try:
            self._send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def plies_command() -> list[str]:
    """The ``plies`` console script if installed, else ``python -m plies``."""
    script = shutil.which("plies")
    return [script] if script else [sys.executable, "-m", "plies"]


def time_command(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run a command to completion; return its wall time, its CPU time and its stderr."""
    before = children_cpu()
    run = clocked(lambda: subprocess.run(command, capture_output=True, text=True, env=env,
                                         check=False))
    cpu = children_cpu() - before
    if run.value.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {run.value.stderr.strip()}")
    return run.wall, cpu, run.value.stderr


def human(number: float) -> str:
    """A node rate with an M or k suffix."""
    if number >= 1e6:
        return f"{number / 1e6:.2f} M"
    return f"{number / 1e3:.1f} k"


def print_run(position: str, run: Run, expected: int | None, base: Run | None) -> None:
    """One table row; the last column is plies' NPS divided by this run's NPS."""
    check = "" if expected is None else ("ok" if run.nodes == expected else f"WRONG ({expected})")
    ratio = "" if base is None else f"{base.nps / run.nps:8.2f}x"
    cpu = "?" if run.cpu is None else f"{run.cpu:.3f}"
    print(
        f"{position:<9} {run.engine:<13} {run.depth:>5} {run.nodes:>12,} {run.seconds:>8.3f} "
        f"{cpu:>8} {human(run.nps):>10}/s {ratio:>9}  {check}"
    )


def main() -> int:
    """Measure and print the perft table and the start-up times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, help="plies (and Stockfish) depth for every position")
    parser.add_argument("--peer-depth", type=int, help="python-chess depth for every position")
    parser.add_argument("--repeat", type=int, help="runs per measurement, best kept (default 2)")
    parser.add_argument("--quick", action="store_true", help="shallow, one run, no cold start")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")
    args = parser.parse_args()
    print(machine_line(), flush=True)

    repeat = max(1, args.repeat or (1 if args.quick else 2))
    counts = known_counts()
    imported = clocked(lambda: importlib.import_module("plies")).wall
    from plies import Board, perft

    first = clocked(lambda: perft(Board(), 2))  # compiles or loads the numba cache
    first_call, first_cpu = first.wall, first.cpu
    print(
        f"import plies: {imported:.3f} s; first perft call (compile or cache load): "
        f"{first_call:.3f} s wall, {first_cpu:.3f} s CPU; "
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
        f"load average {os.getloadavg()[0]:.2f}, best of {repeat}"
    )

    stockfish = Stockfish(STOCKFISH) if os.path.exists(STOCKFISH) else None
    summary: list[str] = []
    print(
        f"\n{'position':<9} {'engine':<13} {'depth':>5} {'nodes':>12} {'wall s':>8} "
        f"{'cpu s':>8} {'NPS (cpu)':>12} {'plies/it':>9}"
    )
    try:
        for pos in POSITIONS:
            depth = args.depth or (pos.depth - 1 if args.quick else pos.depth)
            peer_depth = args.peer_depth or (pos.peer_depth - 1 if args.quick else pos.peer_depth)
            peer_depth = min(peer_depth, depth)
            expected = counts.get(pos.fen, {})
            deep = time_plies(pos.fen, depth, repeat)
            print_run(pos.name, deep, expected.get(depth), None)
            same = time_plies(pos.fen, peer_depth, repeat) if peer_depth != depth else deep
            if same is not deep:
                print_run(pos.name, same, expected.get(peer_depth), None)
            peer = time_python_chess(pos.fen, peer_depth, repeat)
            print_run(pos.name, peer, expected.get(peer_depth), same)
            if stockfish is not None:
                sf = in_turn([lambda fen=pos.fen, d=depth: stockfish.perft(fen, d)],
                             repeat)[0].best(lambda run: run.nps, highest=True)
                print_run(pos.name, sf, expected.get(depth), deep)
                summary.append(
                    f"{pos.name} perft {depth}: plies {human(deep.nps)}/s, Stockfish "
                    f"{human(sf.nps)}/s per CPU second: plies/Stockfish = {deep.nps / sf.nps:.2f}"
                )
    finally:
        if stockfish is not None:
            stockfish.close()
    if stockfish is None:
        print(f"(no {STOCKFISH}: Stockfish row skipped)")
    print("plies/it = plies NPS at the same depth / that engine's NPS (both per CPU second)")
    for line in summary:
        print(line)

    command = [*plies_command(), "perft", "1"]
    time_command(command)  # make sure the cache is warm
    warm = in_turn([lambda: time_command(command)], 3)[0]
    wall, cpu = warm.timing(lambda w: w[0]), warm.timing(lambda w: w[1])
    print(f"\nwarm start `plies perft 1`: wall {wall.text()}; CPU median {cpu.median:.3f} s")
    if not (args.quick or args.no_cold):
        with tempfile.TemporaryDirectory(prefix="plies-numba-cache-") as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cold, cold_cpu, stderr = time_command(command, env)
            rewarm, _, _ = time_command(command, env)
        notice = stderr.strip().splitlines()[0] if stderr.strip() else "(nothing on stderr)"
        print(
            f"cold start (empty NUMBA_CACHE_DIR): wall {cold:.3f} s, CPU {cold_cpu:.3f} s, "
            f"then warm {rewarm:.3f} s wall; "
            f"stderr said: {notice}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
