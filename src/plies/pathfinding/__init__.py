"""Path finding on grids and graphs: problems, loaders, generators, searches and pictures.

Typical use::

    from plies.pathfinding import GridProblem, load_map, run_algorithm
    grid = load_map("arena.map")
    result = run_algorithm("astar", GridProblem(grid, (1, 3), (40, 20)))
    print(result.cost, result.expanded)

Pictures live in ``plies.pathfinding.render`` (imported separately: it needs Pillow).
"""

from __future__ import annotations

from plies.pathfinding.algorithms import (
    ALGORITHMS,
    Algorithm,
    astar_search,
    best_first_search,
    bidirectional_search,
    breadth_first_search,
    depth_first_search,
    get_algorithm,
    greedy_best_first_search,
    guarantees_optimal_cost,
    iterative_deepening_search,
    jump_point_search,
    run_algorithm,
    select,
    uniform_cost_search,
    unsupported,
)
from plies.pathfinding.errors import (
    FormatError,
    InvalidCellError,
    PathfindingError,
    UnknownNodeError,
)
from plies.pathfinding.generators import (
    MAZE_METHODS,
    backtracker_maze,
    kruskal_maze,
    perfect_maze,
    prim_maze,
    random_grid,
)
from plies.pathfinding.graph import Graph
from plies.pathfinding.graph_io import load_graph, parse_edge_list, parse_graph_json
from plies.pathfinding.graph_problem import GraphProblem
from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.grid_problem import GridProblem
from plies.pathfinding.heuristics import HEURISTICS
from plies.pathfinding.mapfile import load_map, parse_map, save_map
from plies.pathfinding.mazefile import Maze, load_maze, parse_maze, save_maze
from plies.pathfinding.problem import Node, Problem
from plies.pathfinding.result import SearchResult
from plies.pathfinding.scenario import Scenario, load_scenarios, parse_scenarios

__all__ = [
    "ALGORITHMS",
    "HEURISTICS",
    "MAZE_METHODS",
    "Algorithm",
    "Cell",
    "FormatError",
    "Graph",
    "GraphProblem",
    "Grid",
    "GridProblem",
    "InvalidCellError",
    "Maze",
    "Node",
    "PathfindingError",
    "Problem",
    "Scenario",
    "SearchResult",
    "UnknownNodeError",
    "astar_search",
    "backtracker_maze",
    "best_first_search",
    "bidirectional_search",
    "breadth_first_search",
    "depth_first_search",
    "get_algorithm",
    "greedy_best_first_search",
    "guarantees_optimal_cost",
    "iterative_deepening_search",
    "jump_point_search",
    "kruskal_maze",
    "load_graph",
    "load_map",
    "load_maze",
    "load_scenarios",
    "parse_edge_list",
    "parse_graph_json",
    "parse_map",
    "parse_maze",
    "parse_scenarios",
    "perfect_maze",
    "prim_maze",
    "random_grid",
    "run_algorithm",
    "save_map",
    "save_maze",
    "select",
    "uniform_cost_search",
    "unsupported",
]
