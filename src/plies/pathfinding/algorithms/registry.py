"""The algorithms by name, on :class:`plies.registry.Registry`: what each guarantees,
what it needs, and a timed runner."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult
from plies.registry import Registry, RegistryError

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


#: The path-finding algorithms by name (and by their other names: dijkstra, a*...).
PATH_ALGORITHMS: Registry[Algorithm] = Registry("algorithm")


def _register(name: str, title: str, optimal: str, run: Runner, *aliases: str) -> None:
    """Register the algorithm ``name``; its help line is its title."""
    PATH_ALGORITHMS.add(name, Algorithm(name, title, optimal, run), title, aliases=aliases)


_register("dfs", "depth-first", "", _dfs)
_register("bfs", "breadth-first", "steps", breadth_first_search)
_register("iddfs", "iterative deepening", "steps", _iddfs, "ids")
_register("ucs", "uniform cost", "cost", uniform_cost_search, "dijkstra")
_register("greedy", "greedy best-first", "", greedy_best_first_search, "best-first")
_register("astar", "A*", "cost", astar_search, "a*", "a-star")
_register("bidirectional", "bidirectional", "cost", _bidir, "bidir")
_register("bidir-astar", "bidirectional A*", "cost", _bidir_astar, "bidirectional-astar",
          "bidir-a*")
_register("jps", "jump point search", "cost", _jps)



class _ByName(Mapping[str, Algorithm]):
    """The registry's algorithms by their own names, read-only and always up to date."""

    def __getitem__(self, name: str) -> Algorithm:
        """The algorithm registered as ``name`` (its own name, not an alias)."""
        if name not in PATH_ALGORITHMS.builtin_names():
            raise KeyError(name)
        return PATH_ALGORITHMS.make(name)

    def __iter__(self) -> Iterator[str]:
        """The names, in registration order."""
        return iter(PATH_ALGORITHMS.builtin_names())

    def __len__(self) -> int:
        """How many algorithms are registered."""
        return len(PATH_ALGORITHMS.builtin_names())


#: Every algorithm by its name, in the registry's order (read-only).
ALGORITHMS: Mapping[str, Algorithm] = _ByName()


def get_algorithm(name: str) -> Algorithm:
    """The algorithm called ``name`` (or an alias); a one-line error lists the choices."""
    try:
        return PATH_ALGORITHMS.make(name)
    except RegistryError as exc:
        raise PathfindingError(str(exc)) from None


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
