"""The one small interface every chess player in plies follows.

An agent has a ``name``, a ``choose(board, budget=None) -> Move`` method and a
``reset(seed=None)`` that is called between games.  ``budget`` says how long it
may think (depth, nodes, a fixed time or its clock); agents that do not think,
like ``random``, ignore it.  After ``choose`` an agent may leave what it saw in
``last`` (a :class:`Thought`: depth, score, nodes, principal variation), which
the arena uses for adjudication and the terminal game for its "thinking" line.
A plain function ``board -> Move`` becomes an agent with :func:`as_agent`.
"""

from __future__ import annotations

import random
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.board import Board, Move


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


@dataclass
class Thought:
    """What an agent found on its last move: used for displays and adjudication."""

    depth: int = 0
    score_cp: int | None = None
    mate_in: int | None = None
    nodes: int = 0
    pv: list[Move] = field(default_factory=list)


class SearchStoppedError(Exception):
    """Raised inside a search when its deadline passed or ``stop()`` was called."""


class Agent(ABC):
    """Base class of the ladder: a name, ``choose``, ``reset`` and a seeded RNG."""

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        """Create the agent; ``seed`` makes its choices reproducible."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.last: Thought | None = None
        self.on_info: Callable[[Thought], None] | None = None
        self._stop = threading.Event()
        self._deadline: float | None = None
        self._soft_deadline: float | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the previous game; a new ``seed`` reseeds the agent's RNG."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self.last = None

    @abstractmethod
    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Return the move to play in ``board`` (never illegal while a legal one exists)."""

    def warm_up(self) -> None:
        """Pay one-off costs (compiling the board code) now rather than on the first move."""
        from plies.board import Board

        self.choose(Board(), Budget(depth=1))
        self.last = None

    def stop(self) -> None:
        """Ask a running ``choose`` (maybe in another thread) to return as soon as it can."""
        self._stop.set()

    def close(self) -> None:
        """Release whatever the agent holds (nothing, for most agents)."""
        return None

    def _begin(self, budget: Budget | None) -> None:
        """Start the clock for one ``choose`` call and clear an old stop request."""
        self._stop.clear()
        allot = budget.allotment_seconds() if budget is not None else None
        now = time.monotonic()
        self._deadline = now + allot if allot is not None else None
        # Past the soft deadline a new (several times longer) iteration is not started.
        self._soft_deadline = now + 0.5 * allot if allot is not None else None

    def _past_soft_deadline(self) -> bool:
        """True when starting another iteration would probably overrun the move's time."""
        return self._soft_deadline is not None and time.monotonic() >= self._soft_deadline

    def _out_of_time(self) -> bool:
        """True once ``stop()`` was called or the move's time is spent."""
        if self._stop.is_set():
            return True
        return self._deadline is not None and time.monotonic() >= self._deadline

    def __repr__(self) -> str:
        """Name and seed, for logs."""
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed!r})"


class FunctionAgent(Agent):
    """An agent made from a plain function ``board -> Move``."""

    def __init__(
        self, func: Callable[[Board], Move], name: str | None = None, seed: int | None = None
    ) -> None:
        """Wrap ``func``; the name defaults to the function's name."""
        super().__init__(seed)
        self.func = func
        self.name = name or str(getattr(func, "__name__", "function"))

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Call the wrapped function."""
        return self.func(board)


def as_agent(player: Agent | Callable[[Board], Move], name: str | None = None) -> Agent:
    """Return ``player`` itself if it is an agent, else wrap the callable."""
    if isinstance(player, Agent):
        return player
    return FunctionAgent(player, name=name)
