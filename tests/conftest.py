"""Session set-up shared by every test directory."""

from __future__ import annotations

from pathlib import Path

import pytest

# Test directories whose tests run the engine, in process or as `plies uci`.
_ENGINE_DIRS = frozenset(
    {"engine", "uci", "arena", "agents", "play", "analysis", "book", "datagen"}
)


@pytest.fixture(scope="session", autouse=True)
def compiled_engine(request: pytest.FixtureRequest) -> None:
    """Compile the chess engine once, before any test starts engine subprocesses.

    numba caches compiled code on disk; without this, the first tests that
    launch ``plies uci`` processes in parallel would each compile it anew.
    Sessions that never touch the engine skip it.
    """
    items = request.session.items
    if not any(Path(str(item.path)).parent.name in _ENGINE_DIRS for item in items):
        return
    from plies.engine import Engine

    Engine(hash_mb=1).warm_up()
