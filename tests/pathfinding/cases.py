"""What the path-finding tests share: the data folder, generated grids, start/goal pairs."""

from __future__ import annotations

import random
from pathlib import Path

from plies.pathfinding import Grid, backtracker_maze, kruskal_maze, prim_maze, random_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "pathfinding"
"""The folder of path-finding test files."""


def grid_cases() -> list[tuple[str, Grid]]:
    """Generated grids: random obstacles at several densities, mazes, weights; 4 and 8 moves."""
    cases: list[tuple[str, Grid]] = []
    rng = random.Random(11)
    for i in range(12):
        w, h = rng.randint(4, 18), rng.randint(4, 14)
        density = rng.choice([0.0, 0.1, 0.25, 0.35, 0.45])
        for diagonal in (False, True):
            cases.append((f"random{i}-{density}-{diagonal}",
                          random_grid(w, h, density, seed=i, diagonal=diagonal)))
    for i, build in enumerate((backtracker_maze, prim_maze, kruskal_maze)):
        cases.append((f"maze{i}", build(15, 11, i, False)))
        cases.append((f"maze{i}-diag", build(15, 11, i, True)))
    for i in range(4):
        base = random_grid(10, 8, 0.2, seed=50 + i, diagonal=bool(i % 2))
        weights = [rng.choice([1.0, 1.0, 2.0, 3.5, 9.0]) for _ in range(base.size)]
        cases.append((f"weighted{i}", Grid(10, 8, base.to_array().ravel().tolist(), weights,
                                          base.diagonal)))
    return cases


def endpoints(grid: Grid, seed: int, count: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Random start/goal pairs of free cells (reachable or not)."""
    cells = grid.free_cells()
    rng = random.Random(seed)
    return [(rng.choice(cells), rng.choice(cells)) for _ in range(count)] if cells else []
