"""Fixtures of the game tests: the command-line runner of tests/cli, for ``plies connect4``'s
solving options tested beside the solver."""

from __future__ import annotations

from tests.cli.conftest import cli

__all__ = ["cli"]
