"""Session set-up shared by every test directory."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def compiled_engine() -> None:
    """Compile the chess core and search once, before any test starts engine subprocesses.

    numba caches compiled code on disk; without this, the first tests that
    launch ``plies uci`` processes in parallel would each compile it anew.
    """
    from plies.engine import Engine

    Engine(hash_mb=1).warm_up()
