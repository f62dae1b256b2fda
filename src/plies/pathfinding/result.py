"""The answer of a search: path, cost and the statistics used for tables and pictures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

S = TypeVar("S")

FOUND = "found"
NO_PATH = "no path"
GAVE_UP = "gave up"


@dataclass
class SearchResult(Generic[S]):
    """What a search found and what it did to find it.

    ``path`` is None when there is no path (or the search gave up, see
    ``status``).  ``expansion_order`` lists states in the order they were
    expanded; ``frontier`` holds the states still waiting when the search
    stopped.
    """

    algorithm: str
    path: list[S] | None
    cost: float
    expanded: int
    max_frontier: int
    expansion_order: Sequence[S] = field(default_factory=list)
    frontier: Sequence[S] = field(default_factory=list)
    status: str = FOUND
    time_s: float = 0.0
    #: The problem searched, which the picture needs (set by ``run_algorithm``).
    problem: Any = field(default=None, repr=False, compare=False)

    def _repr_png_(self) -> bytes | None:
        """The picture ``plies maze`` or ``plies graph`` draws: how Jupyter shows a result.

        The problem draws it, so this module needs nothing from the pictures.
        """
        return None if self.problem is None else self.problem.picture_png(self)

    @property
    def found(self) -> bool:
        """True when a path was found."""
        return self.path is not None

    @property
    def steps(self) -> int | None:
        """Number of moves on the path, or None without a path."""
        return None if self.path is None else len(self.path) - 1

    @classmethod
    def failure(
        cls,
        algorithm: str,
        expanded: int,
        max_frontier: int,
        expansion_order: Sequence[S],
        status: str = NO_PATH,
    ) -> SearchResult[S]:
        """Build the result of a search that found no path."""
        return cls(algorithm, None, math.inf, expanded, max_frontier, expansion_order, [], status)
