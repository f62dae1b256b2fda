"""Sensible default start and goal cells: opposite corners of the largest connected region."""

from __future__ import annotations

from collections import deque

from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import Cell, Grid


def components(grid: Grid) -> list[list[int]]:
    """The connected regions of free cells, as lists of padded indices, largest first."""
    pfree, _ = grid.padded()
    masks, table = grid.move_masks()
    seen = bytearray(len(pfree))
    regions: list[list[int]] = []
    for i, f in enumerate(pfree):
        if not f or seen[i]:
            continue
        seen[i] = 1
        region = [i]
        queue = deque([i])
        while queue:
            c = queue.popleft()
            for off, _ in table[masks[c]]:
                n = c + off
                if not seen[n]:
                    seen[n] = 1
                    region.append(n)
                    queue.append(n)
        regions.append(region)
    regions.sort(key=len, reverse=True)
    return regions


def default_endpoints(grid: Grid) -> tuple[Cell, Cell]:
    """Start nearest the top-left and goal nearest the bottom-right of the largest region."""
    regions = components(grid)
    if not regions:
        raise PathfindingError("the grid has no free cell")
    cells = grid.cells_from_padded(regions[0])
    w, h = grid.width, grid.height
    start = min(cells, key=lambda c: (c[0] + c[1], c[1]))
    goal = min(cells, key=lambda c: ((w - 1 - c[0]) + (h - 1 - c[1]), -c[1]))
    return start, goal
