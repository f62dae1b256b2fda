"""Helpers shared by the subcommands: the user-facing error type, and turning errors into it."""

from __future__ import annotations

import argparse
from collections.abc import Callable


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status 2."""


def path_finding(body: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run ``body``; a path-finding error (a bad map, cell or algorithm) becomes a CliError."""
    from plies.pathfinding.errors import PathfindingError

    try:
        return body(args)
    except PathfindingError as exc:
        raise CliError(str(exc)) from None


def add_variant_argument(p: argparse.ArgumentParser, note: str = "") -> None:
    """``--variant standard|chess960``, as ``arena`` and ``sprt`` take it."""
    p.add_argument("--variant", choices=("standard", "chess960"), default="standard",
                   help="chess960: each game pair starts from its own seeded Chess960 start "
                        "position (or the --openings positions by Chess960 rules)" + note)


def check_variant_book(args: argparse.Namespace) -> None:
    """A Polyglot book holds standard-chess lines: refuse it for Chess960 in one line."""
    if args.variant == "chess960" and args.book:
        raise CliError("--book holds standard-chess lines; it cannot open Chess960 games")
