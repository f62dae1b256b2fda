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
