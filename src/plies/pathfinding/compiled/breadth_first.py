"""Compiled breadth-first search on a grid, in the order of the readable version.

A FIFO queue over an array; the goal is tested when a cell is generated;
neighbours are generated in the grid's move order (east, south, west,
north, then the diagonals).  The queue holds each cell at most once, so an
array of one slot per cell is a proven bound.
"""

from __future__ import annotations

import math

from numba import njit

from .common import FOUND, NO_PATH
from .state import moves_of, note, reach_start


@njit(cache=True, _nrt=False)
def search_breadth_first(terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` (start != goal) under ``side.gen``; the answers go to
    ``run`` (status FOUND or NO_PATH): ``side.fifo[head:tail]`` is what still waits."""
    _, masks, offsets, steps, _, _, weights, weighted, _ = moves_of(terrain)
    _, _, _, _, _, recording = run.ask
    order = run.order
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
    found = NO_PATH
    while head < tail and found == NO_PATH:
        c = queue[head]
        head += 1
        expanded += 1
        if recording:
            recorded = note(order, recorded, c)
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
                found = FOUND
                break
            queue[tail] = n
            tail += 1
        if found == NO_PATH and tail - head > max_frontier:
            max_frontier = tail - head
    reached = found == FOUND
    run.answer = (found, expanded, max_frontier, recorded, goal if reached else -1,
                  g[goal] if reached else math.inf, head, tail, gen)
