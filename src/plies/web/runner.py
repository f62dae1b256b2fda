"""One engine search at a time, its callbacks delivered on the owner's thread, stale ones dropped.

The engine searches in its own thread and calls back from there. A tab's game state
lives on the event loop's thread, so every callback is handed over with ``post`` (e.g.
``loop.call_soon_threadsafe``) and dropped on arrival when the game has moved on
(a newer search, an undo, a closed tab): each search carries a generation number.

Every search is capped in time unless the server is run without a cap (a depth alone could
run for hours) and, when the
runner is given the server's :class:`~plies.web.slots.SearchSlots`, waits for a slot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from plies.board import Board
from plies.engine import Engine, Info, Limit
from plies.web.slots import Lease, SearchSlots, Ticket

Post = Callable[[Callable[[], None]], None]
Emit = Callable[[dict[str, Any]], None]

#: Transposition table per browser tab, in MB: small, since a tab may open several.
HASH_MB = 8
#: Longest search by default, whatever the limit asks (a depth-only limit included).
CAP_MS = 60_000
#: Time left to a search asked to stop before it had a slot.
HURRY_MS = 50


def capped(limit: Limit, cap_ms: int | None) -> Limit:
    """``limit`` with a move time of at most ``cap_ms`` (set when it had none; None: no cap)."""
    if cap_ms is None:
        return limit
    movetime = cap_ms if limit.movetime is None else min(limit.movetime, cap_ms)
    return dataclasses.replace(limit, movetime=movetime, infinite=False)


class SearchRunner:
    """Owns one engine; starts, stops and forgets searches for one session."""

    def __init__(
        self, post: Post, slots: SearchSlots | None = None, cap_ms: int | None = CAP_MS
    ) -> None:
        """Create the runner (searches wait for ``slots``); the engine is built on first use."""
        self._post = post
        # Without the server's slots the runner still has one of its own: one search at a time.
        self._slots = slots if slots is not None else SearchSlots(1)
        self.cap_ms = cap_ms
        self._engine: Engine | None = None
        self._generation = 0
        self._ticket: Ticket | None = None
        self._lease: Lease | None = None
        self.searching = False
        """Whether a search is under way (or waiting for a slot) whose result is still wanted."""
        self.queued = False
        """Whether the search is waiting for a free slot."""
        self._hurry = False

    @property
    def engine(self) -> Engine:
        """The engine, created on first use."""
        if self._engine is None:
            self._engine = Engine(hash_mb=HASH_MB)
        return self._engine

    @property
    def running(self) -> bool:
        """Whether this runner's engine is searching right now."""
        return self._engine is not None and self._engine.is_searching()

    def start(
        self,
        board: Board,
        limit: Limit,
        describe: Callable[[Board, Info], dict[str, Any]],
        on_info: Callable[[dict[str, Any]], None],
        on_done: Callable[[Info], None],
    ) -> None:
        """Search ``board``; ``on_info``/``on_done`` run on the owner's thread while current.

        ``describe`` turns each iteration into JSON in the search thread (SAN takes a
        moment, and the event loop should not wait for it) with its own copy of the board.
        """
        self.cancel()
        self._generation += 1
        generation = self._generation
        self.searching = True
        snapshot = board.copy()
        limit = capped(limit, self.cap_ms)

        def info_arrived(info: Info) -> None:
            """In the search thread: describe, then hand over."""
            payload = describe(snapshot, info)
            self._post(lambda: self._deliver_info(generation, payload, on_info))

        def begin(lease: Lease) -> None:
            """A slot is ours (on the owner's thread): search, unless the search is stale."""
            self._ticket = None
            self.queued = False
            if generation != self._generation:
                lease.release()
                return
            self._lease = lease
            hurried = capped(limit, HURRY_MS) if self._hurry else limit
            self._hurry = False

            def done(result: Info) -> None:
                """In the search thread: hand the result over."""
                self._post(lambda: self._deliver_done(generation, lease, result, on_done))

            self.engine.start(snapshot, hurried, on_info=info_arrived, on_done=done)

        self.queued = True
        ticket = self._slots.request(begin, bounded=False)
        if self.queued:  # not granted at once: keep the place in line, to withdraw it
            self._ticket = ticket

    def _deliver_info(
        self, generation: int, payload: dict[str, Any], on_info: Callable[[dict[str, Any]], None]
    ) -> None:
        """On the owner's thread: pass ``payload`` on if its search is still current."""
        if generation == self._generation and self.searching:
            on_info(payload)

    def _deliver_done(
        self,
        generation: int,
        lease: Lease,
        result: Info,
        on_done: Callable[[Info], None],
    ) -> None:
        """On the owner's thread: free the slot; pass the result on if still current."""
        lease.release()
        if self._lease is lease:
            self._lease = None
        if generation == self._generation and self.searching:
            self.searching = False
            on_done(result)

    def stop(self) -> None:
        """Ask the search to finish now; its best move so far is still delivered."""
        if self.queued:
            self._hurry = True  # it has not started: make it short once it does
        elif self._engine is not None and self.searching:
            self._engine.stop()

    def cancel(self) -> None:
        """Stop the search and forget it: its result will not be delivered."""
        self._generation += 1
        self.searching = False
        self.queued = False
        self._hurry = False
        if self._ticket is not None:
            self._slots.withdraw(self._ticket)
        self._ticket = None
        engine = self._engine
        if engine is not None and engine.is_searching():
            engine.stop()
            engine.wait()
        if self._lease is not None:
            self._lease.release()
            self._lease = None


class RunnerSession:
    """A tab's session with a search runner of its own: what it sends the tab, whether its
    engine runs, and closing."""

    def __init__(self, emit: Emit, post: Post, runner: SearchRunner | None) -> None:
        """``emit`` sends JSON to the tab; searches run on ``runner`` (or a new one, whose
        callbacks come back through ``post``)."""
        self._emit = emit
        self._post = post
        self._runner = runner if runner is not None else SearchRunner(post)

    @property
    def running(self) -> bool:
        """Whether the tab's engine is searching right now."""
        return self._runner.running

    def close(self) -> None:
        """The tab has gone: stop any search."""
        self._runner.cancel()
