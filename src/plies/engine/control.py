"""Steering a running search from other threads: the stop flag, the clock and the search thread.

The compiled search polls a stop flag in its info array; ``stop``, the
hard-deadline timer and ``ponderhit`` all act through it. An infinite or
pondering search keeps its result until ``stop`` (or ``ponderhit``) releases
it, as UCI demands.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import plies.core as core
from plies.engine.limits import Limit
from plies.engine.state import SearchArrays
from plies.engine.timeman import allocate


class SearchClock:
    """When the running search started, when it should stop, and whether it ponders."""

    def __init__(self, arrays: SearchArrays) -> None:
        """A clock that stops the search of ``arrays`` (the main thread's)."""
        self._arrays = arrays
        self.pondering = False
        """Whether the search ponders (its clock starts at ``ponderhit``)."""
        self.soft_ms: float | None = None
        """The time after which no new iteration starts (None: no such target)."""
        self.start_time = 0.0
        """``time.perf_counter()`` when this move's clock started."""
        self._ponder_limit: Limit | None = None
        self._white_to_move = True
        self._timer: threading.Timer | None = None
        self._release = threading.Event()

    def prepare(self, limit: Limit, ponder: bool) -> None:
        """Clear the stop flag and the hold for a new search of ``limit``."""
        core.set_stop(self._arrays.info, 0)
        self._release.clear()
        # Set before the search thread starts, so a ponderhit sent right after go is never lost.
        self.pondering = ponder
        self._ponder_limit = limit

    def begin(
        self, limit: Limit, white_to_move: bool, started_at: float | None, overhead_ms: int,
        slow_mover: int,
    ) -> None:
        """Start the clock of a search (``started_at``: when the move's clock started)."""
        self._white_to_move = white_to_move
        now = time.perf_counter()
        self.start_time = now if started_at is None else min(started_at, now)
        # A ponderhit may already have arrived (start() set the flag before this thread ran).
        if self.pondering:
            self.soft_ms = None
            return
        budget = allocate(limit, white_to_move, overhead_ms, slow_mover)
        self.soft_ms = budget.soft_ms
        if budget.hard_ms is not None:
            spent_ms = (now - self.start_time) * 1000.0
            self._arm(max(0.0, budget.hard_ms - spent_ms))

    def elapsed_ms(self) -> float:
        """Milliseconds since the clock started."""
        return (time.perf_counter() - self.start_time) * 1000.0

    def stop(self) -> None:
        """Make the search stop now and give its result."""
        core.set_stop(self._arrays.info, 1)
        self.pondering = False
        self._release.set()

    def ponderhit(self, overhead_ms: int, slow_mover: int) -> None:
        """The expected move was played: the search now runs on the real clock."""
        if not self.pondering:
            return
        self.pondering = False
        limit = self._ponder_limit or Limit(infinite=True)
        budget = allocate(limit, self._white_to_move, overhead_ms, slow_mover)
        self.start_time = time.perf_counter()
        self.soft_ms = budget.soft_ms
        if budget.hard_ms is not None:
            self._arm(budget.hard_ms)
        if not limit.is_unbounded():
            self._release.set()

    def wait_if_unbounded(self, limit: Limit, pondering: bool) -> None:
        """With infinite or ponder searches the result waits for stop (or ponderhit)."""
        if limit.infinite or pondering:
            self._release.wait()

    def end(self) -> None:
        """The search is over: no timer, no pondering."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.pondering = False

    def _arm(self, ms: float) -> None:
        """Stop the search ``ms`` milliseconds from now."""
        if self._timer is not None:
            self._timer.cancel()
        timer = threading.Timer(ms / 1000.0, self._time_up)
        timer.daemon = True
        self._timer = timer
        timer.start()

    def _time_up(self) -> None:
        """Hard time limit reached."""
        core.set_stop(self._arrays.info, 1)
        self._release.set()


class SearchThread:
    """The background thread a search started with ``Engine.start`` runs in."""

    def __init__(self) -> None:
        """No search yet."""
        self._thread: threading.Thread | None = None
        self.searching = False
        """Whether the search is still running (its callback excepted)."""
        self.error: BaseException | None = None
        """What the last search or its callback raised (``Engine.wait`` raises it again)."""

    def run(self, body: Callable[[], Callable[[], None] | None]) -> None:
        """Run ``body`` in a new thread, then the callback it returns (outside ``searching``)."""
        if self._thread is not None:
            self._thread.join()  # finished (not searching), but may still be in its callback
        self.searching = True
        self.error = None

        def target() -> None:
            """Search, then hand the result over; an exception is kept for ``wait``.

            A callback that raises (an info line written to a closed pipe) would
            otherwise end the thread silently and leave its waiter waiting.
            """
            try:
                try:
                    then = body()
                finally:
                    self.searching = False
                if then is not None:
                    then()
            except BaseException as exc:  # handed to the waiter
                self.error = exc

        self._thread = threading.Thread(target=target, name="plies-search", daemon=True)
        self._thread.start()

    def join(self) -> None:
        """Wait for the thread (and its callback) to end."""
        if self._thread is not None:
            self._thread.join()
