"""Drawings of graph searches: nodes at their coordinates, expansion shading, the path.

Nodes without coordinates are placed by networkx's spring layout (seeded, so
the drawing is reproducible).  Coordinates are drawn with y pointing up.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from plies.pathfinding.graph import Graph, Point
from plies.pathfinding.render import palette
from plies.pathfinding.render.fonts import font, text_size

if TYPE_CHECKING:
    from plies.pathfinding.result import SearchResult

MARGIN = 36


def layout(graph: Graph) -> dict[Hashable, Point]:
    """Coordinates of every node: its own, or a seeded spring layout when any is missing."""
    if graph.has_coordinates:
        return {n: p for n in graph.nodes if (p := graph.pos(n)) is not None}
    import networkx as nx

    nxg = nx.Graph()
    nxg.add_nodes_from(graph.nodes)
    nxg.add_edges_from((u, v) for u, v, _ in graph.edges())
    pos = nx.spring_layout(nxg, seed=7)
    return {n: (float(p[0]), float(p[1])) for n, p in pos.items()}


def _node_radius(points: list[Point], width: int, height: int) -> float:
    """A node radius that keeps most neighbouring nodes apart (3 to 13 pixels)."""
    n = len(points)
    r = 260.0 / math.sqrt(max(n, 1))
    if 1 < n <= 1500:
        nearest = sorted(
            min(math.dist(p, q) for j, q in enumerate(points) if j != i)
            for i, p in enumerate(points)
        )
        r = min(r, 0.45 * nearest[n // 4])
    return max(3.0, min(13.0, r, min(width, height) / 20))


def _arrow(draw: ImageDraw.ImageDraw, a: Point, b: Point, r: float, colour: palette.RGB,
           size: float) -> None:
    """A filled arrowhead on segment a->b, its tip touching the circle of radius r at b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length <= r + 1:
        return
    ux, uy = dx / length, dy / length
    tip = (b[0] - ux * r, b[1] - uy * r)
    base = (tip[0] - ux * size, tip[1] - uy * size)
    left = (base[0] - uy * size * 0.5, base[1] + ux * size * 0.5)
    right = (base[0] + uy * size * 0.5, base[1] - ux * size * 0.5)
    draw.polygon([tip, left, right], fill=colour)


def draw_graph(
    graph: Graph,
    result: SearchResult[Any] | None = None,
    start: Hashable | None = None,
    goal: Hashable | None = None,
    size: tuple[int, int] = (640, 480),
) -> Image.Image:
    """A picture of ``graph`` with what ``result`` expanded, left waiting and found."""
    width, height = size
    pos = layout(graph)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    scale = min((width - 2 * MARGIN) / span_x, (height - 2 * MARGIN) / span_y)
    off_x = (width - scale * span_x) / 2
    off_y = (height - scale * span_y) / 2

    def px(node: Hashable) -> Point:
        """Pixel position of ``node`` (y up)."""
        x, y = pos[node]
        return (off_x + (x - min(xs)) * scale, height - off_y - (y - min(ys)) * scale)

    n = len(graph)
    r = _node_radius([px(node) for node in graph.nodes], width, height)
    img = Image.new("RGB", size, palette.BACKGROUND)
    draw = ImageDraw.Draw(img)
    edges = list(graph.edges())
    thin = 1 if len(edges) > 400 else 2
    for u, v, _ in edges:
        draw.line([px(u), px(v)], fill=palette.EDGE, width=thin)
        if graph.directed:
            _arrow(draw, px(u), px(v), r, palette.EDGE, max(6.0, r))
    path = result.path if result is not None and result.path else []
    if len(path) > 1:
        points = [px(p) for p in path]
        width_path = max(3, int(r * 0.6))
        draw.line(points, fill=palette.PATH_HALO, width=width_path + 4, joint="curve")
        draw.line(points, fill=palette.PATH, width=width_path, joint="curve")
        if graph.directed:
            for a, b in itertools.pairwise(path):
                _arrow(draw, px(a), px(b), r, palette.PATH, max(8.0, r * 1.2))
    if len(edges) <= 40:
        for u, v, w in edges:
            (x1, y1), (x2, y2) = px(u), px(v)
            label = f"{w:g}"
            tw, th = text_size(label, 12)
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            draw.rectangle((cx - tw / 2 - 2, cy - th / 2 - 2, cx + tw / 2 + 2, cy + th / 2 + 3),
                           fill=palette.BACKGROUND)
            draw.text((cx, cy), label, fill=palette.MUTED, font=font(12), anchor="mm")
    ranks: dict[Hashable, int] = {}
    waiting: set[Hashable] = set()
    if result is not None:
        for i, node in enumerate(result.expansion_order):
            ranks.setdefault(node, i)
        waiting = set(result.frontier)
    total = max(len(ranks) - 1, 1)
    on_path = set(path)
    for node in graph.nodes:
        x, y = px(node)
        if node == start:
            fill = palette.START
        elif node == goal:
            fill = palette.GOAL
        elif node in ranks:
            fill = palette.gradient_rgb(ranks[node] / total)
        elif node in waiting:
            fill = palette.FRONTIER
        else:
            fill = palette.FREE
        outline = palette.PATH if node in on_path else palette.NODE_OUTLINE
        ring = 3 if node in on_path else 1
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=ring)
    if n <= 60:
        fsize = 13 if r >= 10 else 11
        for node in graph.nodes:
            x, y = px(node)
            label = str(node)
            if r >= 10 and text_size(label, fsize)[0] <= 2 * r - 4:
                light = node in (start, goal)
                draw.text((x, y), label, font=font(fsize), anchor="mm",
                          fill=palette.BACKGROUND if light else palette.TEXT)
            else:
                draw.text((x + r + 2, y - r - 2), label, font=font(fsize), anchor="ls",
                          fill=palette.TEXT)
    return img


def save_graph_png(
    path: str | Path,
    graph: Graph,
    result: SearchResult[Any] | None = None,
    start: Hashable | None = None,
    goal: Hashable | None = None,
) -> None:
    """Write the drawing of ``draw_graph`` as a PNG file."""
    draw_graph(graph, result, start, goal).save(path, format="PNG")
