"""What the path-finding commands (maze, graph, pathbench) share: their errors as one line,
the choice of algorithms and heuristic, the run over every algorithm, and the picture."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError

if TYPE_CHECKING:
    from PIL.Image import Image

    from plies.pathfinding.algorithms import Algorithm
    from plies.pathfinding.result import SearchResult

Results = list[tuple[str, "SearchResult[Any]"]]
"""Each algorithm's name and what its search found."""


def path_finding(body: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command's ``run``: a path-finding error (a bad map, cell or algorithm) in ``body``
    becomes a one-line CliError."""

    @functools.wraps(body)
    def run(args: argparse.Namespace) -> int:
        """Run the command; a PathfindingError becomes a CliError."""
        from plies.pathfinding.errors import PathfindingError

        try:
            return body(args)
        except PathfindingError as exc:
            raise CliError(str(exc)) from None

    return run


def add_search_options(p: argparse.ArgumentParser, algorithms: str, heuristic: str) -> None:
    """``--algorithm`` (``algorithms`` lists the names) and ``--heuristic`` (``heuristic`` says
    which are there and which is the default)."""
    p.add_argument("--algorithm", default="all", metavar="NAME|all",
                   help=f"{algorithms}, a comma-separated list, or all (default)")
    p.add_argument("--heuristic", default="auto", help=heuristic)


def chosen_algorithms(args: argparse.Namespace) -> list[Algorithm]:
    """The algorithms ``--algorithm`` names; a one-line error if it names none."""
    from plies.pathfinding.algorithms import select

    algorithms = select(args.algorithm)
    if not algorithms:
        raise CliError("--algorithm names no algorithm")
    return algorithms


def search_all(
    args: argparse.Namespace,
    algorithms: list[Algorithm],
    problem: Any,
    search: Callable[[Algorithm], SearchResult[Any]],
) -> tuple[Results, list[list[str]]]:
    """Run ``search`` for each algorithm the problem suits: the results and the table rows.

    An algorithm that cannot run here is an error when named, else a row that says why."""
    from plies.pathfinding.algorithms import unsupported
    from plies.pathfinding.report import result_row

    explicit = args.algorithm.strip().lower() != "all"
    results: Results = []
    rows: list[list[str]] = []
    for alg in algorithms:
        reason = unsupported(alg, problem)
        if reason is not None:
            if explicit:
                raise CliError(f"{alg.name} cannot run here: {reason}")
            rows.append([alg.name, f"n/a ({reason})", "", "", "", ""])
            continue
        result = search(alg)
        results.append((alg.name, result))
        rows.append(result_row(alg.name, result))
    return results, rows


def write_picture(
    path: str, results: Results, draw: Callable[[SearchResult[Any], bool], Image], heading: str
) -> None:
    """Write one result's picture, or a sheet of them when there are several.

    ``draw(result, small)`` draws one result, ``small`` for a panel of the sheet."""
    from plies.pathfinding.algorithms import get_algorithm
    from plies.pathfinding.render.sheet import Panel, compose, result_lines

    try:
        if len(results) == 1:
            draw(results[0][1], False).save(path, format="PNG")
            return
        panels = [Panel(draw(r, True), get_algorithm(n).title, result_lines(r))
                  for n, r in results]  # fmt: skip
        compose(panels, heading=heading).save(path, format="PNG")
    except OSError as exc:
        raise CliError(f"{path}: {exc.strerror or exc}") from None
