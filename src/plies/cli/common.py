"""Helpers shared by the subcommands: the user-facing error type."""

from __future__ import annotations


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status 2."""
