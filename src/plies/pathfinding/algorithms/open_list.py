"""The open list of the readable best-first searches, and relaxing an edge into it.

A heap of distinct priorities, each with a LIFO list of the states pushed
under it: among equal priorities the state generated last comes out first,
which favours deeper states and keeps A* from wandering among ties.  Pushing
under a priority already open touches no heap.  Entries are never updated: a
state is pushed again when its cost improves and skipped, once closed, when
it surfaces again.  The compiled kernels lay the same list out over arrays
(``compiled.bucket_queue``), so both pop states in the same order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")
P = TypeVar("P")

# A path counts as cheaper only by more than this relative margin, so float
# rounding in different sums of the same steps never reopens a state.
REOPEN_EPSILON = 1e-9


class OpenList(Generic[T]):
    """States waiting for expansion, smallest priority first, newest first among equals."""

    def __init__(self, priority: float, state: T) -> None:
        """An open list holding ``state`` under ``priority``."""
        self._heap = [priority]
        self._states: dict[float, list[T]] = {priority: [state]}

    def __bool__(self) -> bool:
        """True while some state waits."""
        return bool(self._heap)

    def pop(self) -> T:
        """Remove and return the newest state of the smallest priority."""
        priority = self._heap[0]
        states = self._states[priority]
        state = states.pop()
        if not states:
            del self._states[priority]
            heapq.heappop(self._heap)
        return state

    def expansions(self, closed: set[T]) -> Iterator[T]:
        """Pop states in order until none waits, skipping closed ones: close each other one
        and yield it (states pushed meanwhile take their place in the order)."""
        while self._heap:
            state = self.pop()
            if state not in closed:
                closed.add(state)
                yield state

    def push(self, priority: float, state: T) -> None:
        """Add ``state`` under ``priority``."""
        states = self._states.get(priority)
        if states is None:
            self._states[priority] = [state]
            heapq.heappush(self._heap, priority)
        else:
            states.append(state)


def relax(g: dict[T, float], parent: dict[T, P], closed: set[T], via: P, state: T, cost: float,
          reopen: bool) -> bool:
    """Give ``state`` the cost ``cost`` through ``via`` if that is cheaper; True if it did.

    A closed state reopens only with ``reopen`` and a saving beyond
    ``REOPEN_EPSILON``.  The states open are then those in ``g`` but not in
    ``closed``: their count is ``len(g) - len(closed)``.
    """
    old = g.get(state)
    if old is not None:
        if cost >= old:
            return False
        if state in closed:
            if not reopen or cost >= old - REOPEN_EPSILON * (1.0 + old):
                return False
            closed.discard(state)
    g[state] = cost
    parent[state] = via
    return True
