"""Compiled bidirectional search on a grid: uniform cost, or A* with balanced potentials.

The order of the readable ``algorithms.bidirectional``: each round expands
one cell on the side with fewer open cells; equal keys come out oldest
first (one counter shared by both sides); every edge that touches a cell
the other side has reached may lower the best connection ``mu``; the search
stops when the two smallest keys add up to at least ``mu``.

For A*, both sides search the same reduced costs, with the potential
``p(v) = (h_goal(v) - h_start(v)) / 2``: the forward key is ``g + p``, the
backward key ``g - p``.  Consistent heuristics make ``p`` feasible both
ways, and at a meeting cell the keys add up to the real path cost, so the
same stopping rule stays exact.  With ``use_potential`` false, ``p = 0``
and it is bidirectional Dijkstra.
"""

from __future__ import annotations

import math

from numba import njit

from .bucket_queue import (
    HEAD,
    HEAP_SIZE,
    LIFO,
    NODE,
    OVERFLOW,
    SLOT,
    SLOT_KEY,
    pop_first,
    push_oldest,
    queue_clear,
    queue_pop,
    queue_push,
)
from .common import FOUND, NO_PATH, OVERFLOWED, heuristic
from .state import grow_queue, order_room


@njit(cache=True, inline="always")
def _potential(use, kind, scale, n, pw, ends):  # type: ignore[no-untyped-def]
    """Half the difference of the distance estimates to the goal and to the start
    (``ends``: goal x, goal y, start x, start y)."""
    if not use:
        return 0.0
    gx, gy, sx, sy = ends
    to_goal = scale * heuristic(kind, n, pw, gx, gy)
    to_start = scale * heuristic(kind, n, pw, sx, sy)
    return (to_goal - to_start) / 2.0


@njit(cache=True, inline="always")
def _drop_closed(side, gen):  # type: ignore[no-untyped-def]
    """Pop the closed cells off the front of a side's open list."""
    ints = side.ints
    state = side.state
    closed = side.closed
    while state[HEAP_SIZE] > 0 and closed[ints[ints[ints[0, SLOT], HEAD], NODE]] == gen:
        queue_pop(side)


@njit(cache=True, _nrt=False)
def search_bidirectional(terrain, fwd, bwd, run, start, goal):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` (start != goal) under ``fwd.gen``; the answers go to
    ``run``: ``meet`` is -1 when there is no path, ``mu`` the cost, status as
    ``search_best_first`` gives it."""
    pw = terrain.pw
    weights = terrain.weights
    masks = terrain.masks
    offsets = terrain.offsets
    steps = terrain.steps
    weighted = terrain.weighted
    scale = terrain.scale
    use_potential = run.potential != 0
    kind = run.kind
    recording = run.record != 0
    order = run.order
    room = order.shape[0]
    gen = fwd.gen
    g_f = fwd.g
    parent_f = fwd.parent
    seen_f = fwd.seen
    closed_f = fwd.closed
    state_f = fwd.state
    g_b = bwd.g
    parent_b = bwd.parent
    seen_b = bwd.seen
    closed_b = bwd.closed
    state_b = bwd.state
    gx = goal % pw
    gy = goal // pw
    sx = start % pw
    sy = start // pw
    ends = (gx, gy, sx, sy)
    g_f[start] = 0.0
    parent_f[start] = -1
    seen_f[start] = gen
    g_b[goal] = 0.0
    parent_b[goal] = -1
    seen_b[goal] = gen
    p = _potential(use_potential, kind, scale, start, pw, ends)
    state_f[LIFO] = 0  # oldest first among equal keys (the readable counter)
    state_b[LIFO] = 0
    queue_push(fwd, 0.0 + p, start)
    p = _potential(use_potential, kind, scale, goal, pw, ends)
    queue_push(bwd, 0.0 - p, goal)
    open_f = 1
    open_b = 1
    mu = math.inf
    meet = -1
    expanded = 0
    max_frontier = 2
    recorded = 0
    status = NO_PATH
    while True:
        # Step 1: the smallest key of each side, once closed cells are dropped.
        _drop_closed(fwd, gen)
        _drop_closed(bwd, gen)
        top_f = fwd.reals[0, SLOT_KEY] if state_f[HEAP_SIZE] > 0 else math.inf
        top_b = bwd.reals[0, SLOT_KEY] if state_b[HEAP_SIZE] > 0 else math.inf
        if top_f == math.inf or top_b == math.inf or top_f + top_b >= mu:
            break
        # Step 2: expand on the side with fewer open cells.
        forward = open_f <= open_b
        if forward:
            c = pop_first(fwd)
            closed_f[c] = gen
            open_f -= 1
        else:
            c = pop_first(bwd)
            closed_b[c] = gen
            open_b -= 1
        expanded += 1
        if recording:
            if recorded < room:
                order[recorded] = c
            recorded += 1
        gc = g_f[c] if forward else g_b[c]
        mask = masks[c]
        # Step 3: relax the edges; each one that reaches the other side may lower mu.
        for i in range(offsets.shape[0]):
            if not (mask >> i) & 1:
                continue
            n = c + offsets[i]
            # Forward steps pay the weight of the cell entered, backward ones that of c.
            nd = gc + (steps[i] * (weights[n] if forward else weights[c]) if weighted else steps[i])
            if forward:
                if seen_f[n] != gen or nd < g_f[n]:
                    if seen_f[n] != gen:
                        open_f += 1
                        seen_f[n] = gen
                    elif closed_f[n] == gen:
                        continue  # consistent keys: a closed cell is already optimal
                    g_f[n] = nd
                    parent_f[n] = c
                    key = nd + _potential(use_potential, kind, scale, n, pw, ends)
                    push_oldest(fwd, key, n)
                if seen_b[n] == gen:
                    total = g_f[n] + g_b[n]
                    if total < mu:
                        mu = total
                        meet = n
            else:
                if seen_b[n] != gen or nd < g_b[n]:
                    if seen_b[n] != gen:
                        open_b += 1
                        seen_b[n] = gen
                    elif closed_b[n] == gen:
                        continue
                    g_b[n] = nd
                    parent_b[n] = c
                    key = nd - _potential(use_potential, kind, scale, n, pw, ends)
                    push_oldest(bwd, key, n)
                if seen_f[n] == gen:
                    total = g_b[n] + g_f[n]
                    if total < mu:
                        mu = total
                        meet = n
        if state_f[OVERFLOW] or state_b[OVERFLOW]:
            status = OVERFLOWED
            break
        if open_f + open_b > max_frontier:
            max_frontier = open_f + open_b
    if status != OVERFLOWED and meet >= 0:
        status = FOUND
    queue_clear(fwd)
    queue_clear(bwd)
    run.status = status
    run.meet = meet
    run.mu = mu
    run.expanded = expanded
    run.max_frontier = max_frontier
    run.recorded = recorded
    run.gen = gen


@njit(cache=True)
def bidirectional(terrain, fwd, bwd, run, start, goal):  # type: ignore[no-untyped-def]
    """``search_bidirectional`` under a fresh generation, again with more room until it fits.

    Both sides stamp with the forward side's generation (the backward one follows it)."""
    while True:
        fwd.gen = max(fwd.gen, bwd.gen) + 1
        bwd.gen = fwd.gen
        search_bidirectional(terrain, fwd, bwd, run, start, goal)
        if run.status == OVERFLOWED:
            grow_queue(fwd)
            grow_queue(bwd)
        elif not order_room(run):
            return
