"""A path-finding result shows in Jupyter as the picture the commands draw."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from plies.pathfinding import GridProblem, perfect_maze, run_algorithm
from plies.pathfinding.graph import Graph
from plies.pathfinding.graph_problem import GraphProblem
from plies.pathfinding.render import draw_graph, draw_grid
from plies.pathfinding.result import SearchResult


def test_grid_result_png_is_the_maze_picture() -> None:
    """The PNG is pixel for pixel the picture ``plies maze --png`` draws."""
    grid = perfect_maze(21, 15, seed=3)
    problem = GridProblem(grid, (1, 1), (19, 13))
    result = run_algorithm("bfs", problem)
    shown = Image.open(io.BytesIO(result._repr_png_() or b"")).convert("RGB")
    drawn = draw_grid(grid, result, (1, 1), (19, 13)).convert("RGB")
    assert shown.size == drawn.size
    assert ImageChops.difference(shown, drawn).getbbox() is None


def test_graph_result_png_is_the_graph_drawing() -> None:
    """A graph search shows as ``plies graph`` draws it."""
    graph = Graph()
    for u, v, w in [("A", "B", 1.0), ("B", "C", 2.0), ("A", "C", 5.0)]:
        graph.add_edge(u, v, w)
    problem = GraphProblem(graph, "A", "C")
    result = run_algorithm("ucs", problem)
    shown = Image.open(io.BytesIO(result._repr_png_() or b"")).convert("RGB")
    drawn = draw_graph(graph, result, "A", "C").convert("RGB")
    assert ImageChops.difference(shown, drawn).getbbox() is None


def test_a_hand_made_result_has_no_picture() -> None:
    """Without its problem there is nothing to draw: Jupyter falls back to the text."""
    assert SearchResult("x", None, 0.0, 0, 0)._repr_png_() is None
