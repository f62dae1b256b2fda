"""Search speed: ``plies bench`` nodes/second beside ``stockfish bench``, measured in one run.

Both benches search a fixed set of positions to a fixed depth on one thread
and print their own node count and nodes/second; this script runs them
alternately ``--repeat`` times (the machine is shared, so the best of each is
reported) and prints the two speeds and their ratio.  The node counts are
behaviour signatures: plies' must not change between runs of the same code.

Nodes are not equal across engines (Stockfish prunes far harder, and counts
differently), so the ratio compares raw search speed, not strength.

Usage: python benchmarks/bench_engine.py [--depth D] [--sf-depth D] [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

STOCKFISH = "/usr/games/stockfish"

_NODES = re.compile(r"Nodes searched\s*:\s*(\d+)")
_NPS = re.compile(r"Nodes/second\s*:\s*(\d+)")


@dataclass(frozen=True)
class BenchRun:
    """One bench: who, the node signature, the reported speed and the wall time."""

    engine: str
    nodes: int
    nps: int
    wall_s: float


def _parse(engine: str, text: str, wall_s: float) -> BenchRun:
    """Pull ``Nodes searched`` and ``Nodes/second`` out of a bench's output."""
    nodes = _NODES.search(text)
    nps = _NPS.search(text)
    if nodes is None or nps is None:
        raise RuntimeError(f"{engine} bench printed no totals:\n{text[-2000:]}")
    return BenchRun(engine, int(nodes.group(1)), int(nps.group(1)), wall_s)


def plies_command() -> list[str]:
    """The ``plies`` console script if installed, else ``python -m plies``."""
    script = shutil.which("plies")
    return [script] if script else [sys.executable, "-m", "plies"]


def run_plies(depth: int) -> BenchRun:
    """``plies bench --depth D --quiet`` in a fresh process (compilation is cached and excluded)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [*plies_command(), "bench", "--depth", str(depth), "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"plies bench failed: {proc.stderr.strip()}")
    return _parse("plies", proc.stdout, wall)


def run_stockfish(depth: int) -> BenchRun:
    """``stockfish bench 16 1 D`` (16 MB hash, one thread); its totals go to stderr."""
    start = time.perf_counter()
    proc = subprocess.run(
        [STOCKFISH, "bench", "16", "1", str(depth)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"stockfish bench failed: {proc.stderr.strip()[-500:]}")
    return _parse("stockfish", proc.stderr + proc.stdout, wall)


def human(nps: float) -> str:
    """A node rate with an M or k suffix."""
    return f"{nps / 1e6:.2f} M" if nps >= 1e6 else f"{nps / 1e3:.0f} k"


def main() -> int:
    """Run both benches alternately and print the best speed of each and the ratio."""
    from plies.uci.bench import BENCH_POSITIONS, DEFAULT_DEPTH

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="plies bench depth")
    p.add_argument("--sf-depth", type=int, default=11, help="stockfish bench depth (default 11)")
    p.add_argument("--repeat", type=int, default=2, help="runs of each, best kept (default 2)")
    args = p.parse_args()
    have_sf = shutil.which(STOCKFISH) is not None
    print(f"plies bench: {len(BENCH_POSITIONS)} positions, depth {args.depth}, 16 MB, 1 thread")
    if have_sf:
        print(f"stockfish bench: its 47 positions, depth {args.sf_depth}, 16 MB, 1 thread")
    else:
        print(f"stockfish: {STOCKFISH} not found, plies only")
    runs: dict[str, list[BenchRun]] = {"plies": [], "stockfish": []}
    for i in range(args.repeat):
        for name in ("plies", "stockfish"):
            if name == "stockfish" and not have_sf:
                continue
            run = run_plies(args.depth) if name == "plies" else run_stockfish(args.sf_depth)
            runs[name].append(run)
            print(
                f"  run {i + 1}: {name:<9} nodes {run.nodes:>11,}  {human(run.nps):>8}/s  "
                f"(wall {run.wall_s:.1f} s)",
                flush=True,
            )
    signatures = {r.nodes for r in runs["plies"]}
    if len(signatures) > 1:
        print(f"WARNING: plies node count differs between runs: {sorted(signatures)}")
    best_plies = max(runs["plies"], key=lambda r: r.nps)
    print()
    print(f"{'engine':<10} {'nodes':>12} {'best nodes/s':>14}")
    print(f"{'plies':<10} {best_plies.nodes:>12,} {human(best_plies.nps):>12}/s")
    if runs["stockfish"]:
        best_sf = max(runs["stockfish"], key=lambda r: r.nps)
        print(f"{'stockfish':<10} {best_sf.nodes:>12,} {human(best_sf.nps):>12}/s")
        print(f"ratio plies/stockfish: {best_plies.nps / best_sf.nps:.3f} "
              f"(stockfish is {best_sf.nps / best_plies.nps:.1f}x faster per node)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
