"""Generators: seeded, sized as asked, and perfect mazes really are perfect."""

from __future__ import annotations

import networkx as nx
import pytest

from plies.pathfinding import (
    MAZE_METHODS,
    Grid,
    PathfindingError,
    perfect_maze,
    random_grid,
)
from plies.pathfinding.endpoints import components, default_endpoints


def cell_graph(grid: Grid) -> nx.Graph:
    """4-connected adjacency of the free cells."""
    g = nx.Graph()
    for x, y in grid.free_cells():
        g.add_node((x, y))
        for nxt in ((x + 1, y), (x, y + 1)):
            if grid.is_free(nxt):
                g.add_edge((x, y), nxt)
    return g


@pytest.mark.parametrize("method", MAZE_METHODS)
@pytest.mark.parametrize(("w", "h"), [(3, 3), (15, 9), (20, 12), (41, 21)])
def test_perfect_mazes_are_spanning_trees(method: str, w: int, h: int) -> None:
    grid = perfect_maze(w, h, method, seed=3)
    assert (grid.width, grid.height) == (w, h)
    g = cell_graph(grid)
    assert nx.is_tree(g)
    rooms = ((w - 1) // 2) * ((h - 1) // 2)
    assert sum(1 for x, y in g.nodes if x % 2 == 1 and y % 2 == 1) == rooms
    # Borders stay walls.
    assert all(not grid.is_free((x, 0)) and not grid.is_free((x, h - 1)) for x in range(w))


@pytest.mark.parametrize("method", MAZE_METHODS)
def test_mazes_are_seeded(method: str) -> None:
    assert perfect_maze(21, 15, method, seed=1) == perfect_maze(21, 15, method, seed=1)
    assert perfect_maze(21, 15, method, seed=1) != perfect_maze(21, 15, method, seed=2)


def test_random_grid_density_seed_and_kept_cells() -> None:
    grid = random_grid(200, 100, 0.3, seed=5, keep_free=((0, 0), (199, 99)))
    blocked = 1 - grid.count_free() / grid.size
    assert 0.27 < blocked < 0.33
    assert grid.is_free((0, 0)) and grid.is_free((199, 99))
    assert grid == random_grid(200, 100, 0.3, seed=5, keep_free=((0, 0), (199, 99)))
    assert random_grid(5, 5, 0.0).count_free() == 25
    assert random_grid(5, 5, 1.0).count_free() == 0


def test_generator_errors() -> None:
    with pytest.raises(PathfindingError, match="density must be between 0 and 1"):
        random_grid(5, 5, 1.5)
    with pytest.raises(PathfindingError, match="at least 3x3"):
        perfect_maze(2, 9)
    with pytest.raises(PathfindingError, match="unknown maze method 'wilson'"):
        perfect_maze(9, 9, "wilson")


def test_default_endpoints_lie_in_the_largest_region() -> None:
    grid = random_grid(30, 20, 0.35, seed=3, diagonal=True)
    start, goal = default_endpoints(grid)
    region = set(grid.cells_from_padded(components(grid)[0]))
    assert start in region and goal in region
    with pytest.raises(PathfindingError, match="no free cell"):
        default_endpoints(random_grid(4, 4, 1.0))
