"""Greedy best-first search: always expand the node that looks closest to the goal.

Fast when the heuristic is good, but the path it returns is not always the
cheapest.  Closed nodes are never reopened.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .grid_kernel import grid_best_first

S = TypeVar("S", bound=Hashable)


def greedy_best_first_search(
    problem: Problem[S, Any], record: bool = True, generic: bool = False
) -> SearchResult[S]:
    """Find a path by expanding nodes in order of heuristic value alone.

    Grid problems run on the fast grid kernel unless ``generic`` is True.
    """
    if isinstance(problem, GridProblem) and not generic:
        return grid_best_first(problem, 0.0, 1.0, "greedy", False, record)  # type: ignore[return-value]
    return best_first_search(problem, 0.0, 1.0, "greedy", False, record)
