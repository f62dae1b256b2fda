"""Entry point of the ``plies`` command: discovers subcommand modules and dispatches."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

import plies.cli
from plies import __version__, sigint
from plies.cli.common import CliError, Command


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every subcommand: each module of plies.cli that
    declares a ``COMMAND``."""
    parser = _Parser(
        prog="plies",
        description="Game-playing search: a chess engine, agents, games and path finding.",
    )
    parser.add_argument("--version", action="version", version=f"plies {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(plies.cli.__path__), key=lambda m: m.name):
        if info.name == "main" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"plies.cli.{info.name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, Command):
            command.add_to(sub, getattr(module, "add_arguments", None),
                           getattr(module, "run", None))  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen subcommand; return the exit status."""
    sigint.install()
    try:
        parser = build_parser()
    except KeyboardInterrupt:
        return 130  # Ctrl-C while the subcommands load: nothing has started yet
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        result = func(args)
    except CliError as exc:
        print(f"plies {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
