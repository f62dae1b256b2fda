"""Pictures of a grid search: walls, expanded cells shaded by order, frontier and path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw

from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.render import palette

if TYPE_CHECKING:
    from plies.pathfinding.result import SearchResult


def cell_size_for(grid: Grid, max_px: int = 720) -> int:
    """Pixels per cell so the larger side of the picture is at most ``max_px`` (1 to 32)."""
    return max(1, min(32, max_px // max(grid.width, grid.height)))


def base_colours(grid: Grid) -> npt.NDArray[np.uint8]:
    """A ``[y, x, rgb]`` array of the empty world: walls, free cells tinted by weight."""
    free = grid.to_array()
    out = np.empty((grid.height, grid.width, 3), dtype=np.uint8)
    if grid.weighted:
        w = grid.weights_array()
        span = float(w.max() - w.min()) or 1.0
        t = ((w - w.min()) / span)[..., None]
        tint = np.array(palette.FREE) * (1 - t) + np.array(palette.HEAVY) * t
        out[:] = np.rint(tint).astype(np.uint8)
    else:
        out[:] = palette.FREE
    out[~free] = palette.WALL
    return out


def expansion_ranks(grid: Grid, order: Sequence[Cell]) -> npt.NDArray[np.int64]:
    """Per cell, the index of its first expansion in ``order`` (-1 if never expanded)."""
    ranks = np.full((grid.height, grid.width), -1, dtype=np.int64)
    if len(order):
        cells = np.asarray(list(order), dtype=np.int64).reshape(-1, 2)
        idx = np.arange(len(cells), dtype=np.int64)
        # Assign in reverse so that a cell expanded twice keeps its first rank.
        ranks[cells[::-1, 1], cells[::-1, 0]] = idx[::-1]
    return ranks


def search_colours(
    grid: Grid,
    result: SearchResult[Any] | None,
    upto: int | None = None,
    ranks: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.uint8]:
    """Cell colours after the first ``upto`` expansions (all of them, plus frontier, if None)."""
    out = base_colours(grid)
    if result is None:
        return out
    if ranks is None:
        ranks = expansion_ranks(grid, result.expansion_order)
    total = max(len(result.expansion_order) - 1, 1)
    limit = len(result.expansion_order) if upto is None else upto
    shown = (ranks >= 0) & (ranks < limit)
    out[shown] = palette.gradient(ranks[shown] / total)
    if upto is None and result.frontier:
        cells = np.asarray(list(result.frontier), dtype=np.int64).reshape(-1, 2)
        out[cells[:, 1], cells[:, 0]] = palette.FRONTIER
    return out


def _centre(cell: Cell, cs: int) -> tuple[float, float]:
    """Pixel centre of ``cell``."""
    return (cell[0] * cs + (cs - 1) / 2.0, cell[1] * cs + (cs - 1) / 2.0)


def render_cells(colours: npt.NDArray[np.uint8], cs: int) -> Image.Image:
    """Blow cell colours up to ``cs`` pixels per cell, with faint tile lines when large."""
    img = np.repeat(np.repeat(colours, cs, axis=0), cs, axis=1)
    if cs >= 8:
        shade = img.astype(np.float32)
        shade[::cs, :, :] *= 0.93
        shade[:, ::cs, :] *= 0.93
        img = shade.astype(np.uint8)
    return Image.fromarray(img, "RGB")


def draw_path_and_marks(
    img: Image.Image,
    cs: int,
    path: Sequence[Cell] | None,
    start: Cell | None,
    goal: Cell | None,
) -> None:
    """Draw the path as a line through cell centres, then start and goal markers."""
    draw = ImageDraw.Draw(img)
    if path and len(path) > 1:
        points = [_centre(c, cs) for c in path]
        width = max(2, cs // 3)
        draw.line(points, fill=palette.PATH_HALO, width=width + 2, joint="curve")
        draw.line(points, fill=palette.PATH, width=width, joint="curve")
    radius = max(3.5, cs * 0.55)
    for cell, colour in ((start, palette.START), (goal, palette.GOAL)):
        if cell is None:
            continue
        cx, cy = _centre(cell, cs)
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        draw.ellipse(box, fill=colour, outline=palette.PATH_HALO, width=max(1, int(radius // 3)))


def draw_grid(
    grid: Grid,
    result: SearchResult[Any] | None = None,
    start: Cell | None = None,
    goal: Cell | None = None,
    cell_size: int | None = None,
    max_px: int = 720,
) -> Image.Image:
    """A picture of ``grid`` and, if given, what ``result`` expanded, left waiting and found."""
    cs = cell_size or cell_size_for(grid, max_px)
    colours = search_colours(grid, result)
    path = result.path if result is not None else None
    if path and cs < 4:
        # Too small for a line: colour the path cells instead.
        cells = np.asarray(path, dtype=np.int64)
        colours[cells[:, 1], cells[:, 0]] = palette.PATH
        path = None
    img = render_cells(colours, cs)
    draw_path_and_marks(img, cs, path, start, goal)
    return img


def save_grid_png(
    path: str | Path,
    grid: Grid,
    result: SearchResult[Any] | None = None,
    start: Cell | None = None,
    goal: Cell | None = None,
) -> None:
    """Write the picture of ``draw_grid`` as a PNG file."""
    draw_grid(grid, result, start, goal).save(path, format="PNG")
