"""A transposition table: values of already-searched states, keyed by ``Game.key``."""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic

from plies.games.protocol import A

#: The depth stored for a value that did not depend on any depth cutoff: it holds at any depth.
RESOLVED = 1 << 30


class Bound(enum.Enum):
    """How a stored value relates to the true value of its state."""

    EXACT = 0
    #: The true value is at least the stored one (the search failed high).
    LOWER = 1
    #: The true value is at most the stored one (the search failed low).
    UPPER = 2


@dataclass(frozen=True, slots=True)
class Entry(Generic[A]):
    """One stored search result, for the player to move at its state."""

    #: Plies searched below the state (:data:`RESOLVED` when no cutoff was involved).
    depth: int
    value: float
    bound: Bound
    #: The best (or refuting) action found, searched first next time.
    action: A | None


class TranspositionTable(Generic[A]):
    """A bounded map from state keys to :class:`Entry`; emptied when it fills up.

    Keep one table across the iterations of iterative deepening (and across moves of one
    game) so that earlier work orders and shortens later searches.
    """

    def __init__(self, max_entries: int = 1_000_000) -> None:
        """Create an empty table holding at most ``max_entries`` states."""
        if max_entries < 1:
            raise ValueError(f"max_entries must be >= 1, not {max_entries}")
        self.max_entries = max_entries
        self._entries: dict[Hashable, Entry[A]] = {}

    def __len__(self) -> int:
        """Return the number of stored states."""
        return len(self._entries)

    def get(self, key: Hashable) -> Entry[A] | None:
        """Return the entry stored for ``key``, if any."""
        return self._entries.get(key)

    def put(self, key: Hashable, entry: Entry[A]) -> None:
        """Store ``entry`` for ``key``, keeping a deeper entry already there."""
        old = self._entries.get(key)
        if old is not None and old.depth > entry.depth:
            return
        if old is None and len(self._entries) >= self.max_entries:
            # Wholesale clearing is crude but never serves a stale entry and costs O(1)
            # amortised; a table sized to the search rarely needs it.
            self._entries.clear()
        self._entries[key] = entry

    def clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()
