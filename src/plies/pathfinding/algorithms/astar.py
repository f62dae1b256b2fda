"""A* search: best-first by ``g + h``; optimal with an admissible heuristic."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .grid_kernel import grid_best_first

S = TypeVar("S", bound=Hashable)


def astar_search(
    problem: Problem[S, Any], record: bool = True, generic: bool = False
) -> SearchResult[S]:
    """Find a cheapest path with A* using the problem's heuristic.

    Grid problems run on the fast grid kernel unless ``generic`` is True.
    """
    if isinstance(problem, GridProblem) and not generic:
        return grid_best_first(problem, 1.0, 1.0, "astar", True, record)  # type: ignore[return-value]
    return best_first_search(problem, 1.0, 1.0, "astar", True, record)
