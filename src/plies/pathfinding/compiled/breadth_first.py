"""Compiled breadth-first search on a grid, in the order of the readable version.

A FIFO queue over an array; the goal is tested when a cell is generated;
neighbours are generated in the grid's move order (east, south, west,
north, then the diagonals).  The queue holds each cell at most once, so an
array of one slot per cell is a proven bound.
"""

from __future__ import annotations

from numba import njit

from .state import reach_start


@njit(cache=True, _nrt=False)
def search_breadth_first(terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` (start != goal) under ``side.gen``; the answers go to
    ``run`` (status 1 found, 0 not): ``side.fifo[run.head:run.tail]`` is what still waits."""
    weights = terrain.weights
    masks = terrain.masks
    offsets = terrain.offsets
    steps = terrain.steps
    weighted = terrain.weighted
    recording = run.record != 0
    order = run.order
    room = order.shape[0]
    g = side.g
    parent = side.parent
    seen = side.seen
    gen = side.gen
    queue = side.fifo
    reach_start(side, start)
    queue[0] = start
    head = 0
    tail = 1
    expanded = 0
    max_frontier = 1
    recorded = 0
    found = 0
    while head < tail and found == 0:
        c = queue[head]
        head += 1
        expanded += 1
        if recording:
            if recorded < room:
                order[recorded] = c
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
                found = 1
                break
            queue[tail] = n
            tail += 1
        if found == 0 and tail - head > max_frontier:
            max_frontier = tail - head
    run.status = found
    run.expanded = expanded
    run.max_frontier = max_frontier
    run.recorded = recorded
    run.head = head
    run.tail = tail
    run.gen = gen
