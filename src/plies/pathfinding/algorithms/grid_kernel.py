"""Fast best-first search specialised to ``GridProblem``: UCS, greedy and A* on grids.

Same algorithm, ordering and tie-breaking as ``best_first_search``, so the
two expand the same cells in the same order; but this one works on integer
indices of the grid's padded layout, with flat lists for g and parents, a
bytearray closed set, a numpy-precomputed table of legal moves per cell (no
bounds or corner checks in the loop), and the heuristic computed from the
index only when a node is pushed.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from plies.pathfinding.grid import Cell
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.heuristics import SQRT2_MINUS_2
from plies.pathfinding.result import SearchResult

from .best_first import REOPEN_EPSILON


def index_heuristic(problem: GridProblem, goal: int, scale: float) -> Callable[[int], float]:
    """The problem's heuristic as a function of a padded index, multiplied by ``scale``."""
    pw = problem.grid.padded_width
    gx, gy = goal % pw, goal // pw
    name = problem.heuristic_name
    if scale == 0.0 or name == "zero":
        return lambda i: 0.0
    if name == "manhattan":

        def h_manhattan(i: int) -> float:
            """Scaled Manhattan distance to the goal."""
            return scale * (abs(i % pw - gx) + abs(i // pw - gy))

        return h_manhattan
    if name == "octile":
        k = SQRT2_MINUS_2

        def h_octile(i: int) -> float:
            """Scaled octile distance to the goal."""
            dx = abs(i % pw - gx)
            dy = abs(i // pw - gy)
            return scale * (dx + dy + k * (dx if dx < dy else dy))

        return h_octile

    def h_euclidean(i: int) -> float:
        """Scaled straight-line distance to the goal."""
        return scale * math.hypot(i % pw - gx, i // pw - gy)

    return h_euclidean


def grid_best_first(
    problem: GridProblem,
    g_weight: float,
    h_weight: float,
    name: str,
    reopen: bool = True,
    record: bool = True,
) -> SearchResult[Cell]:
    """Best-first search on a grid with priority ``g_weight * g + h_weight * h``."""
    grid = problem.grid
    pfree, weights = grid.padded()
    masks, table = grid.move_masks()
    size = len(pfree)
    start = grid.to_padded(problem.initial)
    goal = grid.to_padded(problem.goal)
    h = index_heuristic(problem, goal, h_weight * problem.heuristic_scale)
    # The hot loop inlines octile (k = sqrt(2) - 2) and Manhattan (k = 0) as
    # one formula; only Euclidean pays a function call.
    pw = grid.padded_width
    gx, gy = goal % pw, goal // pw
    hs = h_weight * problem.heuristic_scale
    if problem.heuristic_name == "zero":
        hs = 0.0
    k = SQRT2_MINUS_2 if problem.heuristic_name == "octile" else 0.0
    euclid = problem.heuristic_name == "euclidean" and hs != 0.0
    weighted = grid.weighted
    inf = math.inf
    g = [inf] * size
    parent = [-1] * size
    closed = bytearray(size)
    g[start] = 0.0
    # Priorities live in a heap of distinct floats; each maps to a LIFO list
    # of nodes, so among equal priorities the newest (deepest) node goes first.
    f0 = h(start)
    heap = [f0]
    buckets: dict[float, list[int]] = {f0: [start]}
    push = heapq.heappush
    pop = heapq.heappop
    eps = REOPEN_EPSILON
    open_count = 1
    max_frontier = 1
    expanded = 0
    order: list[int] = []
    found = False
    while heap:
        f = heap[0]
        bucket = buckets[f]
        c = bucket.pop()
        if not bucket:
            del buckets[f]
            pop(heap)
        if closed[c]:
            continue
        closed[c] = 1
        open_count -= 1
        expanded += 1
        if record:
            order.append(c)
        if c == goal:
            found = True
            break
        gc = g[c]
        for off, step in table[masks[c]]:
            n = c + off
            ng = gc + step * weights[n] if weighted else gc + step
            old = g[n]
            if ng < old:
                if closed[n]:
                    if not reopen or ng >= old - eps * (1.0 + old):
                        continue
                    closed[n] = 0
                    open_count += 1
                elif old == inf:
                    open_count += 1
                g[n] = ng
                parent[n] = c
                if euclid:
                    f = g_weight * ng + h(n)
                else:
                    dx = n % pw - gx
                    dy = n // pw - gy
                    if dx < 0:
                        dx = -dx
                    if dy < 0:
                        dy = -dy
                    f = g_weight * ng + hs * (dx + dy + k * (dx if dx < dy else dy))
                bucket = buckets.get(f)  # type: ignore[assignment]
                if bucket is None:
                    buckets[f] = [n]
                    push(heap, f)
                else:
                    bucket.append(n)
        if open_count > max_frontier:
            max_frontier = open_count
    cells_order = grid.lazy_cells(order)
    if not found:
        return SearchResult.failure(name, expanded, max_frontier, cells_order)
    path_idx = [goal]
    while path_idx[-1] != start:
        path_idx.append(parent[path_idx[-1]])
    path_idx.reverse()
    frontier: list[Cell] = []
    if record:
        waiting = {n for b in buckets.values() for n in b if not closed[n]}
        frontier = grid.cells_from_padded(sorted(waiting))
    return SearchResult(
        name,
        grid.cells_from_padded(path_idx),
        g[goal],
        expanded,
        max_frontier,
        cells_order,
        frontier,
    )
