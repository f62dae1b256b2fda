"""Depth-first graph search: follow one branch as deep as it goes, then back up.

Complete on finite problems (it never expands a state twice) but the path it
returns can be far from the shortest.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Node, Problem
from plies.pathfinding.result import SearchResult

S = TypeVar("S", bound=Hashable)


def depth_first_search(problem: Problem[S, Any], record: bool = True) -> SearchResult[S]:
    """Find a path by always expanding the most recently generated node."""
    stack: list[Node[S, Any]] = [Node(problem.initial)]
    explored: set[S] = set()
    expanded = 0
    max_frontier = 1
    order: list[S] = []
    while stack:
        node = stack.pop()
        state = node.state
        if state in explored:
            continue
        explored.add(state)
        expanded += 1
        if record:
            order.append(state)
        if problem.goal_test(state):
            frontier = list(dict.fromkeys(n.state for n in stack if n.state not in explored))
            return SearchResult(
                "dfs",
                node.path(),
                node.path_cost,
                expanded,
                max_frontier,
                order,
                frontier if record else [],
            )
        # Reversed so that the problem's first action is explored first.
        children = [
            node.child(action, nxt, cost)
            for action, nxt, cost in problem.successors(state)
            if nxt not in explored
        ]
        stack.extend(reversed(children))
        if len(stack) > max_frontier:
            max_frontier = len(stack)
    return SearchResult.failure("dfs", expanded, max_frontier, order)
