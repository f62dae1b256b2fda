"""Reading and writing Moving AI benchmark ``.map`` files.

Format: ``type octile``, ``height H``, ``width W``, ``map``, then H rows of
W characters.  ``.``, ``G`` and ``S`` are passable; ``@``, ``O``, ``T`` and
``W`` are not.  Octile maps allow 8-connected moves without corner cutting.
"""

from __future__ import annotations

from pathlib import Path

from plies.pathfinding.errors import FormatError
from plies.pathfinding.grid import Grid
from plies.pathfinding.textfile import read_text

PASSABLE = frozenset(".GS")
BLOCKED = frozenset("@OTW")


def parse_map(text: str, source: str = "<map>") -> Grid:
    """Parse the text of a ``.map`` file; errors name ``source`` and the line."""
    lines = text.splitlines()
    header: dict[str, str] = {}
    expected = ("type", "height", "width", "map")
    for lineno, key in enumerate(expected, start=1):
        if lineno > len(lines):
            raise FormatError(source, lineno, f"file ends early: expected {key!r} line")
        words = lines[lineno - 1].split()
        if not words or words[0].lower() != key:
            got = lines[lineno - 1].strip()[:40]
            want = "'map'" if key == "map" else f"'{key} ...'"
            raise FormatError(source, lineno, f"expected {want}, got {got!r}")
        if key == "map":
            if len(words) != 1:
                raise FormatError(source, lineno, "the 'map' line takes no value")
            break
        if len(words) != 2:
            raise FormatError(source, lineno, f"expected '{key} VALUE'")
        header[key] = words[1]
    if header["type"] != "octile":
        raise FormatError(source, 1, f"unsupported map type {header['type']!r} (expected octile)")
    size: dict[str, int] = {}
    for lineno, key in ((2, "height"), (3, "width")):
        try:
            size[key] = int(header[key])
        except ValueError:
            raise FormatError(source, lineno, f"{key} {header[key]!r} is not a number") from None
        if size[key] < 1:
            raise FormatError(source, lineno, f"{key} must be at least 1, got {size[key]}")
    height, width = size["height"], size["width"]
    rows = lines[4:]
    while rows and not rows[-1].strip():
        rows.pop()
    if len(rows) < height:
        raise FormatError(
            source, 4 + len(rows) + 1, f"expected {height} map rows, found {len(rows)}"
        )
    if len(rows) > height:
        raise FormatError(source, 5 + height, f"extra line after the {height} map rows")
    free = bytearray()
    for y, row in enumerate(rows):
        lineno = 5 + y
        if len(row) != width:
            raise FormatError(source, lineno, f"row has {len(row)} cells, expected {width}")
        for x, ch in enumerate(row):
            if ch in PASSABLE:
                free.append(1)
            elif ch in BLOCKED:
                free.append(0)
            else:
                raise FormatError(source, lineno, f"unknown terrain {ch!r} in column {x + 1}")
    return Grid(width, height, free, diagonal=True)


def load_map(path: str | Path) -> Grid:
    """Read a ``.map`` file."""
    return parse_map(read_text(path, "an ASCII map file", "ascii"), str(Path(path)))


def format_map(grid: Grid) -> str:
    """The ``.map`` text of ``grid`` (walls as ``@``)."""
    head = f"type octile\nheight {grid.height}\nwidth {grid.width}\nmap\n"
    return head + "\n".join(grid.rows(wall="@", free=".")) + "\n"


def save_map(grid: Grid, path: str | Path) -> None:
    """Write ``grid`` as a ``.map`` file."""
    Path(path).write_text(format_map(grid), encoding="ascii")
