"""Shared helpers for the path-finding tests: data paths and networkx reference graphs."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest
from tests.pathfinding.cases import DATA

from plies.pathfinding import Graph, Grid


@pytest.fixture
def data_dir() -> Path:
    """The folder of path-finding test files."""
    return DATA


def _reference_digraph(grid: Grid) -> nx.DiGraph:
    """The grid's moves built independently of plies: straight 1, diagonal sqrt(2) only
    when both orthogonal cells are free, times the weight of the cell entered."""
    g = nx.DiGraph()
    moves = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if grid.diagonal:
        moves += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    arr = grid.to_array()
    weights = grid.weights_array()
    h, w = arr.shape

    def free(x: int, y: int) -> bool:
        """Free and on the grid."""
        return 0 <= x < w and 0 <= y < h and bool(arr[y, x])

    for y in range(h):
        for x in range(w):
            if not free(x, y):
                continue
            g.add_node((x, y))
            for dx, dy in moves:
                nx_, ny = x + dx, y + dy
                if not free(nx_, ny):
                    continue
                if dx and dy and not (free(x + dx, y) and free(x, y + dy)):
                    continue
                base = math.sqrt(2) if dx and dy else 1.0
                g.add_edge((x, y), (nx_, ny), weight=base * float(weights[ny, nx_]))
    return g


def _reference_graph(graph: Graph) -> nx.Graph:
    """The graph rebuilt in networkx by hand (not via Graph.to_networkx)."""
    g = nx.DiGraph() if graph.directed else nx.Graph()
    g.add_nodes_from(graph.nodes)
    for u, v, w in graph.edges():
        g.add_edge(u, v, weight=w)
    return g


@pytest.fixture
def reference_digraph() -> Callable[[Grid], nx.DiGraph]:
    """Builds a grid's networkx graph independently of plies (see ``_reference_digraph``)."""
    return _reference_digraph


@pytest.fixture
def reference_graph() -> Callable[[Graph], nx.Graph]:
    """Rebuilds a plies graph in networkx by hand."""
    return _reference_graph
