"""Pictures of searches: grid PNGs, comparison sheets, GIFs, graph drawings, terminal text.

Needs Pillow (and rich for the terminal); import it only when drawing.
"""

from __future__ import annotations

from plies.pathfinding.render.animation import animation_frames, save_gif
from plies.pathfinding.render.graph_drawing import draw_graph, save_graph_png
from plies.pathfinding.render.grid_picture import draw_grid, save_grid_png
from plies.pathfinding.render.sheet import Panel, compose, format_time, result_lines
from plies.pathfinding.render.terminal import render_text

__all__ = [
    "Panel",
    "animation_frames",
    "compose",
    "draw_graph",
    "draw_grid",
    "format_time",
    "render_text",
    "result_lines",
    "save_gif",
    "save_graph_png",
    "save_grid_png",
]
