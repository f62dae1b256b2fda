"""Make first-use compilation visible: a notice when loading the core takes a while.

A caller that tells the user about the compilation itself (the terminal game
says the engine compiles in the background) runs the work under ``quiet()``,
so the notices of the layers below do not print a second line beside its own.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

FIRST_RUN_COMPILE_S = 80
"""About how long the engine's first compile keeps an idle 2-core machine waiting (seconds).

The compiling process's own CPU time on a cold start, its critical path
(``benchmarks/startup.py``); an install that compiled ahead (``setup.py``) leaves
nothing to compile."""

_quiet_lock = threading.Lock()
_quiet_depth = 0


@contextmanager
def quiet() -> Iterator[None]:
    """Silence every ``compile_notice`` (in any thread) while the block runs."""
    global _quiet_depth
    with _quiet_lock:
        _quiet_depth += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_depth -= 1


def is_quiet() -> bool:
    """Whether notices are silenced now (some ``quiet()`` block is running)."""
    return _quiet_depth > 0


def compile_wait_notice() -> str:
    """What to tell a user who waits for the engine's first compile."""
    return (
        f"compiling the chess engine: a first run only, about {FIRST_RUN_COMPILE_S} s "
        "on 2 cores (later runs load it from the cache)"
    )


@contextmanager
def compile_notice(
    message: str = "compiling the chess core (first run only, a few seconds)...",
    delay: float = 0.8,
    stream: TextIO | None = None,
) -> Iterator[None]:
    """Print ``message`` to stderr if the enclosed block runs longer than ``delay`` s."""
    out = sys.stderr if stream is None else stream
    done = threading.Event()

    def announce() -> None:
        """Print the notice unless the block finished first or notices are silenced."""
        if not done.wait(delay) and not is_quiet():
            print(message, file=out, flush=True)

    thread = threading.Thread(target=announce, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
