"""Bidirectional uniform-cost search: Dijkstra from the start and from the goal at once.

Each round expands one node on the side whose frontier is smaller.  Every
time an edge links a state reached from both sides, the cheapest such
connection ``mu`` is updated; the search stops when the two smallest
frontier costs add up to at least ``mu``, which proves no cheaper path
exists.  Needs a single goal state and a problem that can list
predecessors.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

S = TypeVar("S", bound=Hashable)


class _Side:
    """One direction of the search: its costs, parents, closed set and heap."""

    def __init__(self, root: Hashable, neighbours: Callable[[Any], Iterable[tuple[Any, float]]]):
        """Start a search tree at ``root`` that grows through ``neighbours``."""
        self.g: dict[Any, float] = {root: 0.0}
        self.parent: dict[Any, Any] = {root: None}
        self.closed: set[Any] = set()
        self.heap: list[tuple[float, int, Any]] = [(0.0, 0, root)]
        self.neighbours = neighbours
        self.open_count = 1

    def top(self) -> float:
        """Smallest cost on the heap after dropping closed entries (inf when empty)."""
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


def bidirectional_search(problem: Problem[S, Any], record: bool = True) -> SearchResult[S]:
    """Find a cheapest path by searching forwards from the start and backwards from the goal."""
    start, goal = problem.initial, problem.goal
    if start == goal:
        return SearchResult("bidirectional", [start], 0.0, 0, 1, [], [])

    def forward(state: S) -> Iterable[tuple[S, float]]:
        """Successor states with step costs."""
        return ((nxt, cost) for _, nxt, cost in problem.successors(state))

    sides = (_Side(start, forward), _Side(goal, problem.predecessors))
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
        dist, _, state = heapq.heappop(side.heap)
        side.closed.add(state)
        side.open_count -= 1
        expanded += 1
        if record:
            order.append(state)
        for nxt, cost in side.neighbours(state):
            nd = dist + cost
            old = side.g.get(nxt)
            if old is None or nd < old:
                if old is None:
                    side.open_count += 1
                elif nxt in side.closed:
                    continue  # non-negative costs: a closed state is already optimal
                side.g[nxt] = nd
                side.parent[nxt] = state
                counter += 1
                heapq.heappush(side.heap, (nd, counter, nxt))
            if nxt in other.g:
                total = side.g[nxt] + other.g[nxt]
                if total < mu:
                    mu = total
                    meet = nxt
        max_frontier = max(max_frontier, sides[0].open_count + sides[1].open_count)
    if meet is None:
        return SearchResult.failure("bidirectional", expanded, max_frontier, order)
    path = sides[0].chain(meet)[::-1] + sides[1].chain(meet)[1:]
    frontier: list[S] = []
    if record:
        for side in sides:
            frontier.extend(s for s in side.g if s not in side.closed)
    return SearchResult("bidirectional", path, mu, expanded, max_frontier, order, frontier)
