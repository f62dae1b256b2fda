"""path finding in a weighted graph (edge list or JSON) with one or all algorithms.

Search a graph from node A to node B. FILE is an edge list ('u v [weight]' per line, #
comments) or JSON ({'nodes': [{'id', 'x', 'y'}], 'edges': [[u, v, w]]}, networkx node-link
JSON also works). Coordinates, when given, feed A*'s heuristic.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from plies.cli import path_search
from plies.cli.common import Command

if TYPE_CHECKING:
    from PIL.Image import Image

    from plies.pathfinding.result import SearchResult

_PANEL_SIZE = (420, 320)
"""A drawing's size in pixels on a sheet of several."""

COMMAND = Command("graph", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies graph``."""
    p.add_argument("file", help="graph file (.json for JSON, anything else for an edge list)")
    p.add_argument("--from", dest="start", required=True, metavar="A", help="start node")
    p.add_argument("--to", dest="goal", required=True, metavar="B", help="goal node")
    path_search.add_search_options(
        p, "dfs, bfs, iddfs, ucs, greedy, astar, bidirectional",
        "euclidean (default with coordinates), manhattan, octile or zero",
    )
    p.add_argument("--directed", action=argparse.BooleanOptionalAction, default=None,
                   help="treat edges as one-way (default: what a JSON file says; edge lists "
                        "are undirected)")
    p.add_argument("--png", metavar="FILE", help="write a drawing (a sheet for several)")


@path_search.path_finding
def run(args: argparse.Namespace) -> int:
    """Load the graph, run the algorithms, print the table and paths, draw if asked."""
    from plies.pathfinding.algorithms import run_algorithm
    from plies.pathfinding.graph_io import load_graph
    from plies.pathfinding.graph_problem import GraphProblem
    from plies.pathfinding.render.graph_drawing import draw_graph
    from plies.pathfinding.report import format_table

    algorithms = path_search.chosen_algorithms(args)
    graph = load_graph(args.file, args.directed)
    start = graph.resolve(args.start, "start node")
    goal = graph.resolve(args.goal, "goal node")
    problem = GraphProblem(graph, start, goal, args.heuristic)
    kind = "directed" if graph.directed else "undirected"
    print(
        f"{args.file}: {len(graph):,} nodes, {graph.edge_count():,} edges, {kind}; "
        f"from {start} to {goal}; heuristic {problem.heuristic_name}"
        + (f" (scaled by {problem.heuristic_scale:.3g})"
           if 0 < problem.heuristic_scale < 1 else "")
    )
    results, rows = path_search.search_all(
        args, algorithms, problem, lambda alg: run_algorithm(alg, problem)
    )
    print(format_table(rows))
    for name, result in results:
        if result.path is not None:
            shown = result.path if len(result.path) <= 40 else [*result.path[:38], "...",
                                                                 result.path[-1]]
            print(f"{name}: " + " -> ".join(str(n) for n in shown))
    if args.png:

        def draw(result: SearchResult[Any], small: bool) -> Image:
            """The graph with what one search did; smaller on a sheet of several."""
            if small:
                return draw_graph(graph, result, start, goal, size=_PANEL_SIZE)
            return draw_graph(graph, result, start, goal)

        path_search.write_picture(args.png, results, draw, str(args.file))
        print(f"wrote {args.png}")
    return 0
