"""Contact sheets: several pictures side by side, each titled, with its numbers underneath."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from plies.pathfinding.render import palette
from plies.pathfinding.render.fonts import font, text_size
from plies.pathfinding.result import SearchResult

TITLE_PX = 20
LINE_PX = 15
GAP = 24
MARGIN = 20


@dataclass
class Panel:
    """One picture of a sheet, its title and the caption lines under it."""

    image: Image.Image
    title: str
    lines: list[str] = field(default_factory=list)


def result_lines(result: SearchResult[Any]) -> list[str]:
    """Caption lines for a search result: cost and steps, expanded and frontier, time."""
    if result.path is None:
        first = result.status
    else:
        first = f"cost {result.cost:.4g}   steps {result.steps}"
    return [
        first,
        f"expanded {result.expanded:,}   max frontier {result.max_frontier:,}",
        f"time {format_time(result.time_s)}",
    ]


def format_time(seconds: float) -> str:
    """Seconds as a short human string in ms or s (ASCII only: fonts may lack a micro sign)."""
    if seconds < 0.01:
        return f"{seconds * 1e3:.3f} ms"
    if seconds < 1.0:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def panel_size(panel: Panel, inner_w: int, inner_h: int) -> tuple[int, int]:
    """Outer size of a panel laid out in a cell of the given picture size."""
    caption_w = max([text_size(s, LINE_PX)[0] for s in panel.lines] + [0])
    title_w = text_size(panel.title, TITLE_PX)[0]
    width = max(inner_w, caption_w, title_w)
    height = TITLE_PX + 10 + inner_h + 8 + len(panel.lines) * (LINE_PX + 5)
    return width, height


def compose(panels: Sequence[Panel], heading: str | None = None, columns: int | None = None
            ) -> Image.Image:
    """Lay ``panels`` out on a white sheet in rows of ``columns`` (default: up to 4)."""
    if not panels:
        raise ValueError("a sheet needs at least one panel")
    cols = columns or min(4, len(panels))
    rows = math.ceil(len(panels) / cols)
    inner_w = max(p.image.width for p in panels)
    inner_h = max(p.image.height for p in panels)
    sizes = [panel_size(p, inner_w, inner_h) for p in panels]
    cell_w = max(s[0] for s in sizes)
    cell_h = max(s[1] for s in sizes)
    head_h = TITLE_PX + 16 if heading else 0
    width = 2 * MARGIN + cols * cell_w + (cols - 1) * GAP
    height = 2 * MARGIN + head_h + rows * cell_h + (rows - 1) * GAP
    sheet = Image.new("RGB", (width, height), palette.BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    if heading:
        draw.text((MARGIN, MARGIN), heading, fill=palette.TEXT, font=font(TITLE_PX))
    for i, panel in enumerate(panels):
        r, c = divmod(i, cols)
        x0 = MARGIN + c * (cell_w + GAP)
        y0 = MARGIN + head_h + r * (cell_h + GAP)
        draw.text((x0, y0), panel.title, fill=palette.TEXT, font=font(TITLE_PX))
        iy = y0 + TITLE_PX + 10
        sheet.paste(panel.image, (x0, iy))
        draw.rectangle(
            (x0 - 1, iy - 1, x0 + panel.image.width, iy + panel.image.height),
            outline=palette.EDGE,
        )
        ty = iy + panel.image.height + 8
        for j, line in enumerate(panel.lines):
            colour = palette.TEXT if j == 0 else palette.MUTED
            draw.text((x0, ty + j * (LINE_PX + 5)), line, fill=colour, font=font(LINE_PX))
    return sheet
