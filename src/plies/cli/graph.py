"""path finding in a weighted graph (edge list or JSON) with one or all algorithms.

Search a graph from node A to node B. FILE is an edge list ('u v [weight]' per line, #
comments) or JSON ({'nodes': [{'id', 'x', 'y'}], 'edges': [[u, v, w]]}, networkx node-link
JSON also works). Coordinates, when given, feed A*'s heuristic.
"""

from __future__ import annotations

import argparse
from typing import Any

from plies.cli.common import CliError, Command, path_finding

COMMAND = Command("graph", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies graph``."""
    p.add_argument("file", help="graph file (.json for JSON, anything else for an edge list)")
    p.add_argument("--from", dest="start", required=True, metavar="A", help="start node")
    p.add_argument("--to", dest="goal", required=True, metavar="B", help="goal node")
    p.add_argument("--algorithm", default="all", metavar="NAME|all",
                   help="dfs, bfs, iddfs, ucs, greedy, astar, bidirectional, a comma-separated "
                        "list, or all (default)")
    p.add_argument("--heuristic", default="auto",
                   help="euclidean (default with coordinates), manhattan, octile or zero")
    p.add_argument("--directed", action=argparse.BooleanOptionalAction, default=None,
                   help="treat edges as one-way (default: what a JSON file says; edge lists "
                        "are undirected)")
    p.add_argument("--png", metavar="FILE", help="write a drawing (a sheet for several)")


def run(args: argparse.Namespace) -> int:
    """Load the graph, run the algorithms, print the table and paths, draw if asked."""
    return path_finding(_run, args)


def _run(args: argparse.Namespace) -> int:
    """The body of ``run``; path-finding errors become one-line CLI errors there."""
    from plies.pathfinding.algorithms import run_algorithm, select, unsupported
    from plies.pathfinding.graph_io import load_graph
    from plies.pathfinding.graph_problem import GraphProblem
    from plies.pathfinding.report import format_table, result_row
    from plies.pathfinding.result import SearchResult

    algorithms = select(args.algorithm)
    if not algorithms:
        raise CliError("--algorithm names no algorithm")
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
    explicit = args.algorithm.strip().lower() != "all"
    results: list[tuple[str, SearchResult[Any]]] = []
    rows: list[list[str]] = []
    for alg in algorithms:
        reason = unsupported(alg, problem)
        if reason is not None:
            if explicit:
                raise CliError(f"{alg.name} cannot run here: {reason}")
            continue
        result = run_algorithm(alg, problem)
        results.append((alg.name, result))
        rows.append(result_row(alg.name, result))
    print(format_table(rows))
    for name, result in results:
        if result.path is not None:
            shown = result.path if len(result.path) <= 40 else [*result.path[:38], "...",
                                                                 result.path[-1]]
            print(f"{name}: " + " -> ".join(str(n) for n in shown))
    if args.png:
        _png(args.png, graph, results, start, goal, str(args.file))
        print(f"wrote {args.png}")
    return 0


def _png(path: str, graph: Any, results: list[tuple[str, Any]], start: Any, goal: Any,
         heading: str) -> None:
    """Write one drawing, or a sheet when there are several results."""
    from plies.pathfinding.algorithms import get_algorithm
    from plies.pathfinding.render.graph_drawing import draw_graph
    from plies.pathfinding.render.sheet import Panel, compose, result_lines

    try:
        if len(results) == 1:
            draw_graph(graph, results[0][1], start, goal).save(path, format="PNG")
            return
        panels = [
            Panel(draw_graph(graph, r, start, goal, size=(420, 320)), get_algorithm(n).title,
                  result_lines(r))
            for n, r in results
        ]
        compose(panels, heading=heading).save(path, format="PNG")
    except OSError as exc:
        raise CliError(f"{path}: {exc.strerror or exc}") from None
