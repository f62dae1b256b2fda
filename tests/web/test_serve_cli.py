"""``plies serve`` on the command line: help, and one-line errors for addresses it cannot use."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``plies serve`` with ``args`` and collect its output."""
    return subprocess.run(
        [sys.executable, "-m", "plies", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_names_the_pages_and_the_default_address() -> None:
    """--help describes the pages and the loopback default."""
    result = run_serve("--help")
    assert result.returncode == 0
    for word in ("Play", "Analyse", "Paths", "Games", "127.0.0.1"):
        assert word in result.stdout


def test_a_port_in_use_is_a_one_line_error() -> None:
    """A taken port gets one line on stderr and exit status 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve("--port", str(port))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot listen" in lines[0]


def test_a_bad_port_number_is_refused() -> None:
    """A port outside 0..65535 is refused before anything starts."""
    result = run_serve("--port", "70000")
    assert result.returncode == 2 and "--port" in result.stderr
