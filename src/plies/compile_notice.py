"""Make first-use compilation visible: a notice while numba really compiles, never on a warm start.

numba reports each real compile as a ``numba:compile`` event; loading a function
from its on-disk cache is none. ``watching_compiles`` listens for compiles of
plies's own functions in the thread that runs a block, and ``compile_notice``
prints its message only once such a compile has begun and the block has lasted
``delay`` seconds: a warm start says nothing however long loading takes, a
first run says what it waits for.

A caller that tells the user about the compilation itself (the terminal game
says the engine compiles in the background) runs the work under ``quiet()``,
so the notices of the layers below do not print a second line beside its own.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

FIRST_RUN_COMPILE_S = 60
"""About how long the engine's first compile keeps an idle 2-core machine waiting (seconds).

The longest chain of the phased compile (``plies.engine.prewarm``), in CPU
seconds of the process that waits for it (``benchmarks/startup.py``); an install
that compiled ahead (``setup.py``) leaves nothing to compile."""

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


def _is_plies(event: Any) -> bool:
    """Whether a compile event is for one of plies's own functions (not numba's helpers)."""
    module = getattr(event.data["dispatcher"].py_func, "__module__", None) or ""
    return bool(module == "plies" or module.startswith("plies."))


@contextmanager
def watching_compiles(
    on_compile: Callable[[], None] | None = None,
) -> Iterator[threading.Event]:
    """While the block runs, the yielded event is set once numba starts compiling one of
    plies's functions in this thread (and ``on_compile`` is called then, once)."""
    import numba.core.event as event

    compiling = threading.Event()
    owner = threading.get_ident()

    class Watch(event.Listener):  # type: ignore[misc]  # numba is untyped
        """Sets ``compiling`` at the first compile of a plies function in ``owner``."""

        def on_start(self, ev: Any) -> None:
            """A compile begins: note it if it is ours."""
            if not compiling.is_set() and threading.get_ident() == owner and _is_plies(ev):
                compiling.set()
                if on_compile is not None:
                    on_compile()

        def on_end(self, ev: Any) -> None:
            """Nothing to do when a compile ends."""

    listener = Watch()
    register: Callable[[str, Any], None] = event.register
    unregister: Callable[[str, Any], None] = event.unregister
    register("numba:compile", listener)
    try:
        yield compiling
    finally:
        unregister("numba:compile", listener)


@contextmanager
def compile_notice(
    message: str = "compiling the chess core (first run only, a few seconds)...",
    delay: float = 0.8,
    stream: TextIO | None = None,
) -> Iterator[None]:
    """Print ``message`` to stderr once numba compiles (not loads) a plies function in the
    block and the block has run ``delay`` s."""
    out = sys.stderr if stream is None else stream
    wake = threading.Event()  # a compile began, or the block ended
    done = threading.Event()
    started = time.monotonic()

    with watching_compiles(wake.set):

        def announce() -> None:
            """Print the notice once a compile runs, unless the block ends first or notices
            are silenced."""
            wake.wait()
            remaining = delay - (time.monotonic() - started)
            if not done.is_set() and not done.wait(max(remaining, 0.0)) and not is_quiet():
                print(message, file=out, flush=True)

        thread = threading.Thread(target=announce, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            wake.set()
            thread.join()
