"""Reading and writing Moving AI benchmark ``.scen`` scenario files.

Format: a ``version 1`` line, then one tab-separated line per scenario:
``bucket map width height start_x start_y goal_x goal_y optimal_length``
(x = column, y = row, (0, 0) top-left).  Optimal lengths assume diagonal
steps of sqrt(2) and no corner cutting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from plies.pathfinding.errors import FormatError
from plies.pathfinding.grid import Cell, Grid
from plies.pathfinding.textfile import read_text


@dataclass(frozen=True)
class Scenario:
    """One benchmark query: start and goal on a map, and the optimal path length."""

    bucket: int
    map_name: str
    width: int
    height: int
    start: Cell
    goal: Cell
    optimal: float
    source: str = "<scen>"
    line: int = 0

    def where(self) -> str:
        """``file:line`` of this scenario, for messages."""
        return f"{self.source}:{self.line}"


def parse_scenarios(text: str, source: str = "<scen>") -> list[Scenario]:
    """Parse the text of a ``.scen`` file; errors name ``source`` and the line."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise FormatError(source, 1, "expected 'version 1' header, file is empty")
    words = lines[0].split()
    if len(words) != 2 or words[0].lower() != "version":
        raise FormatError(source, 1, f"expected 'version 1' header, got {lines[0].strip()[:40]!r}")
    try:
        version = float(words[1])
    except ValueError:
        raise FormatError(source, 1, f"version {words[1]!r} is not a number") from None
    if version != 1.0:
        raise FormatError(source, 1, f"unsupported scenario version {words[1]} (expected 1)")
    out: list[Scenario] = []
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 9:
            # Some copies use spaces; accept them when the map name has none.
            fields = line.split()
        if len(fields) != 9:
            raise FormatError(
                source,
                lineno,
                f"expected 9 fields (bucket map width height sx sy gx gy optimal), "
                f"got {len(fields)}",
            )
        names = ("bucket", "width", "height", "start x", "start y", "goal x", "goal y")
        ints: list[int] = []
        for name, value in zip(names, [fields[0], *fields[2:8]], strict=True):
            try:
                ints.append(int(value))
            except ValueError:
                raise FormatError(
                    source, lineno, f"{name} {value.strip()!r} is not a whole number"
                ) from None
        try:
            optimal = float(fields[8])
        except ValueError:
            raise FormatError(
                source, lineno, f"optimal length {fields[8].strip()!r} is not a number"
            ) from None
        if not math.isfinite(optimal) or optimal < 0:
            raise FormatError(source, lineno, f"optimal length {optimal} must be >= 0")
        bucket, width, height, sx, sy, gx, gy = ints
        if width < 1 or height < 1:
            raise FormatError(source, lineno, f"map size {width}x{height} is not positive")
        for what, x, y in (("start", sx, sy), ("goal", gx, gy)):
            if not (0 <= x < width and 0 <= y < height):
                raise FormatError(source, lineno, f"{what} {x},{y} is off the {width}x{height} map")
        out.append(
            Scenario(
                bucket,
                fields[1].strip(),
                width,
                height,
                (sx, sy),
                (gx, gy),
                optimal,
                source,
                lineno,
            )
        )
    return out


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Read a ``.scen`` file."""
    return parse_scenarios(read_text(path, "a text scenario file"), str(Path(path)))


def check_against_map(scenario: Scenario, grid: Grid) -> None:
    """Raise ``FormatError`` (naming the scenario line) unless it fits ``grid``."""
    if (scenario.width, scenario.height) != (grid.width, grid.height):
        raise FormatError(
            scenario.source,
            scenario.line,
            f"scenario is for a {scenario.width}x{scenario.height} map, "
            f"the map is {grid.width}x{grid.height}",
        )
    for what, cell in (("start", scenario.start), ("goal", scenario.goal)):
        if not grid.is_free(cell):
            raise FormatError(
                scenario.source, scenario.line, f"{what} {cell[0]},{cell[1]} is on a wall"
            )


def format_scenarios(scenarios: list[Scenario]) -> str:
    """The ``.scen`` text of ``scenarios``."""
    lines = ["version 1"]
    for s in scenarios:
        lines.append(
            "\t".join(
                [
                    str(s.bucket),
                    s.map_name,
                    str(s.width),
                    str(s.height),
                    str(s.start[0]),
                    str(s.start[1]),
                    str(s.goal[0]),
                    str(s.goal[1]),
                    f"{s.optimal:.8f}",
                ]
            )
        )
    return "\n".join(lines) + "\n"
