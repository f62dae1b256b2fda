"""Helpers shared by the subcommands: how a command is declared, the user-facing error type,
and the checks of option values."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

if TYPE_CHECKING:
    Subparsers: TypeAlias = argparse._SubParsersAction[Any]


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status 2."""


class Command(NamedTuple):
    """A subcommand as its module declares it: its name and its text, the module's docstring.

    The docstring's first line (less its full stop) is the one-line help of ``plies --help``;
    the paragraphs after it are the description of ``plies NAME --help`` unless
    ``description_text`` is given. Beside it the module defines ``add_arguments(parser)``
    when it takes options, and ``run(args)`` unless its own sub-actions choose what runs. An
    epilog is shown as written (line breaks kept).
    """

    name: str
    doc: str | None
    epilog: str | None = None
    aliases: tuple[str, ...] = ()
    description_text: str | None = None

    @property
    def help(self) -> str:
        """The one-line help: the docstring's first line."""
        return (self.doc or "").strip().split("\n", 1)[0].removesuffix(".")

    @property
    def description(self) -> str | None:
        """The paragraphs after the first line, each joined into one line (None if none)."""
        if self.description_text is not None:
            return self.description_text
        paragraphs = (self.doc or "").strip().split("\n\n")[1:]
        return "\n\n".join(" ".join(text.split()) for text in paragraphs) or None

    def add_to(
        self,
        subparsers: Subparsers,
        add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
        run: Callable[[argparse.Namespace], int] | None = None,
    ) -> argparse.ArgumentParser:
        """Add this command's parser, with its arguments and what it runs."""
        parser: argparse.ArgumentParser = subparsers.add_parser(
            self.name, aliases=self.aliases, help=self.help, description=self.description,
            epilog=self.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter if self.epilog
            else argparse.HelpFormatter,
        )  # fmt: skip
        if add_arguments is not None:
            add_arguments(parser)
        if run is not None:
            parser.set_defaults(func=run)
        return parser


def add_fitting_arguments(p: argparse.ArgumentParser, out: str, init: str) -> None:
    """The arguments of the commands that fit weights to positions (train, tune): the position
    files, ``--out`` (``out`` says what is written) and ``--init`` (``init`` says from what it
    starts)."""
    p.add_argument("data", nargs="+", metavar="DATA", help="position files")
    p.add_argument("--out", required=True, metavar="PATH", help=out)
    p.add_argument("--init", metavar="PATH", help=init)


def cannot_write(path: object, exc: OSError) -> CliError:
    """The one-line error for a file that cannot be written."""
    return CliError(f"cannot write {path}: {exc.strerror or exc}")


def check_minimum(args: argparse.Namespace, least: Mapping[str, int]) -> None:
    """Each option named in ``least`` (by its dest) is at least its value, or absent (None)."""
    for name, minimum in least.items():
        value = getattr(args, name)
        if value is None or value >= minimum:
            continue
        flag = "--" + name.replace("_", "-")
        if minimum == 0:
            raise CliError(f"{flag} must not be negative, not {value}")
        raise CliError(f"{flag} must be at least {minimum}, not {value}")
