"""Coloured terminal pictures of small grids, with ``rich``.

Each cell is two characters wide so cells look square.  Characters carry the
meaning as well as the colours, so the picture still reads without colour:
``██`` wall, `` ·`` expanded, `` +`` frontier, `` o`` path, `` S``/`` G`` start
and goal.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.render import palette
from plies.pathfinding.render.grid_picture import expansion_ranks
from plies.pathfinding.result import SearchResult

#: Widest grid (in cells) drawn in a terminal; wider ones are refused.
MAX_WIDTH = 100


def render_text(
    grid: Grid,
    result: SearchResult[Any] | None = None,
    start: Cell | None = None,
    goal: Cell | None = None,
) -> Text:
    """A rich ``Text`` picture of ``grid`` and what ``result`` did on it."""
    if grid.width > MAX_WIDTH:
        raise PathfindingError(
            f"grid is {grid.width} cells wide; the terminal picture takes at most {MAX_WIDTH}"
        )
    wall = Style(color=palette.hex_colour(palette.WALL))
    free = Style(bgcolor=palette.hex_colour(palette.FREE))
    path_style = Style(color="white", bgcolor=palette.hex_colour(palette.PATH), bold=True)
    front = Style(color="black", bgcolor=palette.hex_colour(palette.FRONTIER))
    marks = {
        start: (" S", Style(color="white", bgcolor=palette.hex_colour(palette.START), bold=True)),
        goal: (" G", Style(color="white", bgcolor=palette.hex_colour(palette.GOAL), bold=True)),
    }
    ranks = None
    total = 1
    on_path: set[Cell] = set()
    waiting: set[Cell] = set()
    if result is not None:
        ranks = expansion_ranks(grid, result.expansion_order)
        total = max(len(result.expansion_order) - 1, 1)
        on_path = set(result.path or [])
        waiting = set(result.frontier)
    text = Text()
    for y in range(grid.height):
        for x in range(grid.width):
            cell = (x, y)
            if cell in marks and cell is not None:
                text.append(*marks[cell])
            elif not grid.is_free(cell):
                text.append("██", wall)
            elif cell in on_path:
                text.append(" o", path_style)
            elif cell in waiting:
                text.append(" +", front)
            elif ranks is not None and ranks[y, x] >= 0:
                colour = palette.hex_colour(palette.gradient_rgb(float(ranks[y, x]) / total))
                text.append(" ·", Style(color="black", bgcolor=colour))
            else:
                text.append("  ", free)
        text.append("\n")
    return text
