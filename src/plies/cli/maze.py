"""path finding on a grid: compare DFS, BFS, A*, JPS... with tables and pictures.

Search a grid from START to GOAL with one or all algorithms and print, per algorithm, the
path length, its cost, the nodes expanded and the time. The grid is a Moving AI .map file, a
text maze (# walls, . free, S start, G goal, 1-9 weights) or generated (--size, with
--density or --perfect).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from plies.cli import path_search
from plies.cli.common import CliError, Command

if TYPE_CHECKING:
    from PIL.Image import Image

    from plies.pathfinding.grid import Cell, Grid
    from plies.pathfinding.result import SearchResult

_PANEL_PX = 360
"""A picture's largest side in pixels on a sheet of several."""


COMMAND = Command("maze", __doc__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies maze``."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--map", metavar="FILE", help="a Moving AI .map file or a text maze file")
    src.add_argument("--size", metavar="WxH", help="generate a grid of this size (default 41x21)")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--density", type=float, metavar="D",
                      help="generate random obstacles with probability D (default 0.25)")
    kind.add_argument("--perfect", nargs="?", const="backtracker", metavar="METHOD",
                      help="generate a perfect maze: backtracker (default), prim or kruskal")
    p.add_argument("--seed", type=int, default=None, help="seed for the generator")
    p.add_argument("--from", dest="start", metavar="X,Y", help="start cell (x = column)")
    p.add_argument("--to", dest="goal", metavar="X,Y", help="goal cell")
    path_search.add_search_options(
        p, "dfs, bfs, iddfs, ucs, greedy, astar, bidirectional, jps",
        "manhattan, octile, euclidean or zero (default: the tightest one)",
    )
    p.add_argument("--diagonal", action=argparse.BooleanOptionalAction, default=None,
                   help="allow diagonal moves (default: yes for .map files, no otherwise)")
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                   help="compiled grid kernels or the readable Python versions (default auto: "
                        "compiled, except readable when drawing --png/--gif/--show; both "
                        "explore the same cells in the same order)")
    p.add_argument("--png", metavar="FILE", help="write a picture (a sheet for several)")
    p.add_argument("--gif", metavar="FILE", help="write an animation of the exploration")
    p.add_argument("--show", action="store_true", help="draw the result in the terminal")
    p.add_argument("--save", metavar="FILE", help="write the grid as a text maze file")


def parse_cell(text: str, what: str) -> Cell:
    """``"X,Y"`` as a cell; a one-line error otherwise."""
    parts = text.replace(" ", "").split(",")
    try:
        x, y = (int(v) for v in parts)
    except ValueError:
        raise CliError(f"{what} must be X,Y (two whole numbers), got {text!r}") from None
    return (x, y)


def parse_size(text: str) -> tuple[int, int]:
    """``"WxH"`` as (width, height)."""
    parts = text.lower().split("x")
    try:
        w, h = (int(v) for v in parts)
    except ValueError:
        raise CliError(f"--size must be WxH, e.g. 41x21, got {text!r}") from None
    if not (1 <= w <= 4096 and 1 <= h <= 4096):
        raise CliError(f"--size must be between 1x1 and 4096x4096, got {text}")
    return w, h


def load_grid(args: argparse.Namespace) -> tuple[Grid, Cell | None, Cell | None, str]:
    """The grid the arguments ask for, any start/goal marked in a file, and a description."""
    from pathlib import Path

    from plies.pathfinding.generators import perfect_maze, random_grid
    from plies.pathfinding.mapfile import load_map
    from plies.pathfinding.mazefile import load_maze

    if args.map:
        if args.density is not None or args.perfect:
            raise CliError("--density and --perfect generate a grid; they do not go with --map")
        path = Path(args.map)
        try:
            with path.open("rb") as fh:
                head = fh.read(5)
        except OSError as exc:
            raise CliError(f"{path}: {exc.strerror or 'cannot read file'}") from None
        if head.lower() == b"type ":
            grid = load_map(path)
            if args.diagonal is False:
                grid = grid.with_diagonal(False)
            return grid, None, None, path.name
        maze = load_maze(path, bool(args.diagonal))
        return maze.grid, maze.start, maze.goal, path.name
    w, h = parse_size(args.size or "41x21")
    diagonal = bool(args.diagonal)
    if args.perfect or (args.density is None and args.size is None):
        method = args.perfect or "backtracker"
        grid = perfect_maze(w, h, method, args.seed, diagonal)
        return grid, None, None, f"{w}x{h} perfect maze ({method})"
    density = 0.25 if args.density is None else args.density
    grid = random_grid(w, h, density, args.seed, diagonal)
    return grid, None, None, f"{w}x{h} random grid, density {density:g}"


@path_search.path_finding
def run(args: argparse.Namespace) -> int:
    """Build the grid, run the algorithms, print the table and write pictures."""
    from plies.compile_notice import compile_notice
    from plies.pathfinding.algorithms import Algorithm, run_algorithm
    from plies.pathfinding.compiled import COMPILED_ALGORITHMS, searcher_for
    from plies.pathfinding.endpoints import default_endpoints
    from plies.pathfinding.grid_problem import GridProblem
    from plies.pathfinding.mazefile import save_maze
    from plies.pathfinding.render.grid_picture import draw_grid
    from plies.pathfinding.report import format_table

    algorithms = path_search.chosen_algorithms(args)
    grid, start, goal, description = load_grid(args)
    if (args.start is None or args.goal is None) and (start is None or goal is None):
        default_start, default_goal = default_endpoints(grid)
        start = start or default_start
        goal = goal or default_goal
    if args.start is not None:
        start = parse_cell(args.start, "--from")
    if args.goal is not None:
        goal = parse_cell(args.goal, "--to")
    assert start is not None and goal is not None
    problem = GridProblem(grid, start, goal, args.heuristic)
    if args.save:
        save_maze(grid, args.save, start, goal)
    moves = "8-connected" if grid.diagonal else "4-connected"
    print(
        f"{description}: {grid.width}x{grid.height}, {moves}, {grid.count_free():,} free cells; "
        f"from {start[0]},{start[1]} to {goal[0]},{goal[1]}; heuristic {problem.heuristic_name}"
    )
    if not problem.heuristic_admissible:
        print(f"note: {problem.heuristic_name} overestimates here: A* may miss the cheapest path")
    engine = args.engine
    if engine == "auto":
        # Pictures are drawn from the readable versions (what the explanations follow).
        engine = "python" if (args.png or args.gif or args.show) else "compiled"
    print(f"engine: {engine}" + (" (readable Python versions, used for pictures)"
                                 if engine == "python" else " (numba kernels)"))

    def search(alg: Algorithm) -> SearchResult[Any]:
        """One algorithm's search, its kernel compiled or loaded first, outside the timing."""
        if engine == "compiled" and alg.name in COMPILED_ALGORITHMS:
            with compile_notice("compiling the path-finding kernels (first run only)..."):
                searcher_for(grid).run(alg.name, start, goal, problem.heuristic_name)
        return run_algorithm(alg, problem, engine=engine)

    results, rows = path_search.search_all(args, algorithms, problem, search)
    print(format_table(rows))
    if args.show:
        _show(grid, results, start, goal)
    if args.png:

        def draw(result: SearchResult[Any], small: bool) -> Image:
            """The grid with what one search did; smaller on a sheet of several."""
            if small:
                return draw_grid(grid, result, start, goal, max_px=_PANEL_PX)
            return draw_grid(grid, result, start, goal)

        path_search.write_picture(args.png, results, draw, description)
        print(f"wrote {args.png}")
    if args.gif:
        from plies.pathfinding.render.animation import save_gif

        names = [n for n, _ in results]
        frames = save_gif(
            args.gif, grid, [r for _, r in results], start, goal,
            titles=None if len(results) == 1 else names,
        )
        print(f"wrote {args.gif} ({frames} frames)")
    return 0


def _show(grid: Grid, results: list[tuple[str, Any]], start: Cell, goal: Cell) -> None:
    """Print each result as a coloured picture."""
    from rich.console import Console

    from plies.pathfinding.render.terminal import render_text

    console = Console(highlight=False)
    for name, result in results:
        console.print(f"[bold]{name}[/bold]")
        console.print(render_text(grid, result, start, goal), end="", soft_wrap=True)
