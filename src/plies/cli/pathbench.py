"""``plies pathbench``: run a Moving AI scenario file and check every cost against its optimum."""

from __future__ import annotations

import argparse
import time

from plies.cli.common import CliError

#: Costs within this of the scenario's optimal length count as optimal.
TOLERANCE = 1e-6


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``pathbench`` subcommand."""
    p = subparsers.add_parser(
        "pathbench",
        help="run a Moving AI benchmark (.map + .scen) and count optimal answers",
        description=(
            "Run every scenario of a Moving AI .scen file on its .map with one algorithm, "
            "report nodes expanded and time, and end with 'optimal: N/M scenarios': how many "
            f"path costs matched the scenario's optimal length within {TOLERANCE:g} "
            "(diagonals cost sqrt(2), no corner cutting)."
        ),
    )
    p.add_argument("map", help="the .map file")
    p.add_argument("scen", help="the .scen file")
    p.add_argument("--algorithm", default="astar", metavar="NAME",
                   help="ucs, astar, jps, bidirectional, ... (default astar)")
    p.add_argument("--limit", type=int, metavar="N", help="run only the first N scenarios")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the scenarios with a progress bar and print the summary."""
    from plies.pathfinding.errors import PathfindingError

    try:
        return _run(args)
    except PathfindingError as exc:
        raise CliError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    """The body of ``run``; path-finding errors become one-line CLI errors there."""
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from plies.pathfinding.algorithms import get_algorithm, unsupported
    from plies.pathfinding.grid_problem import GridProblem
    from plies.pathfinding.mapfile import load_map
    from plies.pathfinding.report import format_seconds
    from plies.pathfinding.scenario import check_against_map, load_scenarios

    algorithm = get_algorithm(args.algorithm)
    grid = load_map(args.map)
    scenarios = load_scenarios(args.scen)
    if args.limit is not None:
        if args.limit < 1:
            raise CliError(f"--limit must be at least 1, got {args.limit}")
        scenarios = scenarios[: args.limit]
    if not scenarios:
        raise CliError(f"{args.scen}: no scenarios")
    for scenario in scenarios:
        check_against_map(scenario, grid)
    probe = GridProblem(grid, scenarios[0].start, scenarios[0].goal)
    reason = unsupported(algorithm, probe)
    if reason is not None:
        raise CliError(f"{algorithm.name} cannot run on {args.map}: {reason}")
    print(
        f"map {Path(args.map).name}: {grid.width}x{grid.height}, {grid.count_free():,} free "
        f"cells; {len(scenarios)} scenarios from {Path(args.scen).name}; "
        f"algorithm {algorithm.name}"
    )
    expanded: list[int] = []
    times: list[float] = []
    optimal = 0
    no_path = 0
    mismatches: list[str] = []
    grid.move_masks()  # built once here rather than inside the first timed search
    console = Console(stderr=True)
    progress = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True, disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(algorithm.name, total=len(scenarios))
        for scenario in scenarios:
            problem = GridProblem(grid, scenario.start, scenario.goal)
            t0 = time.perf_counter()
            result = algorithm.run(problem, False)
            times.append(time.perf_counter() - t0)
            expanded.append(result.expanded)
            if result.path is None:
                no_path += 1
                mismatches.append(f"{scenario.where()}: {result.status}, "
                                  f"optimal {scenario.optimal:.8f}")
            elif abs(result.cost - scenario.optimal) <= TOLERANCE:
                optimal += 1
            else:
                mismatches.append(f"{scenario.where()}: cost {result.cost:.8f}, "
                                  f"optimal {scenario.optimal:.8f}")
            progress.advance(task)
    n = len(scenarios)
    total_time = sum(times)
    print(f"nodes expanded: total {sum(expanded):,}, mean {sum(expanded) / n:,.1f}, "
          f"max {max(expanded):,}")
    print(f"time: total {format_seconds(total_time)}, mean {format_seconds(total_time / n)}, "
          f"max {format_seconds(max(times))}")
    if no_path:
        print(f"no path: {no_path} scenarios")
    for line in mismatches[:5]:
        print(f"not optimal: {line}")
    if len(mismatches) > 5:
        print(f"... and {len(mismatches) - 5} more")
    print(f"optimal: {optimal}/{n} scenarios")
    return 0
