"""Checks that a path is really a path: contiguous, legal moves only, correct cost."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence

from plies.pathfinding.graph import Graph
from plies.pathfinding.grid import Cell, Grid


def grid_path_problems(grid: Grid, path: Sequence[Cell], start: Cell, goal: Cell) -> list[str]:
    """Everything wrong with ``path`` on ``grid`` (empty when it is a valid start-goal path)."""
    problems: list[str] = []
    if not path:
        return ["empty path"]
    if path[0] != start:
        problems.append(f"path starts at {path[0]}, not {start}")
    if path[-1] != goal:
        problems.append(f"path ends at {path[-1]}, not {goal}")
    for cell in path:
        if not grid.is_free(cell):
            problems.append(f"cell {cell} is blocked or off the grid")
    for a, b in itertools.pairwise(path):
        move = (b[0] - a[0], b[1] - a[1])
        if max(abs(move[0]), abs(move[1])) != 1:
            problems.append(f"{a} -> {b} is not a single move")
        elif move[0] and move[1] and not grid.diagonal:
            problems.append(f"{a} -> {b} is diagonal on a 4-connected grid")
        elif not grid.can_move(a, move):
            problems.append(f"{a} -> {b} cuts a corner")
    return problems


def grid_path_cost(grid: Grid, path: Sequence[Cell]) -> float:
    """The cost of ``path`` on ``grid`` (sum of step costs; no legality check)."""
    return math.fsum(grid.step_cost(a, b) for a, b in itertools.pairwise(path))


def graph_path_problems(
    graph: Graph, path: Sequence[Hashable], start: Hashable, goal: Hashable
) -> list[str]:
    """Everything wrong with ``path`` in ``graph`` (empty when it is a valid path)."""
    if not path:
        return ["empty path"]
    problems: list[str] = []
    if path[0] != start:
        problems.append(f"path starts at {path[0]!r}, not {start!r}")
    if path[-1] != goal:
        problems.append(f"path ends at {path[-1]!r}, not {goal!r}")
    for a, b in itertools.pairwise(path):
        if a not in graph or b not in graph.successors(a):
            problems.append(f"no edge {a!r} -> {b!r}")
    return problems


def graph_path_cost(graph: Graph, path: Sequence[Hashable]) -> float:
    """The cost of ``path`` in ``graph``."""
    return math.fsum(graph.weight(a, b) for a, b in itertools.pairwise(path))
