"""Plain-text tables of search results, as the command line prints them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plies.pathfinding.result import SearchResult

HEADERS = ("algorithm", "steps", "cost", "expanded", "max frontier", "time")


def format_seconds(seconds: float) -> str:
    """A duration in µs, ms or s with three significant figures or so."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def result_row(name: str, result: SearchResult[Any]) -> list[str]:
    """One table row for ``result``."""
    if result.path is None:
        steps, cost = result.status, "-"
    else:
        steps, cost = str(result.steps), f"{result.cost:.4f}"
    return [
        name, steps, cost, f"{result.expanded:,}", f"{result.max_frontier:,}",
        format_seconds(result.time_s),
    ]


def format_table(rows: Sequence[Sequence[str]], headers: Sequence[str] = HEADERS) -> str:
    """Rows as aligned columns: the first left-aligned, the others right-aligned."""
    table = [list(headers), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in table if i < len(r)) for i in range(len(headers))]
    lines = []
    for row in table:
        cells = []
        for i, cell in enumerate(row):
            cells.append(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]))
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
