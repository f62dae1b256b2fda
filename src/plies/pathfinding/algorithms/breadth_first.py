"""Breadth-first search: expand states in order of depth; shortest in number of moves.

The goal is tested when a node is generated (the AIMA refinement), which is
safe because every later node is at least as deep.  With unit step costs the
path is also the cheapest; with diagonal or weighted steps it need not be.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any, TypeVar

from plies.pathfinding.problem import Node, Problem
from plies.pathfinding.result import SearchResult

from .engine import run_compiled, use_compiled

S = TypeVar("S", bound=Hashable)


def breadth_first_search(
    problem: Problem[S, Any], record: bool = True, engine: str = "auto"
) -> SearchResult[S]:
    """Find a path with the fewest moves (grids run compiled unless ``engine`` is "python")."""
    if use_compiled(problem, engine):
        return run_compiled("bfs", problem, record)  # type: ignore[arg-type, return-value]
    root: Node[S, Any] = Node(problem.initial)
    if problem.goal_test(root.state):
        return SearchResult("bfs", [root.state], 0.0, 0, 1, [], [root.state])
    frontier: deque[Node[S, Any]] = deque([root])
    reached: set[S] = {root.state}
    expanded = 0
    max_frontier = 1
    order: list[S] = []
    while frontier:
        node = frontier.popleft()
        expanded += 1
        if record:
            order.append(node.state)
        for action, state, cost in problem.successors(node.state):
            if state in reached:
                continue
            child = node.child(action, state, cost)
            if problem.goal_test(state):
                waiting = [n.state for n in frontier] if record else []
                return SearchResult(
                    "bfs", child.path(), child.path_cost, expanded, max_frontier, order, waiting
                )
            reached.add(state)
            frontier.append(child)
        if len(frontier) > max_frontier:
            max_frontier = len(frontier)
    return SearchResult.failure("bfs", expanded, max_frontier, order)
