"""Grid path finding at compiled speed: plies beside pyastar2d, networkx and itself.

Three parts, each measured in this run, on the project's own seeded grids:

1. ``pyastar2d``: A* on a 4-connected unit-cost random grid (default 512 x 512,
   25 % blocked) against the C++ extension ``pyastar2d`` on the same queries;
   path costs must be equal (target: plies at least as fast).
2. ``networkx``: A* on the 8-connected grid without corner cutting against
   networkx ``astar_path`` with the same octile heuristic (target: >= 50x).
3. ``jps``: jump point search against plies' compiled A* on open maps -- an
   empty grid and sparse random obstacles (target: JPS >= 5x faster).

Queries are far apart (at least half the grid) in the largest region.  Each
side runs every query ``--repeats`` times, alternating, and keeps its fastest
total; wall time and CPU time are both shown (CPU time is steadier on a busy
machine).  The compiled kernels are warmed up (compiled or loaded from the
cache) before timing; the warm-up is printed apart.

    python benchmarks/bench_astar.py [--part all|pyastar2d|networkx|jps] [--size 512]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

import numpy as np

from harness import clocked, in_turn, machine_line
from plies.pathfinding import Grid, GridProblem, random_grid
from plies.pathfinding.compiled import searcher_for
from plies.pathfinding.endpoints import components
from plies.pathfinding.heuristics import SQRT2_MINUS_2

Query = tuple[tuple[int, int], tuple[int, int]]


def pick_queries(grid: Grid, count: int, seed: int) -> list[Query]:
    """``count`` start/goal pairs in the largest region, at least half the grid apart."""
    region = grid.cells_from_padded(components(grid)[0])
    rng = random.Random(seed)
    far = max(grid.width, grid.height) // 2
    out: list[Query] = []
    while len(out) < count:
        a, b = rng.choice(region), rng.choice(region)
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= far:
            out.append((a, b))
    return out


def best_of(repeats: int, *runs: Callable[[], object]) -> list[tuple[float, float]]:
    """Fastest (wall, CPU) seconds of each run over ``repeats`` rounds in turn."""
    timed = in_turn([lambda run=run: clocked(run) for run in runs], repeats)
    return [(r.timing(lambda c: c.wall).best, r.timing(lambda c: c.cpu).best) for r in timed]


def endpoints(queries: list[Query]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The queries' starts and goals, as the batch call takes them."""
    return [a for a, _ in queries], [b for _, b in queries]


def lines(names: tuple[str, ...], times: list[tuple[float, float]], count: int) -> None:
    """One result line per run: per-query wall and CPU time."""
    for name, (wall, cpu) in zip(names, times, strict=True):
        print(f"  {name:<34} {wall / count * 1e3:9.3f} ms/query wall "
              f"{cpu / count * 1e3:9.3f} ms/query CPU")


def ratio(label: str, ours: tuple[float, float], theirs: tuple[float, float],
          target: float) -> None:
    """Print theirs / ours for wall and CPU time, and the target."""
    wall, cpu = theirs[0] / ours[0], theirs[1] / ours[1]
    verdict = "met" if min(wall, cpu) >= target else "NOT met"
    print(f"  {label}: {wall:.2f}x wall, {cpu:.2f}x CPU (target >= {target:g}x: {verdict})")


def warm(grid: Grid, algorithm: str, queries: list[Query]) -> float:
    """Run one query to compile or load the kernel; return the seconds it took."""
    return clocked(lambda: searcher_for(grid).batch(algorithm, [queries[0][0]],
                                                    [queries[0][1]])).wall


def part_pyastar2d(size: int, density: float, count: int, repeats: int, seed: int) -> bool:
    """plies A* against pyastar2d on a 4-connected unit-cost grid."""
    try:
        import pyastar2d
        from pyastar2d.astar import astar as raw_astar
    except ImportError:
        print("\n[pyastar2d] not installed (pip install -e '.[bench]'): part skipped")
        return True
    grid = random_grid(size, size, density, seed, diagonal=False)
    queries = pick_queries(grid, count, seed)
    print(f"\n[pyastar2d] {size}x{size} random grid, density {density:g}, 4-connected, unit "
          f"cost, Manhattan; {count} queries (plies warm-up {warm(grid, 'astar', queries):.2f} s)")
    searcher = searcher_for(grid)
    starts, goals = endpoints(queries)
    weights = np.where(grid.to_array(), 1.0, np.inf).astype(np.float32)
    flat = weights.flatten()
    h, w = weights.shape

    def ours_batch() -> object:
        """All queries in one compiled call."""
        return searcher.batch("astar", starts, goals)

    def ours_single() -> object:
        """One public call per query (GridProblem + astar_search, no recording)."""
        from plies.pathfinding import astar_search

        return [astar_search(GridProblem(grid, a, b), record=False) for a, b in queries]

    def theirs_public() -> object:
        """pyastar2d.astar_path per query, (row, column) coordinates."""
        return [pyastar2d.astar_path(weights, (a[1], a[0]), (b[1], b[0])) for a, b in queries]

    def theirs_raw() -> object:
        """The extension function itself on a pre-flattened array (no per-call copy)."""
        return [raw_astar(flat, h, w, a[1] * w + a[0], b[1] * w + b[0], False, 0)
                for a, b in queries]

    ours = searcher.batch("astar", starts, goals)
    their_costs = [len(p) - 1 for p in theirs_public()]
    equal = bool(np.array_equal(ours.costs, np.array(their_costs, dtype=float)))
    times = best_of(repeats, ours_batch, ours_single, theirs_public, theirs_raw)
    print(f"  mean nodes expanded by plies: {ours.expanded.mean():,.0f}; path costs equal: "
          f"{equal}")
    lines(("plies GridSearcher.batch", "plies astar_search (per call)", "pyastar2d.astar_path",
           "pyastar2d extension, raw"), times, count)
    ratio("plies batch vs pyastar2d.astar_path", times[0], times[2], 1.0)
    ratio("plies batch vs pyastar2d raw extension", times[0], times[3], 1.0)
    ratio("plies astar_search vs pyastar2d.astar_path", times[1], times[2], 1.0)
    return equal


def networkx_graph(grid: Grid) -> object:
    """The grid as a networkx graph on (x, y) nodes, built from the problem's moves."""
    import networkx as nx

    g = nx.Graph()
    cells = grid.free_cells()
    g.add_nodes_from(cells)
    problem = GridProblem(grid, cells[0], cells[0])
    for cell in cells:
        for _, nxt, cost in problem.successors(cell):
            g.add_edge(cell, nxt, weight=cost)
    return g


def part_networkx(size: int, density: float, count: int, repeats: int, seed: int) -> bool:
    """plies A* against networkx astar_path on an 8-connected grid without corner cutting."""
    import networkx as nx

    grid = random_grid(size, size, density, seed, diagonal=True)
    queries = pick_queries(grid, count, seed)
    graph = networkx_graph(grid)
    print(f"\n[networkx] {size}x{size} random grid, density {density:g}, 8-connected, no corner "
          f"cutting, octile; {count} queries (plies warm-up {warm(grid, 'astar', queries):.2f} s)")
    searcher = searcher_for(grid)
    starts, goals = endpoints(queries)

    def octile(a: tuple[int, int], b: tuple[int, int]) -> float:
        """The same heuristic plies uses."""
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        return dx + dy + SQRT2_MINUS_2 * (dx if dx < dy else dy)

    def theirs() -> list[float]:
        """networkx astar_path per query, and the path's weight."""
        return [nx.path_weight(graph, nx.astar_path(graph, a, b, heuristic=octile,
                                                    weight="weight"), "weight")
                for a, b in queries]

    ours = searcher.batch("astar", starts, goals)
    equal = bool(np.allclose(ours.costs, theirs(), atol=1e-9))
    times = best_of(repeats, lambda: searcher.batch("astar", starts, goals), theirs)
    print(f"  mean nodes expanded by plies: {ours.expanded.mean():,.0f}; path costs equal: "
          f"{equal}")
    lines(("plies GridSearcher.batch", "networkx astar_path"), times, count)
    ratio("plies vs networkx", times[0], times[1], 50.0)
    return equal


def part_jps(size: int, count: int, repeats: int, seed: int) -> bool:
    """Compiled JPS against compiled A* on open maps (empty and sparse obstacles)."""
    print(f"\n[jps] {size}x{size} open maps, 8-connected, octile; {count} queries each")
    ok = True
    for label, density in (("empty", 0.0), ("1% blocked", 0.01), ("5% blocked", 0.05)):
        grid = (Grid(size, size, diagonal=True) if density == 0.0
                else random_grid(size, size, density, seed, diagonal=True))
        queries = pick_queries(grid, count, seed)
        warm(grid, "astar", queries)
        warm(grid, "jps", queries)
        searcher = searcher_for(grid)
        starts, goals = endpoints(queries)
        astar = searcher.batch("astar", starts, goals)
        jps = searcher.batch("jps", starts, goals)
        equal = bool(np.allclose(astar.costs, jps.costs, atol=1e-9))
        ok = ok and equal
        times = best_of(repeats, lambda s=searcher, a=starts, b=goals: s.batch("astar", a, b),
                        lambda s=searcher, a=starts, b=goals: s.batch("jps", a, b))
        print(f" {label}: expanded A* {astar.expanded.mean():,.0f}, JPS "
              f"{jps.expanded.mean():,.0f}; costs equal: {equal}")
        lines(("plies A*", "plies JPS"), times, count)
        ratio("JPS vs A*", times[1], times[0], 5.0)
    return ok


def main(argv: list[str] | None = None) -> int:
    """Parse the options and run the chosen parts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("all", "pyastar2d", "networkx", "jps"), default="all")
    ap.add_argument("--size", type=int, default=512, help="grid side (default 512)")
    ap.add_argument("--density", type=float, default=0.25, help="obstacle probability")
    ap.add_argument("--queries", type=int, default=20, help="start/goal pairs (default 20)")
    ap.add_argument("--nx-queries", type=int, default=5,
                    help="queries for the slow networkx part (default 5)")
    ap.add_argument("--repeats", type=int, default=5, help="best of N rounds (default 5)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    print(machine_line(), flush=True)
    ok = True
    if args.part in ("all", "pyastar2d"):
        ok = part_pyastar2d(args.size, args.density, args.queries, args.repeats, args.seed) and ok
    if args.part in ("all", "networkx"):
        ok = part_networkx(args.size, args.density, args.nx_queries, min(args.repeats, 3),
                           args.seed) and ok
    if args.part in ("all", "jps"):
        ok = part_jps(args.size, args.queries, args.repeats, args.seed) and ok
    if not ok:
        print("ERROR: some path costs disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
