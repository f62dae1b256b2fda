"""A* search: best-first by ``g + h``; optimal with an admissible heuristic."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .engine import run_compiled, use_compiled

S = TypeVar("S", bound=Hashable)


def astar_search(
    problem: Problem[S, Any], record: bool = True, engine: str = "auto"
) -> SearchResult[S]:
    """Find a cheapest path with A* using the problem's heuristic.

    Grid problems run on the compiled kernel unless ``engine`` is "python".
    """
    if use_compiled(problem, engine):
        return run_compiled("astar", problem, record)  # type: ignore[arg-type, return-value]
    return best_first_search(problem, 1.0, 1.0, "astar", True, record)
