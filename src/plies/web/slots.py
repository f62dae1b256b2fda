"""A global limit on searches running at once, shared by every tab and request.

A machine has a few cores; sixteen tabs with two engines each, plus game and path
searches over HTTP, would otherwise all run together and starve each other (and the
event loop). Everyone asks for a slot: it is granted at once when one is free, or
later, first come first served. HTTP requests wait in a bounded line and are told the
server is busy beyond it; a tab has at most two searches, so tabs always wait.

Everything here runs on the event loop's thread.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable

from plies.web.errors import ApiError

#: HTTP status of a "busy, try again" answer.
BUSY_STATUS = 503
_log = logging.getLogger(__name__)


class BusyError(ApiError):
    """Too many searches are running and waiting: try again shortly."""

    def __init__(self, message: str) -> None:
        """Create the error with status 503."""
        super().__init__(message, BUSY_STATUS)


class Lease:
    """One granted slot; release it (once or more: only the first counts) when done."""

    def __init__(self, slots: SearchSlots) -> None:
        """Hold a slot of ``slots``."""
        self._slots: SearchSlots | None = slots

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        slots, self._slots = self._slots, None
        if slots is not None:
            slots.give_back()


Granted = Callable[[Lease], None]


class Ticket:
    """A place in line; withdrawing it before it is granted gives it up."""

    def __init__(self, granted: Granted) -> None:
        """Remember who to call when the slot is free."""
        self.granted = granted


class SearchSlots:
    """At most ``limit`` searches at once; the rest wait in line."""

    def __init__(self, limit: int, max_waiting: int = 64) -> None:
        """Allow ``limit`` searches at once and ``max_waiting`` bounded waiters."""
        if limit < 1:
            raise ValueError(f"at least one search slot is needed, not {limit}")
        self.limit = limit
        self.max_waiting = max_waiting
        self.active = 0
        self.peak = 0
        """Most slots ever held at once."""
        self._line: collections.deque[tuple[Ticket, bool]] = collections.deque()

    @property
    def waiting(self) -> int:
        """Searches waiting for a slot."""
        return len(self._line)

    def request(self, granted: Granted, bounded: bool = True) -> Ticket:
        """Call ``granted(lease)`` now or when a slot frees; ``BusyError`` if the line is full.

        ``bounded`` requests (HTTP) count against ``max_waiting``; the others (tabs,
        whose number is bounded anyway) always get in line.
        """
        ticket = Ticket(granted)
        if self.active < self.limit and not self._line:
            self._grant(ticket)
            return ticket
        if bounded and sum(b for _, b in self._line) >= self.max_waiting:
            raise BusyError(f"the server is busy ({self.active} searches running): try again")
        self._line.append((ticket, bounded))
        return ticket

    def withdraw(self, ticket: Ticket) -> None:
        """Leave the line (nothing happens if ``ticket`` was already granted)."""
        self._line = collections.deque(entry for entry in self._line if entry[0] is not ticket)

    async def acquire(self) -> Lease:
        """Wait for a slot (``BusyError`` if the line is full); the caller releases the lease."""
        future: asyncio.Future[Lease] = asyncio.get_running_loop().create_future()
        ticket = self.request(future.set_result)
        try:
            return await future
        except asyncio.CancelledError:
            self.withdraw(ticket)
            if future.done() and not future.cancelled():
                future.result().release()
            raise

    def give_back(self) -> None:
        """A lease has ended: hand the slot to the next in line."""
        self.active -= 1
        while self._line and self.active < self.limit:
            ticket, _ = self._line.popleft()
            try:
                self._grant(ticket)
            except Exception:  # one holder's failure must not stall the line
                _log.exception("starting a waiting search failed")

    def _grant(self, ticket: Ticket) -> None:
        """Hand a slot to ``ticket``'s holder (taking it back if the holder fails)."""
        self.active += 1
        self.peak = max(self.peak, self.active)
        lease = Lease(self)
        try:
            ticket.granted(lease)
        except BaseException:
            lease.release()
            raise
