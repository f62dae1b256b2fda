"""Spending a search budget: the meter every search counts its nodes on, and the signal a
search raises when the budget is spent.

:class:`Budget` is the one every player in plies takes (``Budget(movetime_ms=1000)``,
``Budget(nodes=5000)``), the chess agents as well as the generic searches, which read its
move time and node limit.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

__all__ = ["Budget", "BudgetExceededError", "Meter", "unlimited"]


@dataclass(frozen=True)
class Budget:
    """How much an agent may think about one move; ``None`` means no limit of that kind."""

    depth: int | None = None
    nodes: int | None = None
    movetime_ms: int | None = None
    time_left_ms: int | None = None
    increment_ms: int = 0
    opponent_time_ms: int | None = None
    moves_to_go: int | None = None

    def allotment_seconds(self) -> float | None:
        """Seconds to aim for on this move, from a fixed move time or the clock."""
        if self.movetime_ms is not None:
            return self.movetime_ms / 1000.0
        if self.time_left_ms is None:
            return None
        # Spread the clock over the moves still to come plus half the
        # increment, never more than a fifth of what is left, and keep a
        # little back for lag (a slow Python move must not lose on time).
        left = max(0, self.time_left_ms)
        moves = self.moves_to_go + 1 if self.moves_to_go else 40
        share = left / max(1, moves) + 0.5 * self.increment_ms
        share = min(share, 0.2 * left) - 20
        return max(0.001, share / 1000.0)


def unlimited(budget: Budget | None) -> bool:
    """Return whether ``budget`` sets neither a time nor a node limit."""
    return budget is None or (budget.nodes is None and budget.allotment_seconds() is None)


class BudgetExceededError(Exception):
    """Raised inside a search when its budget runs out; the caller keeps its last result."""


class Meter:
    """Tracks one search's spending against a :class:`Budget`."""

    # Reading the clock at every node would cost more than most nodes do.
    _CLOCK_EVERY = 64

    def __init__(self, budget: Budget | None) -> None:
        """Start the clock; refuse a negative limit."""
        self.start = time.perf_counter()
        nodes = None if budget is None else budget.nodes
        seconds = None if budget is None else budget.allotment_seconds()
        if nodes is not None and nodes < 0:
            raise ValueError(f"budget nodes must be >= 0, not {nodes}")
        if seconds is not None and seconds < 0:
            raise ValueError(f"budget time must be >= 0, not {seconds} s")
        self.max_nodes = sys.maxsize if nodes is None else nodes
        self.deadline = float("inf") if seconds is None else self.start + seconds
        self.nodes = 0
        #: Whether there is any limit to watch (searches just count nodes when there is not).
        self.limited = self.max_nodes != sys.maxsize or self.deadline != float("inf")
        #: Whether :meth:`tick` must be called (a limit, armed); else counting is enough.
        self.watching = self.limited
        self._armed = True

    @property
    def armed(self) -> bool:
        """While False the budget is not enforced (a search must finish its first step)."""
        return self._armed

    @armed.setter
    def armed(self, value: bool) -> None:
        """Arm or disarm the budget."""
        self._armed = value
        self.watching = value and self.limited

    def tick(self) -> None:
        """Count one node; raise :class:`BudgetExceededError` instead if the budget is spent."""
        if self._armed and (
            self.nodes >= self.max_nodes
            or (self.nodes % self._CLOCK_EVERY == 0 and time.perf_counter() >= self.deadline)
        ):
            raise BudgetExceededError
        self.nodes += 1

    def spent(self) -> bool:
        """Return whether the budget is spent, without counting a node."""
        return self.nodes >= self.max_nodes or time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the meter started."""
        return time.perf_counter() - self.start
