"""A path-finding result as a picture where people look: Jupyter's rich display."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

    from plies.pathfinding.result import SearchResult


def result_picture(result: SearchResult[Any]) -> Image.Image | None:
    """Draw ``result`` on its problem, as ``plies maze`` and ``plies graph`` draw it.

    Returns None when the result does not know its problem (one built by hand).
    """
    from plies.pathfinding.graph import Graph
    from plies.pathfinding.grid import Grid
    from plies.pathfinding.render.graph_drawing import draw_graph
    from plies.pathfinding.render.grid_picture import draw_grid

    problem = result.problem
    # By what the problem holds, not its class: the problem modules import this package.
    grid, graph = getattr(problem, "grid", None), getattr(problem, "graph", None)
    if isinstance(grid, Grid):
        return draw_grid(grid, result, problem.initial, problem.goal)
    if isinstance(graph, Graph):
        return draw_graph(graph, result, problem.initial, problem.goal)
    return None


def result_png(result: SearchResult[Any]) -> bytes | None:
    """Return :func:`result_picture` as PNG bytes, or None without a problem."""
    picture = result_picture(result)
    if picture is None:
        return None
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()
