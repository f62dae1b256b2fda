"""Plain-text maze files: one character per cell, one line per row.

``#`` is a wall; ``.`` or a space is free; ``S`` marks the start and ``G`` the
goal (both free, each at most once); a digit ``1``-``9`` is a free cell with
that weight.  Lines starting with ``;`` are comments.  Short rows are padded
with free cells, since editors strip trailing spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from plies.pathfinding.errors import FormatError
from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.textfile import read_text


@dataclass
class Maze:
    """A grid read from a maze file, with the start and goal it marks (if any)."""

    grid: Grid
    start: Cell | None = None
    goal: Cell | None = None


def parse_maze(text: str, source: str = "<maze>", diagonal: bool = False) -> Maze:
    """Parse maze text; errors name ``source``, the line and the column."""
    rows: list[tuple[int, str]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.startswith(";"):
            continue
        rows.append((lineno, line.rstrip("\r")))
    while rows and not rows[-1][1].strip():
        rows.pop()
    while rows and not rows[0][1].strip():
        rows.pop(0)
    if not rows:
        raise FormatError(source, None, "no maze rows found")
    width = max(len(r) for _, r in rows)
    free = bytearray()
    weights: list[float] = []
    marks: dict[str, tuple[Cell, int]] = {}
    for y, (lineno, row) in enumerate(rows):
        for x, ch in enumerate(row.ljust(width)):
            if ch == "#":
                free.append(0)
                weights.append(1.0)
                continue
            if ch in ". ":
                weight = 1.0
            elif ch in "SG":
                if ch in marks:
                    raise FormatError(
                        source, lineno, f"second {ch!r} (first on line {marks[ch][1]})"
                    )
                marks[ch] = ((x, y), lineno)
                weight = 1.0
            elif ch in "123456789":
                weight = float(ch)
            else:
                raise FormatError(source, lineno, f"unknown character {ch!r} in column {x + 1}")
            free.append(1)
            weights.append(weight)
    has_weights = any(w != 1.0 for w in weights)
    grid = Grid(width, len(rows), free, weights if has_weights else None, diagonal)
    start = marks["S"][0] if "S" in marks else None
    goal = marks["G"][0] if "G" in marks else None
    return Maze(grid, start, goal)


def load_maze(path: str | Path, diagonal: bool = False) -> Maze:
    """Read a maze file."""
    return parse_maze(read_text(path, "a text maze file"), str(Path(path)), diagonal)


def format_maze(grid: Grid, start: Cell | None = None, goal: Cell | None = None) -> str:
    """The maze-file text of ``grid`` with optional start and goal marks."""
    rows = [list(r) for r in grid.rows(wall="#", free=".")]
    if grid.weighted:
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                w = grid.weight((x, y))
                if ch == "." and w != 1.0:
                    row[x] = str(min(9, max(1, round(w))))
    if start is not None:
        rows[start[1]][start[0]] = "S"
    if goal is not None:
        rows[goal[1]][goal[0]] = "G"
    return "\n".join("".join(r) for r in rows) + "\n"


def save_maze(
    grid: Grid, path: str | Path, start: Cell | None = None, goal: Cell | None = None
) -> None:
    """Write ``grid`` as a maze file."""
    Path(path).write_text(format_maze(grid, start, goal), encoding="utf-8")
