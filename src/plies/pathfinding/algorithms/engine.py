"""Which implementation runs a search: the compiled grid kernels or the readable Python.

``"auto"`` (the default) runs grid problems on the compiled kernels and
everything else in Python; ``"python"`` always runs the readable version
(what the pictures and step-by-step explanations are written against);
``"compiled"`` insists on the kernels and refuses problems that are not
grids.  Both record the same exploration, so pictures look the same.
"""

from __future__ import annotations

from typing import Any

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import Cell
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

ENGINES = ("auto", "compiled", "python")


def check_engine(engine: str) -> None:
    """Raise a one-line error unless ``engine`` is one of ``ENGINES``."""
    if engine not in ENGINES:
        raise PathfindingError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")


def use_compiled(problem: Problem[Any, Any], engine: str) -> bool:
    """True when ``problem`` should run on the compiled kernels under ``engine``."""
    check_engine(engine)
    if engine == "python":
        return False
    if isinstance(problem, GridProblem):
        return True
    if engine == "compiled":
        raise PathfindingError("the compiled engine works on grid problems only")
    return False


def run_compiled(name: str, problem: GridProblem, record: bool) -> SearchResult[Cell]:
    """Run the compiled ``name`` on ``problem`` with the grid's shared searcher."""
    from plies.pathfinding.compiled import searcher_for  # loads numba: only when asked for

    searcher = searcher_for(problem.grid)
    return searcher.run(name, problem.initial, problem.goal, problem.heuristic_name, record)
