"""Compiled best-first search on a grid: uniform cost (Dijkstra), greedy and A*.

The same algorithm as the readable ``algorithms.best_first`` and the same
order: priority ``g_weight * g + h_weight * h`` rounded with ``TIE_SHIFT``,
newest first among equal priorities (the open list is the same heap of
distinct keys with a LIFO list per key, see ``bucket_queue``), goal tested
on expansion, a closed cell reopened only when a path cheaper by more than
``REOPEN_EPSILON`` turns up.  So both expand the same cells in the same
order and return the same cost; this one does it over arrays with no
Python object in the loop.

``seen[i] == gen`` marks cells whose ``g`` belongs to this search and
``closed[i] == gen`` the expanded ones, so a reused workspace needs no reset.
The search loop is compiled with ``_nrt=False`` (see ``bucket_queue``); the
entry ``batch.search_one_sided`` (reference counted, as a function called from
Python must be) grows the open list or the order buffer and runs it again when
either was too small.
"""

from __future__ import annotations

from numba import njit

from .bucket_queue import HEAP_SIZE, LIFO, OVERFLOW, pop_first, push_newest, queue_clear, queue_push
from .common import FOUND, NO_PATH, OVERFLOWED, TIE_SHIFT, heuristic, heuristic_xy
from .state import reach_start, relax


@njit(cache=True, _nrt=False)
def search_best_first(terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` under ``side.gen``; the answers go to ``run``:
    status FOUND, NO_PATH or OVERFLOWED (the queue was too small)."""
    pw = terrain.pw
    weights = terrain.weights
    masks = terrain.masks
    offsets = terrain.offsets
    steps = terrain.steps
    move_dx = terrain.move_dx
    move_dy = terrain.move_dy
    weighted = terrain.weighted
    scale = terrain.scale
    g_weight = run.g_weight
    h_weight = run.h_weight
    kind = run.kind
    reopen = run.reopen != 0
    recording = run.record != 0
    order = run.order
    room = order.shape[0]
    g = side.g
    closed = side.closed
    gen = side.gen
    state = side.state
    gx = goal % pw
    gy = goal // pw
    moves = offsets.shape[0]
    reach_start(side, start)
    f = h_weight * (scale * heuristic(kind, start, pw, gx, gy)) if h_weight != 0.0 else 0.0
    f = (f + TIE_SHIFT) - TIE_SHIFT
    state[LIFO] = 1  # newest first among equal keys, as the readable search
    queue_push(side, f, start)
    open_count = 1
    max_frontier = 1
    expanded = 0
    recorded = 0
    status = NO_PATH
    while state[HEAP_SIZE] > 0:
        c = pop_first(side)
        if closed[c] == gen:
            continue
        closed[c] = gen
        open_count -= 1
        expanded += 1
        if recording:
            if recorded < room:
                order[recorded] = c
            recorded += 1
        if c == goal:
            status = FOUND
            break
        gc = g[c]
        mask = masks[c]
        # One division per expansion: neighbours' coordinates come from c's.
        cx = c % pw
        cy = c // pw
        for i in range(moves):
            if not (mask >> i) & 1:
                continue
            n = c + offsets[i]
            ng = gc + steps[i] * weights[n] if weighted else gc + steps[i]
            joined = relax(side, c, n, ng, reopen)
            if joined < 0:
                continue
            open_count += joined
            f = g_weight * ng
            if h_weight != 0.0:
                h = heuristic_xy(kind, cx + move_dx[i], cy + move_dy[i], gx, gy)
                f += h_weight * (scale * h)
            f = (f + TIE_SHIFT) - TIE_SHIFT
            push_newest(side, f, n)
        if state[OVERFLOW]:
            status = OVERFLOWED
            break
        if open_count > max_frontier:
            max_frontier = open_count
    queue_clear(side)
    run.status = status
    run.expanded = expanded
    run.max_frontier = max_frontier
    run.recorded = recorded
    run.gen = gen
