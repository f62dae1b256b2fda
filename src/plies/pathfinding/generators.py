"""Seeded grid generators: random obstacles and perfect mazes.

A perfect maze has exactly one path between any two free cells.  Rooms sit
at odd coordinates and the cells between two rooms are passages or walls,
so a W x H grid holds ((W-1)//2) x ((H-1)//2) rooms; with even sizes the
last column or row stays wall.  Three classic constructions: the recursive
backtracker (long winding corridors), randomised Prim (many short dead
ends) and randomised Kruskal (uniform-looking, via union-find).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import Cell, Grid

MAZE_METHODS = ("backtracker", "prim", "kruskal")


def random_grid(
    width: int,
    height: int,
    density: float,
    seed: int | None = None,
    diagonal: bool = False,
    keep_free: tuple[Cell, ...] = (),
) -> Grid:
    """A grid whose cells are blocked independently with probability ``density``."""
    if not 0.0 <= density <= 1.0:
        raise PathfindingError(f"density must be between 0 and 1, got {density}")
    if width < 1 or height < 1:
        raise PathfindingError(f"grid size must be at least 1x1, got {width}x{height}")
    rng = np.random.default_rng(seed)
    free = rng.random((height, width)) >= density
    for x, y in keep_free:
        if 0 <= x < width and 0 <= y < height:
            free[y, x] = True
    return Grid.from_array(free, diagonal=diagonal)


def _rooms(width: int, height: int) -> tuple[int, int]:
    """Number of rooms across and down; error when the grid is too small for a maze."""
    if width < 3 or height < 3:
        raise PathfindingError(f"a maze needs at least 3x3 cells, got {width}x{height}")
    return (width - 1) // 2, (height - 1) // 2


def _to_grid(width: int, height: int, open_cells: set[Cell], diagonal: bool) -> Grid:
    """A grid whose free cells are ``open_cells``."""
    free = bytearray(width * height)
    for x, y in open_cells:
        free[y * width + x] = 1
    return Grid(width, height, free, diagonal=diagonal)


def _room_neighbours(room: Cell, rw: int, rh: int) -> list[Cell]:
    """Rooms next to ``room`` in room coordinates."""
    x, y = room
    out = []
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < rw and 0 <= ny < rh:
            out.append((nx, ny))
    return out


def _carve(open_cells: set[Cell], a: Cell, b: Cell) -> None:
    """Open rooms ``a`` and ``b`` (room coordinates) and the passage between them."""
    ax, ay = 2 * a[0] + 1, 2 * a[1] + 1
    bx, by = 2 * b[0] + 1, 2 * b[1] + 1
    open_cells.update({(ax, ay), (bx, by), ((ax + bx) // 2, (ay + by) // 2)})


def _maze(
    width: int,
    height: int,
    seed: int | None,
    diagonal: bool,
    passages: Callable[[int, int, random.Random], set[Cell]],
) -> Grid:
    """The grid of the cells ``passages`` opens in a ``width`` x ``height`` maze of rooms."""
    rw, rh = _rooms(width, height)
    return _to_grid(width, height, passages(rw, rh, random.Random(seed)), diagonal)


def _start_room(rw: int, rh: int, rng: random.Random) -> tuple[Cell, set[Cell]]:
    """A random room to grow the maze from, and the set of open cells holding it."""
    start = (rng.randrange(rw), rng.randrange(rh))
    return start, {(2 * start[0] + 1, 2 * start[1] + 1)}


def _backtracker_passages(rw: int, rh: int, rng: random.Random) -> set[Cell]:
    """The open cells of a recursive backtracker's maze of ``rw`` x ``rh`` rooms."""
    start, open_cells = _start_room(rw, rh, rng)
    visited = {start}
    stack = [start]
    while stack:
        room = stack[-1]
        options = [r for r in _room_neighbours(room, rw, rh) if r not in visited]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        _carve(open_cells, room, nxt)
        visited.add(nxt)
        stack.append(nxt)
    return open_cells


def _prim_passages(rw: int, rh: int, rng: random.Random) -> set[Cell]:
    """The open cells of a randomised Prim maze of ``rw`` x ``rh`` rooms."""
    start, open_cells = _start_room(rw, rh, rng)
    in_maze = {start}
    frontier = list(dict.fromkeys(_room_neighbours(start, rw, rh)))
    queued = set(frontier)
    while frontier:
        i = rng.randrange(len(frontier))
        frontier[i], frontier[-1] = frontier[-1], frontier[i]
        room = frontier.pop()
        links = [r for r in _room_neighbours(room, rw, rh) if r in in_maze]
        _carve(open_cells, rng.choice(links), room)
        in_maze.add(room)
        for r in _room_neighbours(room, rw, rh):
            if r not in in_maze and r not in queued:
                queued.add(r)
                frontier.append(r)
    return open_cells


def _kruskal_passages(rw: int, rh: int, rng: random.Random) -> set[Cell]:
    """The open cells of a randomised Kruskal maze of ``rw`` x ``rh`` rooms."""
    parent = list(range(rw * rh))

    def find(i: int) -> int:
        """Root of ``i``'s tree, halving the path on the way."""
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    walls = [((x, y), (x + 1, y)) for y in range(rh) for x in range(rw - 1)]
    walls += [((x, y), (x, y + 1)) for y in range(rh - 1) for x in range(rw)]
    rng.shuffle(walls)
    open_cells = {(2 * x + 1, 2 * y + 1) for y in range(rh) for x in range(rw)}
    for a, b in walls:
        ra, rb = find(a[1] * rw + a[0]), find(b[1] * rw + b[0])
        if ra != rb:
            parent[ra] = rb
            _carve(open_cells, a, b)
    return open_cells


def backtracker_maze(
    width: int, height: int, seed: int | None = None, diagonal: bool = False
) -> Grid:
    """A perfect maze by the recursive backtracker (randomised depth-first search)."""
    return _maze(width, height, seed, diagonal, _backtracker_passages)


def prim_maze(width: int, height: int, seed: int | None = None, diagonal: bool = False) -> Grid:
    """A perfect maze by randomised Prim: grow one tree from a random frontier room."""
    return _maze(width, height, seed, diagonal, _prim_passages)


def kruskal_maze(width: int, height: int, seed: int | None = None, diagonal: bool = False) -> Grid:
    """A perfect maze by randomised Kruskal: knock down walls that join two separate trees."""
    return _maze(width, height, seed, diagonal, _kruskal_passages)


MAZES: dict[str, Callable[[int, int, int | None, bool], Grid]] = {
    "backtracker": backtracker_maze,
    "prim": prim_maze,
    "kruskal": kruskal_maze,
}


def perfect_maze(
    width: int,
    height: int,
    method: str = "backtracker",
    seed: int | None = None,
    diagonal: bool = False,
) -> Grid:
    """A perfect maze built by ``method`` (one of ``MAZE_METHODS``)."""
    try:
        build = MAZES[method]
    except KeyError:
        raise PathfindingError(
            f"unknown maze method {method!r} (choose from {', '.join(MAZE_METHODS)})"
        ) from None
    return build(width, height, seed, diagonal)
