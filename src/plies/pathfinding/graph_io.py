"""Reading and writing graphs: whitespace edge lists and JSON.

Edge list: one edge per line, ``u v`` or ``u v weight`` (default weight 1);
``#`` starts a comment; node names are strings.  Direction is chosen by the
caller.

JSON: ``{"directed": false, "nodes": [...], "edges": [...]}``.  A node is a
name, or an object with ``id`` and optional ``x``/``y`` or ``pos: [x, y]``;
``nodes`` may also map names to ``[x, y]``.  An edge is ``[u, v]``,
``[u, v, weight]`` or an object with ``source``, ``target`` and optional
``weight``; ``links`` is accepted for ``edges``, so networkx node-link JSON
loads as is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from plies.pathfinding.errors import FormatError, PathfindingError
from plies.pathfinding.graph import Graph
from plies.pathfinding.textfile import read_text


def parse_edge_list(text: str, source: str = "<edges>", directed: bool = False) -> Graph:
    """Parse an edge list; errors name ``source`` and the line."""
    graph = Graph(directed)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) not in (2, 3):
            raise FormatError(
                source, lineno, f"expected 'u v' or 'u v weight', got {len(parts)} fields"
            )
        weight = 1.0
        if len(parts) == 3:
            try:
                weight = float(parts[2])
            except ValueError:
                raise FormatError(source, lineno, f"weight {parts[2]!r} is not a number") from None
            if not (weight >= 0 and math.isfinite(weight)):
                raise FormatError(source, lineno, f"weight {parts[2]} must be finite and >= 0")
        graph.add_edge(parts[0], parts[1], weight)
    if len(graph) == 0:
        raise FormatError(source, None, "no edges found")
    return graph


def _node_id(value: Any, where: str, source: str) -> Hashable:
    """A JSON node name: a string or a whole number."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FormatError(source, None, f"{where}: node name must be a string or integer")
    return value


def _point(value: Any, where: str, source: str) -> tuple[float, float]:
    """A JSON coordinate pair."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise FormatError(source, None, f"{where}: coordinates must be [x, y] numbers")
    return float(value[0]), float(value[1])


def graph_from_data(data: Any, source: str = "<json>") -> Graph:
    """Build a graph from parsed JSON ``data``; errors name ``source`` and the item."""
    if not isinstance(data, dict):
        raise FormatError(source, None, "top level must be an object with 'nodes' and 'edges'")
    directed = data.get("directed", False)
    if not isinstance(directed, bool):
        raise FormatError(source, None, "'directed' must be true or false")
    graph = Graph(directed)
    nodes = data.get("nodes", [])
    if isinstance(nodes, dict):
        for name, pos in nodes.items():
            graph.add_node(name, None if pos is None else _point(pos, f"nodes[{name!r}]", source))
    elif isinstance(nodes, list):
        for i, item in enumerate(nodes):
            where = f"nodes[{i}]"
            if isinstance(item, dict):
                if "id" not in item:
                    raise FormatError(source, None, f"{where}: missing 'id'")
                node = _node_id(item["id"], where, source)
                pos = None
                if "pos" in item:
                    pos = _point(item["pos"], where, source)
                elif "x" in item or "y" in item:
                    pos = _point([item.get("x"), item.get("y")], where, source)
                graph.add_node(node, pos)
            else:
                graph.add_node(_node_id(item, where, source))
    else:
        raise FormatError(source, None, "'nodes' must be a list or an object")
    key = "edges" if "edges" in data else "links"
    edges = data.get(key, [])
    if not isinstance(edges, list):
        raise FormatError(source, None, f"'{key}' must be a list")
    for i, item in enumerate(edges):
        where = f"{key}[{i}]"
        if isinstance(item, dict):
            if "source" not in item or "target" not in item:
                raise FormatError(source, None, f"{where}: needs 'source' and 'target'")
            u, v, w = item["source"], item["target"], item.get("weight", 1.0)
        elif isinstance(item, list) and len(item) in (2, 3):
            u, v = item[0], item[1]
            w = item[2] if len(item) == 3 else 1.0
        else:
            raise FormatError(source, None, f"{where}: expected [u, v], [u, v, w] or an object")
        u = _node_id(u, where, source)
        v = _node_id(v, where, source)
        if isinstance(w, bool) or not isinstance(w, int | float):
            raise FormatError(source, None, f"{where}: weight must be a number")
        try:
            graph.add_edge(u, v, float(w))
        except PathfindingError as exc:
            raise FormatError(source, None, f"{where}: {exc}") from None
    if len(graph) == 0:
        raise FormatError(source, None, "no nodes found")
    return graph


def parse_graph_json(text: str, source: str = "<json>") -> Graph:
    """Parse graph JSON text; syntax errors name the line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(source, exc.lineno, f"invalid JSON: {exc.msg}") from None
    return graph_from_data(data, source)


def load_graph(path: str | Path, directed: bool | None = None) -> Graph:
    """Read a graph: JSON when the name ends in ``.json``, else an edge list.

    ``directed`` overrides what a JSON file says; edge lists default to undirected.
    """
    text = read_text(path)
    if str(path).lower().endswith(".json"):
        graph = parse_graph_json(text, str(path))
        if directed is not None and directed != graph.directed:
            rebuilt = Graph(directed)
            for node in graph.nodes:
                rebuilt.add_node(node, graph.pos(node))
            for u, v, w in graph.edges():
                rebuilt.add_edge(u, v, w)
            graph = rebuilt
        return graph
    return parse_edge_list(text, str(path), bool(directed))


def graph_to_data(graph: Graph) -> dict[str, Any]:
    """The JSON-ready form of ``graph``."""
    nodes: list[dict[str, Any]] = []
    for node in graph.nodes:
        entry: dict[str, Any] = {"id": node}
        p = graph.pos(node)
        if p is not None:
            entry["x"], entry["y"] = p
        nodes.append(entry)
    edges = [[u, v, w] for u, v, w in graph.edges()]
    return {"directed": graph.directed, "nodes": nodes, "edges": edges}


def save_graph_json(graph: Graph, path: str | Path) -> None:
    """Write ``graph`` as JSON."""
    Path(path).write_text(json.dumps(graph_to_data(graph), indent=1) + "\n", encoding="utf-8")
