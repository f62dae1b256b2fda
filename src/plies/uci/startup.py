"""The UCI engine's start-up: created and compiled in a background thread, waited for on use.

The loop answers ``uci`` at once while numba loads; ``isready`` (and anything that needs
the engine) waits here, saying why after a second when the compile cache is cold, and
gives up at once when ``quit`` is the next command.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from plies.compile_notice import compile_wait_notice
from plies.options import HASH, MOVE_OVERHEAD, OptionValue, shorten
from plies.uci.channel import Output

if TYPE_CHECKING:
    from plies.engine import Engine

# After this long without the engine being ready, ``isready`` says why it waits.
COMPILE_NOTICE_DELAY_S = 1.0

# How often a wait for the engine's compile looks whether ``quit`` arrived.
QUIT_POLL_S = 0.05

EngineFactory = Callable[[int], "Engine"]


class QuitError(Exception):
    """``quit`` arrived while a command was waiting for the engine: leave now."""


def default_factory(hash_mb: int) -> Engine:
    """Create the real engine."""
    from plies.engine import Engine

    with warnings.catch_warnings():
        # The loop reports an unusable default net itself, as one ``info string``.
        warnings.simplefilter("ignore", RuntimeWarning)
        return Engine(hash_mb)


class EngineStartup:
    """One engine, built in the background from the option values set before it is ready."""

    def __init__(
        self, out: Output, values: dict[str, OptionValue], factory: EngineFactory | None = None
    ) -> None:
        """Nothing started yet; ``values``: the loop's option values (read at start-up)."""
        self._out = out
        self._values = values
        self._factory = factory or default_factory
        self._engine: Engine | None = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        # Set by the warm-up thread when the engine is not in the compile cache yet.
        self._compiling = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Create and compile the engine in a background thread (once)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._warm_up, name="uci-warm-up", daemon=True)
        self._thread.start()

    def _warm_up(self) -> None:
        """Thread body: build the engine and compile its search."""
        try:
            # ``warm_up`` compiles (or loads) the board's part first, then the search.
            from plies.engine import prewarm

            if prewarm.cache_is_cold():
                self._compiling.set()
            hash_mb = self._values[HASH.name]
            engine = self._factory(hash_mb if isinstance(hash_mb, int) else HASH.spin_default())
            if engine.net_notice is not None:
                self._out.info_string(shorten(engine.net_notice, 300))
            engine.set_option(MOVE_OVERHEAD.name, self._values[MOVE_OVERHEAD.name])
            engine.warm_up()
            self._engine = engine
        except BaseException as exc:  # reported on first use; the loop itself keeps going
            self._error = exc
        finally:
            self._ready.set()

    @property
    def started(self) -> Engine | None:
        """The engine if it is ready now, without waiting (None: not yet, or it failed)."""
        return self._engine

    def wait(self, quit_is_next: Callable[[], bool]) -> Engine:
        """The ready engine, waiting for its compile (with a notice) if needed.

        Raises :class:`QuitError` once ``quit_is_next()`` says ``quit`` is the next command,
        and RuntimeError naming the cause if the engine failed to start.
        """
        self.start()
        if not self._ready.wait(COMPILE_NOTICE_DELAY_S):
            told = False
            while not self._ready.wait(QUIT_POLL_S):
                if not told and self._compiling.is_set():
                    self._out.info_string(compile_wait_notice())
                    told = True
                if quit_is_next():
                    raise QuitError
        if self._engine is None:
            err = self._error
            reason = f"{type(err).__name__}: {err}" if err is not None else "unknown error"
            raise RuntimeError(f"the engine failed to start: {reason}")
        return self._engine
