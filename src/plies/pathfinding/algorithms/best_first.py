"""Best-first search over any ``Problem``, and the three searches made of it: UCS, greedy, A*.

Uniform cost (Dijkstra) orders by the path cost ``g`` and is always optimal;
greedy best-first by the heuristic alone, fast with a good heuristic but not
always cheapest (closed nodes are never reopened); A* by ``g + h``, optimal
with an admissible heuristic.  On grid problems the three run on the
compiled kernels unless ``engine`` is "python" (see ``engine``).

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

from .engine import run_compiled, use_compiled
from .open_list import OpenList, relax

S = TypeVar("S", bound=Hashable)

# Priorities are rounded with ``(f + TIE_SHIFT) - TIE_SHIFT`` (to a multiple of
# 2**-32 below 2**20), so two sums of the same steps taken in a different
# order, which differ in the last bits, still count as a tie.
TIE_SHIFT = 2.0**20

WEIGHTS = {"ucs": (1.0, 0.0, True), "greedy": (0.0, 1.0, False), "astar": (1.0, 1.0, True)}
"""Each search made of best-first search: (g weight, h weight, reopen closed nodes)."""


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


def _weighted(name: str, problem: Problem[S, Any], record: bool, engine: str) -> SearchResult[S]:
    """Run the search ``name`` of ``WEIGHTS``: compiled on grid problems unless ``engine``
    is "python", else ``best_first_search`` with its weights."""
    if use_compiled(problem, engine):
        return run_compiled(name, problem, record)  # type: ignore[arg-type, return-value]
    g_weight, h_weight, reopen = WEIGHTS[name]
    return best_first_search(problem, g_weight, h_weight, name, reopen, record)


def uniform_cost_search(problem: Problem[S, Any], record: bool = True,
                        engine: str = "auto") -> SearchResult[S]:
    """Find a cheapest path by expanding nodes in order of path cost (Dijkstra)."""
    return _weighted("ucs", problem, record, engine)


def greedy_best_first_search(problem: Problem[S, Any], record: bool = True,
                             engine: str = "auto") -> SearchResult[S]:
    """Find a path by expanding nodes in order of heuristic value alone (not always cheapest)."""
    return _weighted("greedy", problem, record, engine)


def astar_search(problem: Problem[S, Any], record: bool = True,
                 engine: str = "auto") -> SearchResult[S]:
    """Find a cheapest path with A* using the problem's heuristic (admissible: optimal)."""
    return _weighted("astar", problem, record, engine)
