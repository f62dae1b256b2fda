"""Compiled breadth-first search on a grid, in the order of the readable version.

A FIFO queue over an array; the goal is tested when a cell is generated;
neighbours are generated in the grid's move order (east, south, west,
north, then the diagonals).  The queue holds each cell at most once, so an
array of one slot per cell is a proven bound.
"""

from __future__ import annotations

from numba import njit

from .common import record


@njit(cache=True)
def breadth_first_kernel(  # type: ignore[no-untyped-def]
    weights, masks, offsets, steps, start, goal, weighted, recording,
    g, parent, seen, gen, queue, order,
):
    """Search from ``start`` to ``goal`` (start != goal); returns (found, expanded,
    max_frontier, recorded, head, tail, order): ``queue[head:tail]`` is what still waits."""
    g[start] = 0.0
    parent[start] = -1
    seen[start] = gen
    queue[0] = start
    head = 0
    tail = 1
    expanded = 0
    max_frontier = 1
    recorded = 0
    while head < tail:
        c = queue[head]
        head += 1
        expanded += 1
        if recording:
            order = record(order, recorded, c)
            recorded += 1
        gc = g[c]
        mask = masks[c]
        for i in range(offsets.shape[0]):
            if not (mask >> i) & 1:
                continue
            n = c + offsets[i]
            if seen[n] == gen:
                continue
            seen[n] = gen
            g[n] = gc + steps[i] * weights[n] if weighted else gc + steps[i]
            parent[n] = c
            if n == goal:
                return True, expanded, max_frontier, recorded, head, tail, order
            queue[tail] = n
            tail += 1
        if tail - head > max_frontier:
            max_frontier = tail - head
    return False, expanded, max_frontier, recorded, head, tail, order
