"""Bidirectional search: from the start and from the goal at once (Dijkstra or A*).

Each round expands one node on the side whose frontier is smaller.  Every
time an edge links a state reached from both sides, the cheapest such
connection ``mu`` is updated; the search stops when the two smallest
frontier keys add up to at least ``mu``, which proves no cheaper path
exists.  Needs a single goal state and a problem that can list
predecessors.

Plain, the keys are path costs (bidirectional Dijkstra).  With
``heuristic`` (bidirectional A*), both sides use the balanced potential
``p(s) = (h_goal(s) - h_start(s)) / 2``: the forward key is ``g + p``, the
backward key ``g - p``.  That is Dijkstra from both ends on edge costs
``c(u, v) - p(u) + p(v)``, which stay non-negative when both heuristics are
consistent, and at a meeting state the two keys add up to the real cost,
so the same stopping rule stays exact while the searches lean towards each
other.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .engine import run_compiled, use_compiled

S = TypeVar("S", bound=Hashable)


class _Side:
    """One direction of the search: its costs, parents, closed set and heap."""

    def __init__(
        self,
        root: Hashable,
        neighbours: Callable[[Any], Iterable[tuple[Any, float]]],
        key: Callable[[Any, float], float],
    ):
        """Start a search tree at ``root`` that grows through ``neighbours``.

        ``key(state, g)`` orders the heap: ``g`` itself, or ``g`` plus a potential.
        """
        self.g: dict[Any, float] = {root: 0.0}
        self.parent: dict[Any, Any] = {root: None}
        self.closed: set[Any] = set()
        self.heap: list[tuple[float, int, Any]] = [(key(root, 0.0), 0, root)]
        self.neighbours = neighbours
        self.key = key
        self.open_count = 1

    def top(self) -> float:
        """Smallest key on the heap after dropping closed entries (inf when empty)."""
        heap = self.heap
        while heap and heap[0][2] in self.closed:
            heapq.heappop(heap)
        return heap[0][0] if heap else math.inf

    def chain(self, state: Any) -> list[Any]:
        """States from ``state`` back to this side's root."""
        out = []
        while state is not None:
            out.append(state)
            state = self.parent[state]
        return out


def bidirectional_search(
    problem: Problem[S, Any],
    record: bool = True,
    heuristic: bool = False,
    engine: str = "auto",
) -> SearchResult[S]:
    """Find a cheapest path by searching forwards from the start and backwards from the goal.

    ``heuristic`` turns bidirectional Dijkstra into bidirectional A*.  Grid
    problems run on the compiled kernel unless ``engine`` is "python".
    """
    name = "bidir-astar" if heuristic else "bidirectional"
    if use_compiled(problem, engine):
        return run_compiled(name, problem, record)  # type: ignore[arg-type, return-value]
    start, goal = problem.initial, problem.goal
    if start == goal:
        return SearchResult(name, [start], 0.0, 0, 1, [], [])

    def forward(state: S) -> Iterable[tuple[S, float]]:
        """Successor states with step costs."""
        return ((nxt, cost) for _, nxt, cost in problem.successors(state))

    def potential(state: S) -> float:
        """Half the difference of the estimates to the goal and to the start."""
        if not heuristic:
            return 0.0
        return (problem.heuristic(state) - problem.start_heuristic(state)) / 2.0

    sides = (
        _Side(start, forward, lambda s, g: g + potential(s)),
        _Side(goal, problem.predecessors, lambda s, g: g - potential(s)),
    )
    mu = math.inf
    meet: Any = None
    counter = 0
    expanded = 0
    max_frontier = 2
    order: list[S] = []
    while True:
        top_f, top_b = sides[0].top(), sides[1].top()
        if top_f == math.inf or top_b == math.inf or top_f + top_b >= mu:
            break
        k = 0 if sides[0].open_count <= sides[1].open_count else 1
        side, other = sides[k], sides[1 - k]
        _, _, state = heapq.heappop(side.heap)
        side.closed.add(state)
        side.open_count -= 1
        expanded += 1
        if record:
            order.append(state)
        dist = side.g[state]
        for nxt, cost in side.neighbours(state):
            nd = dist + cost
            old = side.g.get(nxt)
            if old is None or nd < old:
                if old is None:
                    side.open_count += 1
                elif nxt in side.closed:
                    continue  # consistent keys: a closed state is already optimal
                side.g[nxt] = nd
                side.parent[nxt] = state
                counter += 1
                heapq.heappush(side.heap, (side.key(nxt, nd), counter, nxt))
            if nxt in other.g:
                total = side.g[nxt] + other.g[nxt]
                if total < mu:
                    mu = total
                    meet = nxt
        max_frontier = max(max_frontier, sides[0].open_count + sides[1].open_count)
    if meet is None:
        return SearchResult.failure(name, expanded, max_frontier, order)
    path = sides[0].chain(meet)[::-1] + sides[1].chain(meet)[1:]
    frontier: list[S] = []
    if record:
        for side in sides:
            frontier.extend(s for s in side.g if s not in side.closed)
    return SearchResult(name, path, mu, expanded, max_frontier, order, frontier)
