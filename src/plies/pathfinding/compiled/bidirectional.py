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
    BUCKET_KEY,
    FREE_ENTRY,
    HEAD,
    HEAP_SIZE,
    LAST,
    LIFO,
    NEXT,
    NODE,
    OVERFLOW,
    SLOT,
    SLOT_KEY,
    TAIL,
    queue_clear,
    queue_pop,
    queue_push,
)
from .common import FOUND, NO_PATH, OVERFLOWED, heuristic, record


@njit(cache=True, inline="always")
def _potential(use, kind, scale, n, pw, gx, gy, sx, sy):  # type: ignore[no-untyped-def]
    """Half the difference of the distance estimates to the goal and to the start."""
    if not use:
        return 0.0
    to_goal = scale * heuristic(kind, n, pw, gx, gy)
    to_start = scale * heuristic(kind, n, pw, sx, sy)
    return (to_goal - to_start) / 2.0


@njit(cache=True)
def bidirectional_kernel(  # type: ignore[no-untyped-def]
    weights, masks, offsets, steps, pw, start, goal, weighted, use_potential, kind, scale,
    recording, gen,
    g_f, parent_f, seen_f, closed_f, ints_f, reals_f, table_f, state_f,
    g_b, parent_b, seen_b, closed_b, ints_b, reals_b, table_b, state_b,
    order,
):
    """Search from ``start`` to ``goal`` (start != goal).

    Returns (status, meet, mu, expanded, max_frontier, recorded, order); ``meet`` is
    -1 when there is no path; status as ``best_first_kernel`` gives it.
    """
    gx = goal % pw
    gy = goal // pw
    sx = start % pw
    sy = start // pw
    g_f[start] = 0.0
    parent_f[start] = -1
    seen_f[start] = gen
    g_b[goal] = 0.0
    parent_b[goal] = -1
    seen_b[goal] = gen
    p = _potential(use_potential, kind, scale, start, pw, gx, gy, sx, sy)
    state_f[LIFO] = 0  # oldest first among equal keys (the readable counter)
    state_b[LIFO] = 0
    queue_push(ints_f, reals_f, table_f, state_f, 0.0 + p, start)
    p = _potential(use_potential, kind, scale, goal, pw, gx, gy, sx, sy)
    queue_push(ints_b, reals_b, table_b, state_b, 0.0 - p, goal)
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
        while (state_f[HEAP_SIZE] > 0
               and closed_f[ints_f[ints_f[ints_f[0, SLOT], HEAD], NODE]] == gen):
            queue_pop(ints_f, reals_f, table_f, state_f)
        while (state_b[HEAP_SIZE] > 0
               and closed_b[ints_b[ints_b[ints_b[0, SLOT], HEAD], NODE]] == gen):
            queue_pop(ints_b, reals_b, table_b, state_b)
        top_f = reals_f[0, SLOT_KEY] if state_f[HEAP_SIZE] > 0 else math.inf
        top_b = reals_b[0, SLOT_KEY] if state_b[HEAP_SIZE] > 0 else math.inf
        if top_f == math.inf or top_b == math.inf or top_f + top_b >= mu:
            break
        # Step 2: expand on the side with fewer open cells.
        forward = open_f <= open_b
        if forward:
            # FAST PATH (bucket_queue): pop the smallest key's first entry.
            b = ints_f[0, SLOT]
            e = ints_f[b, HEAD]
            nxt = ints_f[e, NEXT]
            if nxt < 0:
                c = queue_pop(ints_f, reals_f, table_f, state_f)
            else:
                c = ints_f[e, NODE]
                ints_f[e, NEXT] = state_f[FREE_ENTRY]
                state_f[FREE_ENTRY] = e
                ints_f[b, HEAD] = nxt
            closed_f[c] = gen
            open_f -= 1
        else:
            # FAST PATH (bucket_queue): pop the smallest key's first entry.
            b = ints_b[0, SLOT]
            e = ints_b[b, HEAD]
            nxt = ints_b[e, NEXT]
            if nxt < 0:
                c = queue_pop(ints_b, reals_b, table_b, state_b)
            else:
                c = ints_b[e, NODE]
                ints_b[e, NEXT] = state_b[FREE_ENTRY]
                state_b[FREE_ENTRY] = e
                ints_b[b, HEAD] = nxt
            closed_b[c] = gen
            open_b -= 1
        expanded += 1
        if recording:
            order = record(order, recorded, c)
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
                    key = nd + _potential(use_potential, kind, scale, n, pw, gx, gy, sx, sy)
                    # FAST PATH (bucket_queue): a recycled entry at the back of the last key's list.
                    e = state_f[FREE_ENTRY]
                    b = state_f[LAST]
                    if e < 0 or reals_f[b, BUCKET_KEY] != key:
                        queue_push(ints_f, reals_f, table_f, state_f, key, n)
                    else:
                        state_f[FREE_ENTRY] = ints_f[e, NEXT]
                        ints_f[e, NODE] = n
                        ints_f[e, NEXT] = -1
                        ints_f[ints_f[b, TAIL], NEXT] = e
                        ints_f[b, TAIL] = e
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
                    key = nd - _potential(use_potential, kind, scale, n, pw, gx, gy, sx, sy)
                    # FAST PATH (bucket_queue): a recycled entry at the back of the last key's list.
                    e = state_b[FREE_ENTRY]
                    b = state_b[LAST]
                    if e < 0 or reals_b[b, BUCKET_KEY] != key:
                        queue_push(ints_b, reals_b, table_b, state_b, key, n)
                    else:
                        state_b[FREE_ENTRY] = ints_b[e, NEXT]
                        ints_b[e, NODE] = n
                        ints_b[e, NEXT] = -1
                        ints_b[ints_b[b, TAIL], NEXT] = e
                        ints_b[b, TAIL] = e
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
    queue_clear(ints_f, reals_f, table_f, state_f)
    queue_clear(ints_b, reals_b, table_b, state_b)
    return status, meet, mu, expanded, max_frontier, recorded, order
