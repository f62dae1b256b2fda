"""Path finding over JSON: grids from rows, generated mazes or Moving AI maps, searches with
their expansion order, for the page to replay step by step."""

from __future__ import annotations

import math
from typing import Any

from plies.pathfinding import (
    ALGORITHMS,
    MAZE_METHODS,
    Grid,
    GridProblem,
    PathfindingError,
    get_algorithm,
    parse_map,
    perfect_maze,
    random_grid,
    run_algorithm,
    unsupported,
)
from plies.web.errors import ApiError
from plies.web.fields import get_bool, get_cell, get_choice, get_int, get_str

#: Largest grid side the page may send or ask for: a Moving AI map of 512 x 512 fits,
#: and the expansion order of a full search of it is still an answer of a few MB.
MAX_SIDE = 512
WALL = "#"
FREE = "."
#: Algorithms the page offers (iterative deepening is left out: on open grids it
#: expands millions of nodes before it finds anything).
OFFERED = ("bfs", "dfs", "ucs", "greedy", "astar", "bidirectional", "jps")
KINDS = ("maze", "random")
#: Menu titles where the library's title is not the name people look for.
_TITLES = {"ucs": "Dijkstra (uniform cost)"}


def options() -> dict[str, Any]:
    """What the page can choose from: algorithms (name and title) and maze methods."""
    return {
        "algorithms": [{"name": n, "title": _TITLES.get(n, ALGORITHMS[n].title)} for n in OFFERED],
        "mazes": list(MAZE_METHODS),
        "max_side": MAX_SIDE,
    }


def grid_json(grid: Grid) -> dict[str, Any]:
    """A grid as the page draws it: width, height and rows of ``#`` and ``.``."""
    return {"width": grid.width, "height": grid.height, "rows": grid.rows(WALL, FREE)}


def generate(data: dict[str, Any]) -> dict[str, Any]:
    """A generated grid: a perfect maze by one of the methods, or random walls."""
    kind = get_choice(data, "kind", KINDS, "maze")
    width = get_int(data, "width", 3, MAX_SIDE, 41)
    height = get_int(data, "height", 3, MAX_SIDE, 25)
    seed = get_int(data, "seed", 0, 2**31 - 1, 1)
    try:
        if kind == "maze":
            method = get_choice(data, "method", MAZE_METHODS, MAZE_METHODS[0])
            grid = perfect_maze(width, height, method, seed)
        else:
            density = get_int(data, "density", 0, 90, 30) / 100.0
            grid = random_grid(width, height, density, seed)
    except PathfindingError as exc:
        raise ApiError(str(exc)) from None
    return grid_json(grid)


def load_map_text(data: dict[str, Any]) -> dict[str, Any]:
    """A Moving AI ``.map`` file's grid (sent as text)."""
    text = get_str(data, "text")
    try:
        grid = parse_map(text, "uploaded map")
    except PathfindingError as exc:
        raise ApiError(str(exc)) from None
    if grid.width > MAX_SIDE or grid.height > MAX_SIDE:
        raise ApiError(
            f"map is {grid.width}x{grid.height}; the page draws at most {MAX_SIDE}x{MAX_SIDE}"
        )
    return grid_json(grid)


def read_grid(data: dict[str, Any]) -> Grid:
    """The grid of a request: ``rows`` of ``#`` (wall) and ``.`` (free), and ``diagonal``."""
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise ApiError("'rows' must be a non-empty list of strings of '#' and '.'")
    if len(rows) > MAX_SIDE or any(len(r) > MAX_SIDE for r in rows):
        raise ApiError(f"the grid may be at most {MAX_SIDE}x{MAX_SIDE}")
    if any(set(r) - {WALL, FREE} for r in rows):
        raise ApiError("grid rows may only hold '#' (wall) and '.' (free)")
    diagonal = get_bool(data, "diagonal", False)
    try:
        return Grid.from_rows(rows, diagonal=diagonal, wall=WALL)
    except PathfindingError as exc:
        raise ApiError(str(exc)) from None


def search(data: dict[str, Any]) -> dict[str, Any]:
    """Run one algorithm from start to goal; path, cost, counts and expansion order."""
    grid = read_grid(data)
    start = get_cell(data, "start", grid.width, grid.height)
    goal = get_cell(data, "goal", grid.width, grid.height)
    for name, cell in (("start", start), ("goal", goal)):
        if not grid.is_free(cell):
            raise ApiError(f"the {name} {cell[0]},{cell[1]} is a wall")
    name = get_choice(data, "algorithm", OFFERED, "astar")
    algorithm = get_algorithm(name)
    problem = GridProblem(grid, start, goal)
    reason = unsupported(algorithm, problem)
    if reason is not None:
        raise ApiError(f"{algorithm.title}: {reason}")
    try:
        result = run_algorithm(algorithm, problem, record=True)
    except PathfindingError as exc:
        raise ApiError(str(exc)) from None
    return {
        "algorithm": name,
        "title": algorithm.title,
        "found": result.found,
        "status": result.status,
        "path": [list(c) for c in result.path] if result.path is not None else None,
        "steps": result.steps,
        "cost": None if math.isinf(result.cost) else round(result.cost, 6),
        "expanded": result.expanded,
        "max_frontier": result.max_frontier,
        "order": [y * grid.width + x for x, y in result.expansion_order],
        "frontier": [y * grid.width + x for x, y in result.frontier],
        "time_ms": round(result.time_s * 1000, 3),
    }
