"""run a Moving AI benchmark (.map + .scen): optimal count, time per query, per bucket."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError, Command, check_minimum
from plies.cli.path_search import path_finding

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from plies.pathfinding.grid import Grid
    from plies.pathfinding.scenario import Scenario

#: Costs within this of the scenario's optimal length count as optimal.
TOLERANCE = 1e-6
#: Algorithms run when --algorithm is not given.
DEFAULT_ALGORITHMS = "astar,jps"
#: Percentiles of the time per query shown in the tables.
PERCENTILES = (50, 95, 99)


COMMAND = Command(
    "pathbench", __doc__,
    description_text=(
        "Run every scenario of a Moving AI .scen file on its .map with one or more "
        "algorithms (compiled kernels, all queries of an algorithm in one batch call). "
        "Prints, per bucket and per algorithm, how many path costs matched the "
        f"scenario's optimal length within {TOLERANCE:g} (diagonals cost sqrt(2), no "
        "corner cutting), the mean and percentile time per query and the nodes "
        "expanded; then a summary, JPS's speed-up over A* when both ran, and last "
        "'optimal: N/M scenarios'."
    ),
)  # fmt: skip


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies pathbench``."""
    p.add_argument("map", help="the .map file")
    p.add_argument("scen", help="the .scen file")
    p.add_argument("--algorithm", default=DEFAULT_ALGORITHMS, metavar="LIST|all",
                   help="comma-separated: bfs, ucs, greedy, astar, bidirectional, bidir-astar, "
                        f"jps; or all (default {DEFAULT_ALGORITHMS})")
    p.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                   help="compiled kernels (default) or the readable Python versions")
    p.add_argument("--limit", type=int, metavar="N", help="run only the first N scenarios")
    p.add_argument("--repeat", type=int, default=1, metavar="R",
                   help="run the set R times and keep each query's fastest time (default 1)")
    p.add_argument("--buckets", action=argparse.BooleanOptionalAction, default=True,
                   help="print the per-bucket tables (default yes)")


def _algorithms(spec: str, grid: Grid) -> list[str]:
    """The algorithm names to run; a one-line error for unknown or unsuitable ones."""
    from plies.pathfinding.algorithms import get_algorithm
    from plies.pathfinding.compiled import COMPILED_ALGORITHMS

    if spec.strip().lower() == "all":
        names = list(COMPILED_ALGORITHMS)
        if not grid.diagonal or grid.weighted:
            names.remove("jps")
        return names
    names = []
    for part in spec.split(","):
        if not part.strip():
            continue
        name = get_algorithm(part.strip()).name
        if name not in COMPILED_ALGORITHMS:
            raise CliError(f"pathbench runs {', '.join(COMPILED_ALGORITHMS)}; not {name}")
        if name == "jps" and (not grid.diagonal or grid.weighted):
            raise CliError("jps needs an 8-connected map without weights")
        if name not in names:
            names.append(name)
    if not names:
        raise CliError("--algorithm names no algorithm")
    return names


def _measure(grid: Grid, name: str, scenarios: list[Scenario], engine: str,
             repeat: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64],
                                   npt.NDArray[np.float64]]:
    """Costs, expansions and fastest seconds per scenario for one algorithm."""
    import time

    import numpy as np

    from plies.pathfinding.algorithms import get_algorithm
    from plies.pathfinding.compiled import searcher_for
    from plies.pathfinding.grid_problem import GridProblem

    starts = [s.start for s in scenarios]
    goals = [s.goal for s in scenarios]
    best = np.full(len(scenarios), np.inf)
    if engine == "compiled":
        searcher = searcher_for(grid)
        for _ in range(repeat):
            result = searcher.batch(name, starts, goals)
            best = np.minimum(best, result.seconds)
        return result.costs, result.expanded, best
    algorithm = get_algorithm(name)
    costs = np.full(len(scenarios), np.inf)
    expanded = np.zeros(len(scenarios), np.int64)
    for _ in range(repeat):
        for i, (start, goal) in enumerate(zip(starts, goals, strict=True)):
            problem = GridProblem(grid, start, goal)
            t0 = time.perf_counter()
            answer = algorithm.run(problem, False, "python")
            best[i] = min(best[i], time.perf_counter() - t0)
            costs[i] = answer.cost
            expanded[i] = answer.expanded
    return costs, expanded, best


def _time(seconds: float) -> str:
    """A time per query, with two decimals below 10 µs (short queries are common)."""
    from plies.pathfinding.report import format_seconds

    return f"{seconds * 1e6:.2f} µs" if seconds < 1e-5 else format_seconds(seconds)


def _row(label: str, optimal: int, count: int, seconds: Any, expanded: Any) -> list[str]:
    """One table row: label, optimal count, mean and percentile times, mean expansions."""
    import numpy as np

    cells = [label, f"{optimal}/{count}", _time(float(np.mean(seconds)))]
    cells += [_time(float(np.percentile(seconds, q))) for q in PERCENTILES]
    cells += [_time(float(np.max(seconds))), f"{float(np.mean(expanded)):,.1f}"]
    return cells


@path_finding
def run(args: argparse.Namespace) -> int:
    """Load the map and scenarios, run every algorithm, print the tables."""
    import time
    from pathlib import Path

    import numpy as np

    from plies.compile_notice import compile_notice
    from plies.pathfinding.compiled import searcher_for
    from plies.pathfinding.mapfile import load_map
    from plies.pathfinding.report import format_seconds, format_table
    from plies.pathfinding.scenario import check_against_map, load_scenarios

    check_minimum(args, {"repeat": 1, "limit": 1})
    grid = load_map(args.map)
    scenarios = load_scenarios(args.scen)
    if args.limit is not None:
        scenarios = scenarios[: args.limit]
    if not scenarios:
        raise CliError(f"{args.scen}: no scenarios")
    for scenario in scenarios:
        check_against_map(scenario, grid)
    names = _algorithms(args.algorithm, grid)
    buckets = sorted({s.bucket for s in scenarios})
    print(
        f"map {Path(args.map).name}: {grid.width}x{grid.height}, {grid.count_free():,} free "
        f"cells; {len(scenarios)} scenarios in {len(buckets)} buckets from "
        f"{Path(args.scen).name}; engine {args.engine}"
    )
    if args.engine == "compiled":
        # First use compiles the kernels (cached on disk afterwards): time it apart.
        t0 = time.perf_counter()
        with compile_notice("compiling the path-finding kernels (first run only)..."):
            for name in names:
                searcher_for(grid).batch(name, [scenarios[0].start], [scenarios[0].goal])
        print(f"warm-up (compiles on first run, then loads from cache): "
              f"{format_seconds(time.perf_counter() - t0)}")
    optimal_values = np.array([s.optimal for s in scenarios])
    bucket_of = np.array([s.bucket for s in scenarios])
    headers = ("", "optimal", "mean", *(f"p{q}" for q in PERCENTILES), "max", "expanded")
    summary: list[list[str]] = []
    means: dict[str, dict[int, float]] = {}
    totals: dict[str, float] = {}
    verdicts: list[tuple[str, int]] = []
    for name in names:
        costs, expanded, seconds = _measure(grid, name, scenarios, args.engine, args.repeat)
        good = np.abs(costs - optimal_values) <= TOLERANCE
        rows = []
        means[name] = {}
        for b in buckets:
            sel = bucket_of == b
            means[name][b] = float(np.mean(seconds[sel]))
            rows.append(_row(str(b), int(good[sel].sum()), int(sel.sum()), seconds[sel],
                             expanded[sel]))
        totals[name] = float(seconds.sum())
        summary.append(_row(name, int(good.sum()), len(scenarios), seconds, expanded))
        verdicts.append((name, int(good.sum())))
        if args.buckets:
            print(f"\n{name} by bucket (time per query)")
            print(format_table(rows, ("bucket", *headers[1:])))
        bad = np.flatnonzero(~good)
        for i in bad[:5]:
            s = scenarios[i]
            got = "no path" if not np.isfinite(costs[i]) else f"cost {costs[i]:.8f}"
            print(f"not optimal ({name}): {s.where()}: {got}, optimal {s.optimal:.8f}")
        if len(bad) > 5:
            print(f"... and {len(bad) - 5} more")
    print(f"\nall {len(scenarios)} scenarios (time per query, fastest of {args.repeat} runs)")
    print(format_table(summary, ("algorithm", *headers[1:])))
    if "astar" in means and "jps" in means:
        ratios = [means["astar"][b] / means["jps"][b] for b in buckets if means["jps"][b] > 0]
        print(f"JPS speed-up over A*: {totals['astar'] / totals['jps']:.2f}x in total; "
              f"by bucket {min(ratios):.2f}x to {max(ratios):.2f}x "
              f"(first {ratios[0]:.2f}x, last {ratios[-1]:.2f}x)")
    if len(verdicts) == 1:
        print(f"optimal: {verdicts[0][1]}/{len(scenarios)} scenarios")
    else:
        parts = ", ".join(f"{n} {k}/{len(scenarios)}" for n, k in verdicts)
        print(f"optimal: {parts} scenarios")
    return 0
