"""A weighted graph, directed or not, whose nodes may carry (x, y) coordinates."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from typing import Any

from plies.pathfinding.errors import PathfindingError, UnknownNodeError

Point = tuple[float, float]


class Graph:
    """Nodes with optional coordinates, joined by edges of non-negative weight.

    Undirected edges are stored in both directions.  Adding an edge that
    exists keeps the smaller weight (a parallel edge that costs more is never
    useful to a shortest path).
    """

    def __init__(self, directed: bool = False) -> None:
        """An empty graph."""
        self.directed = directed
        self._succ: dict[Hashable, dict[Hashable, float]] = {}
        self._pred: dict[Hashable, dict[Hashable, float]] = {}
        self._pos: dict[Hashable, Point] = {}

    def add_node(self, node: Hashable, pos: Point | None = None) -> None:
        """Add ``node`` (if new) and set its coordinates when given."""
        if node not in self._succ:
            self._succ[node] = {}
            self._pred[node] = {}
        if pos is not None:
            x, y = float(pos[0]), float(pos[1])
            if not (math.isfinite(x) and math.isfinite(y)):
                raise PathfindingError(f"coordinates of node {node!r} must be finite")
            self._pos[node] = (x, y)

    def add_edge(self, u: Hashable, v: Hashable, weight: float = 1.0) -> None:
        """Add an edge from ``u`` to ``v`` (both ways when undirected)."""
        w = float(weight)
        if not (w >= 0.0 and math.isfinite(w)):
            raise PathfindingError(f"edge {u!r}-{v!r}: weight must be finite and >= 0, got {w}")
        self.add_node(u)
        self.add_node(v)
        self._set(u, v, w)
        if not self.directed:
            self._set(v, u, w)

    def _set(self, u: Hashable, v: Hashable, w: float) -> None:
        """Store the arc u -> v, keeping the cheaper of two parallel arcs."""
        old = self._succ[u].get(v)
        if old is None or w < old:
            self._succ[u][v] = w
            self._pred[v][u] = w

    # -- queries ----------------------------------------------------------------

    def __contains__(self, node: object) -> bool:
        """True when ``node`` is in the graph."""
        return node in self._succ

    def __len__(self) -> int:
        """Number of nodes."""
        return len(self._succ)

    @property
    def nodes(self) -> list[Hashable]:
        """All nodes, in insertion order."""
        return list(self._succ)

    def edges(self) -> Iterator[tuple[Hashable, Hashable, float]]:
        """Every edge once: ``(u, v, weight)``."""
        seen: set[tuple[Hashable, Hashable]] = set()
        for u, nbrs in self._succ.items():
            for v, w in nbrs.items():
                if not self.directed:
                    if (v, u) in seen:
                        continue
                    seen.add((u, v))
                yield u, v, w

    def edge_count(self) -> int:
        """Number of edges (each undirected edge once)."""
        return sum(1 for _ in self.edges())

    def successors(self, node: Hashable) -> dict[Hashable, float]:
        """Nodes reachable in one step from ``node``, with edge weights."""
        return self._succ[node]

    def predecessors(self, node: Hashable) -> dict[Hashable, float]:
        """Nodes with an edge into ``node``, with edge weights."""
        return self._pred[node]

    def weight(self, u: Hashable, v: Hashable) -> float:
        """Weight of the edge u -> v (KeyError when absent)."""
        return self._succ[u][v]

    def pos(self, node: Hashable) -> Point | None:
        """Coordinates of ``node``, if it has any."""
        return self._pos.get(node)

    @property
    def has_coordinates(self) -> bool:
        """True when every node has coordinates."""
        return bool(self._succ) and all(n in self._pos for n in self._succ)

    def check_node(self, node: Hashable, what: str = "node") -> None:
        """Raise ``UnknownNodeError`` unless ``node`` is in the graph."""
        if node not in self._succ:
            raise UnknownNodeError(f"unknown {what} {node!r}")

    def resolve(self, name: str, what: str = "node") -> Hashable:
        """The node whose string form is ``name`` (nodes read from files are strings)."""
        if name in self._succ:
            return name
        for node in self._succ:
            if str(node) == name:
                return node
        raise UnknownNodeError(f"unknown {what} {name!r}")

    # -- networkx ---------------------------------------------------------------

    @classmethod
    def from_networkx(cls, nxg: Any, weight: str = "weight", pos: str = "pos") -> Graph:
        """Copy a networkx graph; edge attribute ``weight`` (default 1), node ``pos`` or x/y."""
        if nxg.is_multigraph():
            raise PathfindingError("multigraphs are not supported; convert to a simple graph")
        g = cls(directed=bool(nxg.is_directed()))
        for node, data in nxg.nodes(data=True):
            p = data.get(pos)
            if p is None and "x" in data and "y" in data:
                p = (data["x"], data["y"])
            g.add_node(node, None if p is None else (float(p[0]), float(p[1])))
        for u, v, data in nxg.edges(data=True):
            g.add_edge(u, v, float(data.get(weight, 1.0)))
        return g

    def to_networkx(self, weight: str = "weight", pos: str = "pos") -> Any:
        """A networkx ``Graph``/``DiGraph`` with the same nodes, weights and coordinates."""
        import networkx as nx

        nxg = nx.DiGraph() if self.directed else nx.Graph()
        for node in self._succ:
            p = self._pos.get(node)
            if p is None:
                nxg.add_node(node)
            else:
                nxg.add_node(node, **{pos: p})
        for u, v, w in self.edges():
            nxg.add_edge(u, v, **{weight: w})
        return nxg

    def __repr__(self) -> str:
        """Short description."""
        kind = "directed" if self.directed else "undirected"
        return f"Graph({len(self)} nodes, {self.edge_count()} edges, {kind})"
