"""Generic best-first search over any ``Problem``: the engine behind UCS, greedy and A*.

Nodes are ordered by ``g_weight * g + h`` (h = the problem's heuristic times
``h_weight``); among equal priorities the node generated last goes first
(LIFO), which favours deeper nodes and keeps A* from wandering among ties.
The goal is tested when a node is expanded, which keeps uniform-cost and A*
optimal.  A closed node is reopened when a strictly cheaper path to it turns
up, so A* stays optimal with an admissible heuristic that is not consistent;
with a consistent one that never happens.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

S = TypeVar("S", bound=Hashable)

# A path counts as cheaper only by more than this relative margin, so float
# rounding in different sums of the same steps never reopens a node.
REOPEN_EPSILON = 1e-9

# Priorities are rounded with ``(f + TIE_SHIFT) - TIE_SHIFT`` (to a multiple of
# 2**-32 below 2**20), so two sums of the same steps taken in a different
# order, which differ in the last bits, still count as a tie.
TIE_SHIFT = 2.0**20


def best_first_search(
    problem: Problem[S, Any],
    g_weight: float,
    h_weight: float,
    name: str,
    reopen: bool = True,
    record: bool = True,
) -> SearchResult[S]:
    """Run best-first search with priority ``g_weight * g + h_weight * h``."""
    start = problem.initial
    f0 = h_weight * problem.heuristic(start) if h_weight else 0.0
    f0 = (f0 + TIE_SHIFT) - TIE_SHIFT
    g: dict[S, float] = {start: 0.0}
    parent: dict[S, S | None] = {start: None}
    closed: set[S] = set()
    # A heap of distinct priorities, each with a LIFO list of its nodes.
    heap = [f0]
    buckets: dict[float, list[S]] = {f0: [start]}
    open_count = 1
    max_frontier = 1
    expanded = 0
    order: list[S] = []
    push = heapq.heappush
    pop = heapq.heappop
    while heap:
        f = heap[0]
        bucket = buckets[f]
        state = bucket.pop()
        if not bucket:
            del buckets[f]
            pop(heap)
        if state in closed:
            continue
        closed.add(state)
        open_count -= 1
        expanded += 1
        if record:
            order.append(state)
        if problem.goal_test(state):
            path: list[S] = []
            node: S | None = state
            while node is not None:
                path.append(node)
                node = parent[node]
            path.reverse()
            frontier = [s for s in g if s not in closed] if record else []
            return SearchResult(name, path, g[state], expanded, max_frontier, order, frontier)
        g_state = g[state]
        for _, nxt, step in problem.successors(state):
            ng = g_state + step
            old = g.get(nxt)
            if old is not None:
                if ng >= old:
                    continue
                if nxt in closed:
                    if not reopen or ng >= old - REOPEN_EPSILON * (1.0 + old):
                        continue
                    closed.discard(nxt)
                    open_count += 1
            else:
                open_count += 1
            g[nxt] = ng
            parent[nxt] = state
            f = g_weight * ng + (h_weight * problem.heuristic(nxt) if h_weight else 0.0)
            f = (f + TIE_SHIFT) - TIE_SHIFT
            bucket = buckets.get(f)  # type: ignore[assignment]
            if bucket is None:
                buckets[f] = [nxt]
                push(heap, f)
            else:
                bucket.append(nxt)
        if open_count > max_frontier:
            max_frontier = open_count
    return SearchResult.failure(name, expanded, max_frontier, order)
