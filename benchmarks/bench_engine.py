"""Search speed: ``plies bench`` nodes/second beside ``stockfish bench``, measured in one run.

Both benches search a fixed set of positions to a fixed depth on one thread
and print their own node count and nodes/second; this script runs them
alternately ``--repeat`` times (the machine is shared, so the best of each is
reported) and prints the two speeds and their ratio.  The node counts are
behaviour signatures: plies' must not change between runs of the same code.

Nodes are not equal across engines (Stockfish prunes far harder, and counts
differently), so the ratio compares raw search speed, not strength.

Two speeds are printed for each engine: the one the bench itself reports (nodes
per wall second) and nodes per CPU second of the process, which other load on
a shared machine does not inflate; the ratio is given for both. For plies the
CPU seconds are those of a child process from just after the compiled code is
loaded to the end of the bench (the bench's own engine set-up, a few
milliseconds, is included); for Stockfish they are the whole process's (its
start-up, well under a second's share, is included, which favours plies by
as much).

Usage: python benchmarks/bench_engine.py [--depth D] [--sf-depth D] [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from harness import STOCKFISH, bench_figures, children_cpu, clocked, in_turn, machine_line

_CPU = re.compile(r"CPU seconds\s*:\s*([0-9.]+)")

# Run in a child: load the compiled engine, then time ``run_bench`` in CPU seconds.
_PLIES_CHILD = """
import sys, time
from plies.engine import Engine
from plies.uci.bench import bench_lines, run_bench
Engine(1).warm_up()
cpu = time.process_time()
result = run_bench(int(sys.argv[1]))
cpu = time.process_time() - cpu
print("\\n".join(bench_lines(result)))
print(f"CPU seconds: {cpu:.4f}")
"""


@dataclass(frozen=True)
class BenchRun:
    """One bench: who, the node signature, the reported speed and the wall time."""

    engine: str
    nodes: int
    nps: int
    wall_s: float
    cpu_s: float
    """CPU seconds of the search (see the module docstring for what is included)."""

    @property
    def cpu_nps(self) -> float:
        """Nodes per CPU second."""
        return self.nodes / self.cpu_s if self.cpu_s > 0 else 0.0


def _parse(engine: str, text: str, wall_s: float, cpu_s: float) -> BenchRun:
    """Pull the node count and nodes/second out of a bench's output."""
    figures = bench_figures(text)
    if figures is None:
        raise RuntimeError(f"{engine} bench printed no totals:\n{text[-2000:]}")
    return BenchRun(engine, *figures, wall_s, cpu_s)


def run_plies(depth: int) -> BenchRun:
    """The bench (``run_bench``, as ``plies bench`` runs it) in a fresh process, code cached."""
    run = clocked(lambda: subprocess.run([sys.executable, "-c", _PLIES_CHILD, str(depth)],
                                         capture_output=True, text=True, check=False))
    proc = run.value
    if proc.returncode != 0:
        raise RuntimeError(f"plies bench failed: {proc.stderr.strip()[-2000:]}")
    cpu = _CPU.search(proc.stdout)
    if cpu is None:
        raise RuntimeError(f"plies bench printed no CPU time:\n{proc.stdout[-2000:]}")
    return _parse("plies", proc.stdout, run.wall, float(cpu.group(1)))


def run_stockfish(depth: int) -> BenchRun:
    """``stockfish bench 16 1 D`` (16 MB hash, one thread); its totals go to stderr."""
    cpu = children_cpu()
    run = clocked(lambda: subprocess.run([STOCKFISH, "bench", "16", "1", str(depth)],
                                         capture_output=True, text=True, check=False))
    proc = run.value
    if proc.returncode != 0:
        raise RuntimeError(f"stockfish bench failed: {proc.stderr.strip()[-500:]}")
    return _parse("stockfish", proc.stderr + proc.stdout, run.wall, children_cpu() - cpu)


def shown(run: BenchRun) -> BenchRun:
    """Print one run as it finishes and return it."""
    print(f"  {run.engine:<9} nodes {run.nodes:>11,}  {human(run.nps):>8}/s wall  "
          f"{human(run.cpu_nps):>8}/s CPU  (wall {run.wall_s:.1f} s, CPU {run.cpu_s:.2f} s)",
          flush=True)
    return run


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
    print(machine_line(), flush=True)
    have_sf = shutil.which(STOCKFISH) is not None
    print(f"plies bench: {len(BENCH_POSITIONS)} positions, depth {args.depth}, 16 MB, 1 thread")
    if have_sf:
        print(f"stockfish bench: its 47 positions, depth {args.sf_depth}, 16 MB, 1 thread")
    else:
        print(f"stockfish: {STOCKFISH} not found, plies only")
    measures = {"plies": lambda: shown(run_plies(args.depth))}
    if have_sf:
        measures["stockfish"] = lambda: shown(run_stockfish(args.sf_depth))
    runs = dict(zip(measures, in_turn(list(measures.values()), args.repeat), strict=True))
    signatures = {r.nodes for r in runs["plies"].results}
    if len(signatures) > 1:
        print(f"WARNING: plies node count differs between runs: {sorted(signatures)}")
    print()
    print(f"{'engine':<10} {'nodes':>12} {'best nodes/s (wall)':>20} {'best nodes/s (CPU)':>19}")
    best = {}
    for name, r in runs.items():
        cpu, wall = r.timing(lambda b: b.cpu_nps, True), r.timing(lambda b: b.nps, True)
        best[name] = (cpu.best, wall.best)
        print(f"{name:<10} {r.results[0].nodes:>12,} {human(wall.best):>18}/s "
              f"{human(cpu.best):>17}/s  (load {cpu.load:.1f})")
    if "stockfish" in best:
        (cpu, wall), (sf_cpu, sf_wall) = best["plies"], best["stockfish"]
        print(
            f"ratio plies/stockfish: {cpu / sf_cpu:.3f} per CPU second "
            f"(the figure to quote on a shared machine), {wall / sf_wall:.3f} per wall second"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
