"""Fixtures of the command-line tests."""

from __future__ import annotations

import io
import sys

import pytest
from tests.cli.runs import RunCli

from plies.cli.main import main


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> RunCli:
    """Run ``plies ARGV`` in this process, typed input from a string: (status, out, err)."""

    def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
        """Run ``plies ARGV``; return its exit status, stdout and stderr."""
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(argv)
        out, err = capsys.readouterr()
        return status, out, err

    return run
