"""Generic best-first search over any ``Problem``: the engine behind UCS, greedy and A*.

Nodes are ordered by ``g_weight * g + h`` (h = the problem's heuristic times
``h_weight``); among equal priorities the node generated last goes first
(LIFO, see ``open_list``), which favours deeper nodes and keeps A* from
wandering among ties.
The goal is tested when a node is expanded, which keeps uniform-cost and A*
optimal.  A closed node is reopened when a strictly cheaper path to it turns
up, so A* stays optimal with an admissible heuristic that is not consistent;
with a consistent one that never happens.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Problem
from plies.pathfinding.result import SearchResult

from .open_list import OpenList, relax

S = TypeVar("S", bound=Hashable)

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
    waiting = OpenList(f0, start)
    max_frontier = 1
    expanded = 0
    order: list[S] = []
    for state in waiting.expansions(closed):
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
            if not relax(g, parent, closed, state, nxt, ng, reopen):
                continue
            f = g_weight * ng + (h_weight * problem.heuristic(nxt) if h_weight else 0.0)
            waiting.push((f + TIE_SHIFT) - TIE_SHIFT, nxt)
        max_frontier = max(max_frontier, len(g) - len(closed))
    return SearchResult.failure(name, expanded, max_frontier, order)
