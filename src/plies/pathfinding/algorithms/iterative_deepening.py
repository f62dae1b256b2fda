"""Iterative deepening depth-first search: depth-limited DFS with limits 0, 1, 2, ...

It finds a path with the fewest moves using memory proportional to the
depth.  Plain tree search would re-walk every path of a grid exponentially
often, so each iteration remembers the shallowest depth at which it reached a
state and prunes a state reached again no shallower; it only re-expands a
state when a shorter route to it gives it more depth to spend.  Counts add up
over all iterations; ``expansion_order`` is the last iteration's.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Node, Problem
from plies.pathfinding.result import GAVE_UP, SearchResult

S = TypeVar("S", bound=Hashable)


def iterative_deepening_search(
    problem: Problem[S, Any],
    max_depth: int | None = None,
    max_expansions: int | None = None,
    record: bool = True,
) -> SearchResult[S]:
    """Find a path with the fewest moves by depth-limited searches of growing depth.

    Gives up (``status == "gave up"``) past ``max_depth`` or after
    ``max_expansions`` expansions in total.
    """
    expanded = 0
    max_frontier = 1
    order: list[S] = []
    limit = 0
    while max_depth is None or limit <= max_depth:
        order = []
        best_depth: dict[S, int] = {problem.initial: 0}
        stack: list[Node[S, Any]] = [Node(problem.initial)]
        cut_off = False
        while stack:
            node = stack.pop()
            state = node.state
            if best_depth[state] < node.depth:
                continue  # a shallower route to this state was pushed later
            expanded += 1
            if record:
                order.append(state)
            if problem.goal_test(state):
                frontier = list(dict.fromkeys(n.state for n in stack)) if record else []
                return SearchResult(
                    "iddfs", node.path(), node.path_cost, expanded, max_frontier, order, frontier
                )
            if max_expansions is not None and expanded >= max_expansions:
                return SearchResult.failure("iddfs", expanded, max_frontier, order, GAVE_UP)
            if node.depth == limit:
                cut_off = True
                continue
            for child in reversed(node.expand(problem)):
                known = best_depth.get(child.state)
                if known is None or child.depth < known:
                    best_depth[child.state] = child.depth
                    stack.append(child)
            if len(stack) > max_frontier:
                max_frontier = len(stack)
        if not cut_off:
            return SearchResult.failure("iddfs", expanded, max_frontier, order)
        limit += 1
    return SearchResult.failure("iddfs", expanded, max_frontier, order, GAVE_UP)
