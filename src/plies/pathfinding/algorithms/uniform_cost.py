"""Uniform-cost search (Dijkstra's algorithm): best-first by path cost g; always optimal."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .grid_kernel import grid_best_first

S = TypeVar("S", bound=Hashable)


def uniform_cost_search(
    problem: Problem[S, Any], record: bool = True, generic: bool = False
) -> SearchResult[S]:
    """Find a cheapest path by expanding nodes in order of path cost.

    Grid problems run on the fast grid kernel unless ``generic`` is True.
    """
    if isinstance(problem, GridProblem) and not generic:
        return grid_best_first(problem, 1.0, 0.0, "ucs", True, record)  # type: ignore[return-value]
    return best_first_search(problem, 1.0, 0.0, "ucs", True, record)
