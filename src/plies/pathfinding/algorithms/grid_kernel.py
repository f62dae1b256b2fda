"""Fast best-first search specialised to ``GridProblem``: UCS, greedy and A* on grids.

Same algorithm, ordering and tie-breaking as ``best_first_search``, so the
two expand the same cells in the same order; but this one works on integer
indices of the grid's padded layout, with flat lists for g and parents, a
bytearray closed set, a numpy-precomputed table of legal moves per cell (no
bounds or corner checks in the loop), and the heuristic computed from the
index only when a node is pushed.

The commonest case, A* on an unweighted grid with a consistent octile or
Manhattan heuristic, has its own loop (``_astar_unweighted``): it adds the
step cost once per expansion for all straight and once for all diagonal
moves, never reopens (consistency makes it pointless), and recovers the path
by walking down g instead of keeping parent pointers.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from plies.pathfinding.grid import SQRT2, Cell
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.heuristics import SQRT2_MINUS_2
from plies.pathfinding.result import SearchResult

from .best_first import REOPEN_EPSILON, TIE_SHIFT


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
    if (
        g_weight == 1.0
        and h_weight == 1.0
        and not grid.weighted
        and (problem.heuristic_name == "octile"
             or (problem.heuristic_name == "manhattan" and not grid.diagonal))
    ):
        return _astar_unweighted(problem, name, record)
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
    f0 = (h(start) + TIE_SHIFT) - TIE_SHIFT
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
                f = (f + TIE_SHIFT) - TIE_SHIFT
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


def _astar_unweighted(problem: GridProblem, name: str, record: bool) -> SearchResult[Cell]:
    """A* on an unweighted grid with a consistent octile or Manhattan heuristic.

    Expands exactly what ``grid_best_first`` would; the loop is duplicated for
    straight and diagonal moves so each adds its step cost once per expansion.
    """
    grid = problem.grid
    pfree, _ = grid.padded()
    masks, _ = grid.move_masks()
    moves = grid.split_moves()
    size = len(pfree)
    start = grid.to_padded(problem.initial)
    goal = grid.to_padded(problem.goal)
    pw = grid.padded_width
    gx, gy = goal % pw, goal // pw
    k = SQRT2_MINUS_2 if problem.heuristic_name == "octile" else 0.0
    sqrt2 = SQRT2
    shift = TIE_SHIFT
    inf = math.inf
    g = [inf] * size
    closed = bytearray(size)
    g[start] = 0.0
    dx, dy = abs(start % pw - gx), abs(start // pw - gy)
    f = ((dx + dy + k * (dx if dx < dy else dy)) + shift) - shift
    heap = [f]
    buckets: dict[float, list[int]] = {f: [start]}
    push = heapq.heappush
    pop = heapq.heappop
    open_count = 1
    max_frontier = 1
    order: list[int] = []
    expand = order.append
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
        expand(c)
        if c == goal:
            found = True
            break
        straight, diagonal = moves[masks[c]]
        gc = g[c]
        ng = gc + 1.0
        for off in straight:
            n = c + off
            old = g[n]
            if ng < old and not closed[n]:
                if old == inf:
                    open_count += 1
                g[n] = ng
                dx = n % pw - gx
                dy = n // pw - gy
                if dx < 0:
                    dx = -dx
                if dy < 0:
                    dy = -dy
                f = ((ng + (dx + dy + k * (dx if dx < dy else dy))) + shift) - shift
                bucket = buckets.get(f)  # type: ignore[assignment]
                if bucket is None:
                    buckets[f] = [n]
                    push(heap, f)
                else:
                    bucket.append(n)
        ng = gc + sqrt2
        for off in diagonal:
            n = c + off
            old = g[n]
            if ng < old and not closed[n]:
                if old == inf:
                    open_count += 1
                g[n] = ng
                dx = n % pw - gx
                dy = n // pw - gy
                if dx < 0:
                    dx = -dx
                if dy < 0:
                    dy = -dy
                f = ((ng + (dx + dy + k * (dx if dx < dy else dy))) + shift) - shift
                bucket = buckets.get(f)  # type: ignore[assignment]
                if bucket is None:
                    buckets[f] = [n]
                    push(heap, f)
                else:
                    bucket.append(n)
        if open_count > max_frontier:
            max_frontier = open_count
    expanded = len(order)
    cells_order = grid.lazy_cells(order if record else [])
    if not found:
        return SearchResult.failure(name, expanded, max_frontier, cells_order)
    path_idx = _walk_down(goal, start, g, closed, masks, moves)
    frontier: list[Cell] = []
    if record:
        waiting = {n for b in buckets.values() for n in b if not closed[n]}
        frontier = grid.cells_from_padded(sorted(waiting))
    return SearchResult(
        name, grid.cells_from_padded(path_idx), g[goal], expanded, max_frontier,
        cells_order, frontier,
    )


def _walk_down(
    goal: int,
    start: int,
    g: list[float],
    closed: bytearray,
    masks: bytes,
    moves: list[tuple[tuple[int, ...], tuple[int, ...]]],
) -> list[int]:
    """Start-to-goal path read off the g values: from the goal, step to an expanded
    neighbour whose g plus the step cost equals the current g exactly.

    Moves are symmetric, so the neighbours of a cell are its predecessors; the
    parent that set a cell's g always qualifies, because an expanded cell's g
    never changes afterwards.
    """
    path = [goal]
    c = goal
    while c != start:
        gc = g[c]
        straight, diagonal = moves[masks[c]]
        step: int | None = None
        for off in straight:
            p = c + off
            if closed[p] and g[p] + 1.0 == gc:
                step = p
                break
        if step is None:
            for off in diagonal:
                p = c + off
                if closed[p] and g[p] + SQRT2 == gc:
                    step = p
                    break
        if step is None:  # pragma: no cover - would mean a bookkeeping bug
            raise RuntimeError("A* path reconstruction lost its way")
        c = step
        path.append(c)
    path.reverse()
    return path
