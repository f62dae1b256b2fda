"""Jump point search (JPS) for 8-connected grids without corner cutting.

A* that exploits the symmetry of grid paths: from each node it only follows
the moves that some optimal path could need ("pruned neighbours") and jumps
along straight and diagonal lines until it meets the goal or a cell where
another direction becomes necessary (a "forced neighbour").  Only those jump
points go on the open list, so far fewer nodes are expanded than by A*, with
the same optimal cost.

This is the variant for the no-corner-cutting rule used here and by the
Moving AI benchmarks: a diagonal step needs both orthogonal neighbours free.
Under that rule a diagonal move never has forced neighbours; a straight move
east from ``p`` to ``n`` forces ``n``'s north (and north-east) neighbour when
the cell north of ``p`` is blocked and the one north of ``n`` is free, and
likewise for the other sides.  A diagonal jump stops where one of its two
straight sub-jumps finds a jump point.  Unit weights only.
"""

from __future__ import annotations

import itertools

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import SQRT2, Cell
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.heuristics import SQRT2_MINUS_2
from plies.pathfinding.result import SearchResult

from .engine import run_compiled, use_compiled
from .open_list import OpenList, relax

NAME = "jps"


def _sign(v: int) -> int:
    """-1, 0 or 1 as ``v`` is negative, zero or positive."""
    return (v > 0) - (v < 0)


def jump_point_search(
    problem: GridProblem, record: bool = True, engine: str = "auto"
) -> SearchResult[Cell]:
    """Find a cheapest path on an 8-connected unweighted grid by jump point search.

    Runs the compiled kernel unless ``engine`` is "python".
    """
    grid = problem.grid
    if not grid.diagonal or grid.weighted:
        raise PathfindingError("jump point search needs an 8-connected grid without cell weights")
    if use_compiled(problem, engine):
        return run_compiled(NAME, problem, record)
    free, _ = grid.padded()
    pw = grid.padded_width
    start = grid.to_padded(problem.initial)
    goal = grid.to_padded(problem.goal)
    gx, gy = goal % pw, goal // pw
    k = SQRT2_MINUS_2

    def straight(c: int, d: int, side: int) -> int:
        """Jump from ``c`` by offset ``d``; ``side`` is the perpendicular offset; -1 if none."""
        while True:
            n = c + d
            if not free[n]:
                return -1
            if n == goal:
                return n
            if (free[n - side] and not free[c - side]) or (free[n + side] and not free[c + side]):
                return n
            c = n

    def diagonal(c: int, dx: int, dy: int) -> int:
        """Jump diagonally from ``c`` in direction (dx, dy); -1 if nothing is found."""
        d = dx + dy * pw
        oy = dy * pw
        while True:
            n = c + d
            if not (free[n] and free[c + dx] and free[c + oy]):
                return -1
            if n == goal or straight(n, dx, pw) >= 0 or straight(n, oy, 1) >= 0:
                return n
            c = n

    def jump(c: int, dx: int, dy: int) -> int:
        """Jump from ``c`` in direction (dx, dy); the jump point reached, or -1."""
        if dx and dy:
            return diagonal(c, dx, dy)
        if dx:
            return straight(c, dx, pw)
        return straight(c, dy * pw, 1)

    def directions(c: int, p: int) -> list[tuple[int, int]]:
        """The pruned set of directions to jump in from ``c``, reached from parent ``p``."""
        if p < 0:
            return [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]
        dx = _sign(c % pw - p % pw)
        dy = _sign(c // pw - p // pw)
        if dx and dy:
            return [(dx, 0), (0, dy), (dx, dy)]
        out = [(dx, dy)]
        if dx:
            back = c - dx
            for sy in (-1, 1):
                if free[c + sy * pw] and not free[back + sy * pw]:
                    out += [(0, sy), (dx, sy)]
        else:
            back = c - dy * pw
            for sx in (-1, 1):
                if free[c + sx] and not free[back + sx]:
                    out += [(sx, 0), (sx, dy)]
        return out

    def h(i: int) -> float:
        """Octile distance to the goal."""
        dx = abs(i % pw - gx)
        dy = abs(i // pw - gy)
        return dx + dy + k * (dx if dx < dy else dy)

    g: dict[int, float] = {start: 0.0}
    parent: dict[int, int] = {start: -1}
    closed: set[int] = set()
    waiting = OpenList(h(start), start)
    max_frontier = 1
    expanded = 0
    order: list[int] = []
    found = False
    for c in waiting.expansions(closed):
        expanded += 1
        if record:
            order.append(c)
        if c == goal:
            found = True
            break
        gc = g[c]
        cx, cy = c % pw, c // pw
        for dx, dy in directions(c, parent[c]):
            n = jump(c, dx, dy)
            if n < 0:
                continue
            ddx = abs(n % pw - cx)
            ddy = abs(n // pw - cy)
            # Segments are straight or exactly diagonal, so this is their length.
            ng = gc + (SQRT2 * ddx if ddx and ddy else float(ddx + ddy))
            if relax(g, parent, closed, c, n, ng, True):
                waiting.push(ng + h(n), n)
        max_frontier = max(max_frontier, len(g) - len(closed))
    cells_order = grid.lazy_cells(order)
    if not found:
        return SearchResult.failure(NAME, expanded, max_frontier, cells_order)
    points = [goal]
    while points[-1] != start:
        points.append(parent[points[-1]])
    points.reverse()
    path = [start]
    for a, b in itertools.pairwise(points):
        step = _sign(b % pw - a % pw) + _sign(b // pw - a // pw) * pw
        while path[-1] != b:
            path.append(path[-1] + step)
    frontier: list[Cell] = []
    if record:
        frontier = grid.cells_from_padded(sorted(s for s in g if s not in closed))
    return SearchResult(
        NAME, grid.cells_from_padded(path), g[goal], expanded, max_frontier, cells_order, frontier
    )
