"""A* on a large grid: plies against networkx's ``astar_path`` on the same grid graph.

Builds a seeded random-obstacle grid (default 512 x 512, 25 % blocked), the
equal networkx graph (8-connected: diagonals cost sqrt(2) and may not cut a
corner; or 4-connected), picks far-apart start/goal pairs in the largest
connected region, and times both searches on every pair, best of a few
repeats, alternating so machine load hits both alike.  Checks the two costs
agree, then prints both times and the ratio (target: plies >= 5x faster).

    python benchmarks/bench_astar.py [--size 512] [--density 0.25] [--queries 5]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

import networkx as nx

from plies.pathfinding import Grid, GridProblem, astar_search, jump_point_search, random_grid
from plies.pathfinding.endpoints import components
from plies.pathfinding.heuristics import SQRT2_MINUS_2


def networkx_graph(grid: Grid) -> nx.Graph:
    """The grid as a networkx graph on (x, y) nodes with the same moves and costs.

    Built from ``GridProblem.successors`` (each legal move, corner rule
    included); ``tests/pathfinding`` checks those moves against a direct
    construction.
    """
    g = nx.Graph()
    cells = grid.free_cells()
    g.add_nodes_from(cells)
    if not cells:
        return g
    problem = GridProblem(grid, cells[0], cells[0])
    for cell in cells:
        for _, nxt, cost in problem.successors(cell):
            g.add_edge(cell, nxt, weight=cost)
    return g


def octile_between(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Octile distance between two (x, y) nodes."""
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return dx + dy + SQRT2_MINUS_2 * (dx if dx < dy else dy)


def manhattan_between(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Manhattan distance between two (x, y) nodes."""
    return float(abs(a[0] - b[0]) + abs(a[1] - b[1]))


def pick_queries(grid: Grid, count: int, seed: int) -> list[tuple[tuple[int, int], ...]]:
    """``count`` start/goal pairs in the largest region, at least half the grid apart."""
    region = grid.cells_from_padded(components(grid)[0])
    rng = random.Random(seed)
    far = max(grid.width, grid.height) // 2
    out: list[tuple[tuple[int, int], ...]] = []
    while len(out) < count:
        a, b = rng.choice(region), rng.choice(region)
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= far:
            out.append((a, b))
    return out


def timed(fn: Callable[[], float]) -> tuple[float, float, float]:
    """Wall time and CPU time of one call of ``fn``, and the cost it returned."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    cost = fn()
    return time.perf_counter() - t0, time.process_time() - c0, cost


def bench(grid: Grid, queries: list[tuple[tuple[int, int], ...]], repeats: int) -> bool:
    """Time plies A*, plies JPS and networkx on every query; print the table; True if all agree."""
    t0 = time.perf_counter()
    grid.move_masks()
    our_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    g = networkx_graph(grid)
    nx_build = time.perf_counter() - t0
    # networkx gets the same heuristic as plies, written inline so it pays
    # for no extra function call.
    nx_heuristic = octile_between if grid.diagonal else manhattan_between

    moves = "8-connected, octile" if grid.diagonal else "4-connected, Manhattan"
    print(f"\n{grid.width}x{grid.height} grid, {grid.count_free():,} free cells, {moves}")
    print(
        f"setup: plies move table {our_build * 1e3:.1f} ms, "
        f"networkx graph {nx_build * 1e3:.0f} ms (not in the times below)"
    )
    print(
        f"{'query':<24}{'cost':>10}{'expanded':>10}{'plies A*':>12}{'networkx':>12}"
        f"{'ratio':>8}{'plies JPS':>12}"
    )
    total_ours = total_nx = total_jps = cpu_ours = cpu_nx = 0.0
    agree = True
    for start, goal in queries:
        problem = GridProblem(grid, start, goal)
        ours = theirs = jps = our_cpu = their_cpu = math.inf
        cost_ours = cost_nx = cost_jps = math.nan
        expanded = 0
        for _ in range(repeats):
            t, c, cost_ours = timed(lambda p=problem: astar_search(p).cost)
            ours, our_cpu = min(ours, t), min(our_cpu, c)
            t, c, cost_nx = timed(
                lambda s=start, e=goal: nx.path_weight(
                    g, nx.astar_path(g, s, e, heuristic=nx_heuristic, weight="weight"), "weight"
                )
            )
            theirs, their_cpu = min(theirs, t), min(their_cpu, c)
            if grid.diagonal:
                t, _, cost_jps = timed(lambda p=problem: jump_point_search(p).cost)
                jps = min(jps, t)
        cpu_ours += our_cpu
        cpu_nx += their_cpu
        expanded = astar_search(problem, record=False).expanded
        ok = abs(cost_ours - cost_nx) < 1e-6
        ok = ok and (not grid.diagonal or abs(cost_jps - cost_nx) < 1e-6)
        agree = agree and ok
        total_ours += ours
        total_nx += theirs
        total_jps += jps if grid.diagonal else 0.0
        name = f"{start[0]},{start[1]} -> {goal[0]},{goal[1]}"
        jps_text = f"{jps * 1e3:9.1f} ms" if grid.diagonal else f"{'-':>12}"
        print(
            f"{name:<24}{cost_ours:>10.3f}{expanded:>10,}{ours * 1e3:9.1f} ms"
            f"{theirs * 1e3:9.1f} ms{theirs / ours:7.1f}x{jps_text}"
            + ("" if ok else "   COST MISMATCH")
        )
    jps_total = f"{total_jps * 1e3:9.1f} ms" if grid.diagonal else f"{'-':>12}"
    print(
        f"{'total':<44}{total_ours * 1e3:9.1f} ms{total_nx * 1e3:9.1f} ms"
        f"{total_nx / total_ours:7.1f}x{jps_total}"
    )
    print(
        f"plies A* {total_ours:.3f} s, networkx astar_path {total_nx:.3f} s: "
        f"plies is {total_nx / total_ours:.1f}x faster (target >= 5x)"
    )
    print(
        f"CPU time (steadier on a busy machine): plies {cpu_ours:.3f} s, "
        f"networkx {cpu_nx:.3f} s, ratio {cpu_nx / cpu_ours:.1f}x"
    )
    return agree


def main(argv: list[str] | None = None) -> int:
    """Parse the options and run the benchmark for each connectivity."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=512, help="grid side (default 512)")
    ap.add_argument("--density", type=float, default=0.25, help="obstacle probability")
    ap.add_argument("--queries", type=int, default=5, help="start/goal pairs (default 5)")
    ap.add_argument("--repeats", type=int, default=5, help="best of N runs each (default 5)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--moves", choices=("8", "4", "both"), default="both")
    args = ap.parse_args(argv)
    ok = True
    for diagonal in {"8": (True,), "4": (False,), "both": (True, False)}[args.moves]:
        grid = random_grid(args.size, args.size, args.density, args.seed, diagonal)
        queries = pick_queries(grid, args.queries, args.seed)
        grid = random_grid(args.size, args.size, args.density, args.seed, diagonal)  # cold
        ok = bench(grid, queries, args.repeats) and ok
    if not ok:
        print("ERROR: plies and networkx disagree on some cost", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
