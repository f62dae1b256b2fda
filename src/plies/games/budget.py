"""A search budget in seconds and/or nodes, and the signal a search raises when it is spent."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass


class BudgetExceededError(Exception):
    """Raised inside a search when its budget runs out; the caller keeps its last result."""


@dataclass(frozen=True)
class Budget:
    """Limits for an anytime search; ``None`` means no limit of that kind."""

    #: Wall-clock seconds.
    seconds: float | None = None
    #: States visited.
    nodes: int | None = None

    def __post_init__(self) -> None:
        """Refuse negative limits."""
        if self.seconds is not None and self.seconds < 0:
            raise ValueError(f"budget seconds must be >= 0, not {self.seconds}")
        if self.nodes is not None and self.nodes < 0:
            raise ValueError(f"budget nodes must be >= 0, not {self.nodes}")

    @property
    def unlimited(self) -> bool:
        """Whether neither limit is set."""
        return self.seconds is None and self.nodes is None

    def deadline(self, start: float) -> float:
        """Return the ``time.perf_counter()`` instant at which the time runs out."""
        return float("inf") if self.seconds is None else start + self.seconds


class Meter:
    """Tracks one search's spending against a :class:`Budget`."""

    # Reading the clock at every node would cost more than most nodes do.
    _CLOCK_EVERY = 64

    def __init__(self, budget: Budget | None) -> None:
        """Start the clock."""
        self.start = time.perf_counter()
        nodes = None if budget is None else budget.nodes
        self.max_nodes = sys.maxsize if nodes is None else nodes
        self.deadline = budget.deadline(self.start) if budget is not None else float("inf")
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
