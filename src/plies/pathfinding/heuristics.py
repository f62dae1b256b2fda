"""Distance estimates for A* and greedy search: Manhattan, octile, Euclidean and zero.

Each takes the absolute coordinate differences ``dx, dy``.  On a grid with
unit weights Manhattan is exact for 4-connected moves; octile is exact for
8-connected moves without obstacles; Euclidean never overestimates either;
zero turns A* into uniform-cost search.  Manhattan overestimates on an
8-connected grid (a diagonal costs sqrt(2) < 2), so A* with it may return a
longer path there: ``admissible`` says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from plies.pathfinding.errors import PathfindingError

SQRT2_MINUS_2 = math.sqrt(2.0) - 2.0

Heuristic = Callable[[float, float], float]


def manhattan(dx: float, dy: float) -> float:
    """City-block distance: ``dx + dy``."""
    return dx + dy


def octile(dx: float, dy: float) -> float:
    """8-connected distance: ``max + (sqrt(2) - 1) * min``."""
    return dx + dy + SQRT2_MINUS_2 * (dx if dx < dy else dy)


def euclidean(dx: float, dy: float) -> float:
    """Straight-line distance."""
    return math.sqrt(dx * dx + dy * dy)


def zero(dx: float, dy: float) -> float:
    """No information: always 0."""
    return 0.0


HEURISTICS: dict[str, Heuristic] = {
    "manhattan": manhattan,
    "octile": octile,
    "euclidean": euclidean,
    "zero": zero,
}


def get_heuristic(name: str) -> Heuristic:
    """The heuristic called ``name``; a one-line error lists the choices otherwise."""
    try:
        return HEURISTICS[name]
    except KeyError:
        choices = ", ".join(HEURISTICS)
        raise PathfindingError(f"unknown heuristic {name!r} (choose from {choices})") from None


def default_grid_heuristic(diagonal: bool) -> str:
    """The tightest admissible heuristic for a grid: octile with diagonals, else Manhattan."""
    return "octile" if diagonal else "manhattan"


def admissible_on_grid(name: str, diagonal: bool) -> bool:
    """True when heuristic ``name`` never overestimates on a grid with these moves."""
    get_heuristic(name)
    return not (diagonal and name == "manhattan")
