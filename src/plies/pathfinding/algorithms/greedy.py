"""Greedy best-first search: always expand the node that looks closest to the goal.

Fast when the heuristic is good, but the path it returns is not always the
cheapest.  Closed nodes are never reopened.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .engine import run_compiled, use_compiled

S = TypeVar("S", bound=Hashable)


def greedy_best_first_search(
    problem: Problem[S, Any], record: bool = True, engine: str = "auto"
) -> SearchResult[S]:
    """Find a path by expanding nodes in order of heuristic value alone.

    Grid problems run on the compiled kernel unless ``engine`` is "python".
    """
    if use_compiled(problem, engine):
        return run_compiled("greedy", problem, record)  # type: ignore[arg-type, return-value]
    return best_first_search(problem, 0.0, 1.0, "greedy", False, record)
