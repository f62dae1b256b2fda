"""Uniform-cost search (Dijkstra's algorithm): best-first by path cost g; always optimal."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import best_first_search
from .engine import run_compiled, use_compiled

S = TypeVar("S", bound=Hashable)


def uniform_cost_search(
    problem: Problem[S, Any], record: bool = True, engine: str = "auto"
) -> SearchResult[S]:
    """Find a cheapest path by expanding nodes in order of path cost.

    Grid problems run on the compiled kernel unless ``engine`` is "python".
    """
    if use_compiled(problem, engine):
        return run_compiled("ucs", problem, record)  # type: ignore[arg-type, return-value]
    return best_first_search(problem, 1.0, 0.0, "ucs", True, record)
