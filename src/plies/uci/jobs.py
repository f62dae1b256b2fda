"""Long UCI commands (``perft``, ``bench``) as background jobs that ``stop`` can end.

The loop's main thread must keep reading input while such a command runs, so
that ``isready`` is answered and ``stop``/``quit`` act at once, exactly as
during a search.  A :class:`Job` runs the command in its own thread; its
:class:`Canceller` is what the command polls (and, for the bench, the engine it
stops) when the loop asks it to end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.engine import Engine


class Canceller:
    """A cancel flag another thread sets, plus the engine (if any) to stop with it."""

    def __init__(self) -> None:
        """Not cancelled, watching no engine."""
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._engine: Engine | None = None

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._event.is_set()

    def watch(self, engine: Engine | None) -> None:
        """Stop ``engine`` too on cancel (None: stop watching)."""
        with self._lock:
            self._engine = engine

    def cancel(self) -> None:
        """Ask the job to end; a watched engine's search stops at once."""
        with self._lock:
            self._event.set()
            engine = self._engine
        if engine is not None:
            engine.stop()


class Job:
    """One long command running in a daemon thread."""

    def __init__(self, name: str, body: Callable[[Canceller], None]) -> None:
        """Start ``body(canceller)`` in a thread called ``uci-NAME``."""
        self.name = name
        self.canceller = Canceller()
        self._thread = threading.Thread(
            target=body, args=(self.canceller,), name=f"uci-{name}", daemon=True
        )
        self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the job's thread is still working."""
        return self._thread.is_alive()

    def cancel(self) -> None:
        """Ask the job to end (it prints what it has, then returns)."""
        self.canceller.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the job to end; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()
