"""Animated GIFs of grid searches: expanded cells appear in order, then the path.

Several results on the same grid play side by side on one clock (the same
number of expansions per frame), so a search that expands fewer nodes
visibly finishes first and shows its path while the others keep going.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.render.grid_picture import (
    cell_size_for,
    draw_path_and_marks,
    expansion_ranks,
    render_cells,
    search_colours,
)
from plies.pathfinding.render.sheet import Panel, compose, result_lines
from plies.pathfinding.result import SearchResult


def animation_frames(
    grid: Grid,
    results: Sequence[SearchResult[Any]],
    start: Cell | None,
    goal: Cell | None,
    titles: Sequence[str] | None = None,
    frames: int = 60,
    max_px: int | None = None,
) -> list[Image.Image]:
    """The frames of the animation (the last one is the finished picture)."""
    if not results:
        raise ValueError("nothing to animate")
    single = len(results) == 1
    cs = cell_size_for(grid, max_px or (640 if single else 320))
    ranks = [expansion_ranks(grid, r.expansion_order) for r in results]
    longest = max(len(r.expansion_order) for r in results)
    count = max(1, min(frames, longest))
    names = list(titles) if titles is not None else [r.algorithm for r in results]
    images: list[Image.Image] = []
    for i in range(1, count + 1):
        upto = -(-longest * i // count)  # ceiling: the last frame shows everything
        panels = []
        for result, rank, title in zip(results, ranks, names, strict=True):
            done = upto >= len(result.expansion_order)
            colours = search_colours(grid, result, None if done else upto, rank)
            img = render_cells(colours, cs)
            draw_path_and_marks(img, cs, result.path if done else None, start, goal)
            lines = result_lines(result) if done else [f"expanded {upto:,}", "", ""]
            panels.append(Panel(img, title, lines))
        if single and titles is None:
            images.append(panels[0].image)
        else:
            images.append(compose(panels))
    return images


def save_gif(
    path: str | Path,
    grid: Grid,
    results: Sequence[SearchResult[Any]],
    start: Cell | None = None,
    goal: Cell | None = None,
    titles: Sequence[str] | None = None,
    frames: int = 60,
    frame_ms: int = 80,
    hold_ms: int = 2500,
) -> int:
    """Write the animation as a looping GIF; return the number of frames."""
    images = animation_frames(grid, results, start, goal, titles, frames)
    durations = [frame_ms] * (len(images) - 1) + [hold_ms]
    images[0].save(
        path,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return len(images)
