"""Search algorithms for path finding, and a registry of them by name."""

from __future__ import annotations

from .best_first import (
    astar_search,
    best_first_search,
    greedy_best_first_search,
    uniform_cost_search,
)
from .bidirectional import bidirectional_search
from .breadth_first import breadth_first_search
from .depth_first import depth_first_search
from .iterative_deepening import iterative_deepening_search
from .jump_point import jump_point_search
from .registry import (
    ALGORITHMS,
    Algorithm,
    get_algorithm,
    guarantees_optimal_cost,
    run_algorithm,
    select,
    unsupported,
)

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "astar_search",
    "best_first_search",
    "bidirectional_search",
    "breadth_first_search",
    "depth_first_search",
    "get_algorithm",
    "greedy_best_first_search",
    "guarantees_optimal_cost",
    "iterative_deepening_search",
    "jump_point_search",
    "run_algorithm",
    "select",
    "uniform_cost_search",
    "unsupported",
]
