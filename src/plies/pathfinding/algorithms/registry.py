"""The algorithms by name: what each guarantees, what it needs, and a timed runner."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .best_first import astar_search, greedy_best_first_search, uniform_cost_search
from .bidirectional import bidirectional_search
from .breadth_first import breadth_first_search
from .depth_first import depth_first_search
from .engine import check_engine
from .iterative_deepening import iterative_deepening_search
from .jump_point import jump_point_search

#: Default cap on iterative deepening's total expansions, so "all" stays bounded.
IDDFS_BUDGET = 500_000

Runner = Callable[[Problem[Any, Any], bool, str], SearchResult[Any]]


@dataclass(frozen=True)
class Algorithm:
    """A search algorithm: its name, a title for tables, and its guarantee.

    ``optimal`` is "cost" (cheapest path), "steps" (fewest moves) or "" (none).
    """

    name: str
    title: str
    optimal: str
    run: Runner


def _jps(problem: Problem[Any, Any], record: bool, engine: str) -> SearchResult[Any]:
    """Jump point search, for grid problems only."""
    if not isinstance(problem, GridProblem):
        raise PathfindingError("jump point search works on grids only")
    return jump_point_search(problem, record, engine)


def _bidir(problem: Problem[Any, Any], record: bool, engine: str) -> SearchResult[Any]:
    """Bidirectional uniform-cost search."""
    return bidirectional_search(problem, record, False, engine)


def _bidir_astar(problem: Problem[Any, Any], record: bool, engine: str) -> SearchResult[Any]:
    """Bidirectional A* with balanced potentials."""
    return bidirectional_search(problem, record, True, engine)


def _iddfs(problem: Problem[Any, Any], record: bool, engine: str) -> SearchResult[Any]:
    """Iterative deepening with the default expansion budget (Python only)."""
    check_engine(engine)
    return iterative_deepening_search(problem, max_expansions=IDDFS_BUDGET, record=record)


def _dfs(problem: Problem[Any, Any], record: bool, engine: str) -> SearchResult[Any]:
    """Depth-first search (Python only)."""
    check_engine(engine)
    return depth_first_search(problem, record)


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm("dfs", "depth-first", "", _dfs),
        Algorithm("bfs", "breadth-first", "steps", breadth_first_search),
        Algorithm("iddfs", "iterative deepening", "steps", _iddfs),
        Algorithm("ucs", "uniform cost", "cost", uniform_cost_search),
        Algorithm("greedy", "greedy best-first", "", greedy_best_first_search),
        Algorithm("astar", "A*", "cost", astar_search),
        Algorithm("bidirectional", "bidirectional", "cost", _bidir),
        Algorithm("bidir-astar", "bidirectional A*", "cost", _bidir_astar),
        Algorithm("jps", "jump point search", "cost", _jps),
    )
}

ALIASES = {
    "dijkstra": "ucs",
    "a*": "astar",
    "a-star": "astar",
    "bidir": "bidirectional",
    "bidirectional-astar": "bidir-astar",
    "bidir-a*": "bidir-astar",
    "ids": "iddfs",
    "best-first": "greedy",
}


def get_algorithm(name: str) -> Algorithm:
    """The algorithm called ``name`` (or an alias); a one-line error lists the choices."""
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return ALGORITHMS[key]
    except KeyError:
        choices = ", ".join(ALGORITHMS)
        raise PathfindingError(f"unknown algorithm {name!r} (choose from {choices})") from None


def select(spec: str) -> list[Algorithm]:
    """Algorithms named by ``spec``: "all", one name, or names separated by commas."""
    if spec.strip().lower() == "all":
        return list(ALGORITHMS.values())
    return [get_algorithm(part.strip()) for part in spec.split(",") if part.strip()]


def unsupported(algorithm: Algorithm, problem: Problem[Any, Any]) -> str | None:
    """Why ``algorithm`` cannot run on ``problem``, or None when it can."""
    if algorithm.name == "jps":
        if not isinstance(problem, GridProblem):
            return "grids only"
        if not problem.grid.diagonal:
            return "needs diagonal moves"
        if problem.grid.weighted:
            return "needs unweighted cells"
    return None


def guarantees_optimal_cost(algorithm: Algorithm, problem: Problem[Any, Any]) -> bool:
    """True when ``algorithm`` must return a cheapest path on ``problem``."""
    if algorithm.optimal == "cost":
        if algorithm.name in ("astar", "bidir-astar") and isinstance(problem, GridProblem):
            return problem.heuristic_admissible
        return True
    if algorithm.optimal == "steps" and isinstance(problem, GridProblem):
        return not problem.grid.diagonal and not problem.grid.weighted
    return False


def run_algorithm(
    algorithm: Algorithm | str,
    problem: Problem[Any, Any],
    record: bool = True,
    engine: str = "auto",
) -> SearchResult[Any]:
    """Run ``algorithm`` on ``problem`` and return its result with ``time_s`` filled in.

    ``engine`` picks the compiled grid kernels or the readable Python (see ``engine.py``);
    DFS and iterative deepening exist in Python only and ignore it.
    """
    alg = get_algorithm(algorithm) if isinstance(algorithm, str) else algorithm
    reason = unsupported(alg, problem)
    if reason is not None:
        raise PathfindingError(f"{alg.name}: {reason}")
    t0 = time.perf_counter()
    result = alg.run(problem, record, engine)
    result.time_s = time.perf_counter() - t0
    result.problem = problem
    return result
