"""Path finding on a ``Graph`` as a ``Problem``: states are nodes, actions are target nodes.

The coordinate heuristics (Euclidean, Manhattan, octile) are scaled down,
when needed, by the smallest ratio of edge weight to coordinate distance over
all edges.  That makes them consistent, so A* stays optimal on any graph,
whatever its coordinates mean; on graphs whose weights are at least the
distances (road maps) the scale is 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from plies.pathfinding.graph import Graph
from plies.pathfinding.heuristics import get_heuristic
from plies.pathfinding.problem import Problem

if TYPE_CHECKING:
    from plies.pathfinding.result import SearchResult


class GraphProblem(Problem[Hashable, Hashable]):
    """Go from ``start`` to ``goal`` along the edges of ``graph``."""

    def __init__(
        self, graph: Graph, start: Hashable, goal: Hashable, heuristic: str = "auto"
    ) -> None:
        """Check the nodes and set up the heuristic ("auto": Euclidean with coordinates)."""
        graph.check_node(start, "start node")
        graph.check_node(goal, "goal node")
        super().__init__(start, goal)
        self.graph = graph
        if heuristic == "auto":
            heuristic = "euclidean" if graph.has_coordinates else "zero"
        self._h = get_heuristic(heuristic)
        if heuristic != "zero" and not graph.has_coordinates:
            heuristic = "zero"
        self.heuristic_name = heuristic
        self.heuristic_scale = self._consistent_scale() if heuristic != "zero" else 0.0
        self._goal_pos = graph.pos(goal)

    def _consistent_scale(self) -> float:
        """The largest factor <= 1 for which the heuristic never exceeds an edge's weight."""
        scale = 1.0
        for u, v, w in self.graph.edges():
            pu, pv = self.graph.pos(u), self.graph.pos(v)
            if pu is None or pv is None:
                return 0.0
            d = self._h(abs(pu[0] - pv[0]), abs(pu[1] - pv[1]))
            if d > 0 and w < scale * d:
                scale = w / d
        return scale

    def actions(self, state: Hashable) -> list[Hashable]:
        """The nodes one edge away."""
        return list(self.graph.successors(state))

    def result(self, state: Hashable, action: Hashable) -> Hashable:
        """Following an edge leads to its target node."""
        return action

    def step_cost(self, state: Hashable, action: Hashable, next_state: Hashable) -> float:
        """The edge's weight."""
        return self.graph.weight(state, next_state)

    def heuristic(self, state: Hashable) -> float:
        """Scaled coordinate distance to the goal (0 without coordinates)."""
        if self.heuristic_scale == 0.0 or self._goal_pos is None:
            return 0.0
        p = self.graph.pos(state)
        if p is None:
            return 0.0
        gp = self._goal_pos
        return self.heuristic_scale * self._h(abs(p[0] - gp[0]), abs(p[1] - gp[1]))

    def start_heuristic(self, state: Hashable) -> float:
        """Scaled coordinate distance from the start (0 without coordinates)."""
        start = self.graph.pos(self.initial)
        if self.heuristic_scale == 0.0 or start is None:
            return 0.0
        p = self.graph.pos(state)
        if p is None:
            return 0.0
        return self.heuristic_scale * self._h(abs(p[0] - start[0]), abs(p[1] - start[1]))

    def successors(self, state: Hashable) -> Iterable[tuple[Hashable, Hashable, float]]:
        """Out-edges as ``(target, target, weight)``."""
        return [(v, v, w) for v, w in self.graph.successors(state).items()]

    def predecessors(self, state: Hashable) -> Iterable[tuple[Hashable, float]]:
        """In-edges as ``(source, weight)``."""
        return self.graph.predecessors(state).items()

    def picture_png(self, result: SearchResult[Any]) -> bytes:
        """Return ``result`` drawn on the graph as ``plies graph`` draws it, as PNG bytes."""
        # Imported here: drawing needs Pillow, which searching does not.
        from plies.pathfinding.render.graph_drawing import draw_graph
        from plies.pathfinding.render.notebook import png_bytes

        return png_bytes(draw_graph(self.graph, result, self.initial, self.goal))
