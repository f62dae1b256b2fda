"""The search-problem abstraction (AIMA style): a ``Problem`` and the ``Node`` of a search tree.

A problem names its initial state and goal, the actions available in a state,
the state each action leads to, what a step costs and a heuristic estimate of
the cost still to pay.  Search algorithms only talk to problems through this
interface; concrete problems (grids, graphs) override ``successors`` and
``predecessors`` with fast versions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from plies.pathfinding.result import SearchResult

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")


class Problem(ABC, Generic[S, A]):
    """A search problem: an initial state, a goal, and how actions move between states."""

    def __init__(self, initial: S, goal: S) -> None:
        """Store the initial state and the goal state."""
        self.initial = initial
        self.goal = goal

    @abstractmethod
    def actions(self, state: S) -> Iterable[A]:
        """Return the actions that can be taken in ``state``."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """Return the state that ``action`` leads to from ``state``."""

    def goal_test(self, state: S) -> bool:
        """Return True when ``state`` is the goal."""
        return state == self.goal

    def step_cost(self, state: S, action: A, next_state: S) -> float:
        """Return the cost of one step; unit cost unless a problem says otherwise."""
        return 1.0

    def path_cost(self, cost_so_far: float, state: S, action: A, next_state: S) -> float:
        """Return the cost of a path that extends one costing ``cost_so_far`` by one step."""
        return cost_so_far + self.step_cost(state, action, next_state)

    def heuristic(self, state: S) -> float:
        """Return an estimate of the cost from ``state`` to the goal (0 = no knowledge)."""
        return 0.0

    def start_heuristic(self, state: S) -> float:
        """Return an estimate of the cost from the start to ``state`` (for bidirectional A*)."""
        return 0.0

    def successors(self, state: S) -> Iterable[tuple[A, S, float]]:
        """Yield ``(action, next_state, step_cost)`` for every action in ``state``."""
        for action in self.actions(state):
            nxt = self.result(state, action)
            yield action, nxt, self.step_cost(state, action, nxt)

    def predecessors(self, state: S) -> Iterable[tuple[S, float]]:
        """Yield ``(previous_state, step_cost)`` for every step that ends in ``state``."""
        raise NotImplementedError(f"{type(self).__name__} cannot be searched backwards")
        yield  # pragma: no cover - makes this a generator for the type checker

    def picture_png(self, result: SearchResult[Any]) -> bytes | None:
        """Return ``result`` drawn on this problem as PNG bytes (None: nothing to draw).

        What Jupyter shows for a result (``SearchResult._repr_png_``); grid and
        graph problems draw what ``plies maze`` and ``plies graph`` draw.
        """
        return None


@dataclass(slots=True, eq=False)
class Node(Generic[S, A]):
    """A node of a search tree: a state, the step that reached it and the cost so far."""

    state: S
    parent: Node[S, A] | None = None
    action: A | None = None
    path_cost: float = 0.0
    depth: int = 0

    def child(self, action: A, state: S, step_cost: float) -> Node[S, A]:
        """Return the child node reached by ``action`` at ``step_cost``."""
        return Node(state, self, action, self.path_cost + step_cost, self.depth + 1)

    def expand(self, problem: Problem[S, A]) -> list[Node[S, A]]:
        """Return the child nodes of this node, in the problem's action order."""
        return [self.child(a, s, c) for a, s, c in problem.successors(self.state)]

    def path(self) -> list[S]:
        """Return the states from the root to this node."""
        states: list[S] = []
        node: Node[S, A] | None = self
        while node is not None:
            states.append(node.state)
            node = node.parent
        states.reverse()
        return states
