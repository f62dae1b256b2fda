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
"""

from __future__ import annotations

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
    key_slot,
    queue_clear,
    queue_pop,
    queue_push,
)
from .common import (
    FOUND,
    NO_PATH,
    OVERFLOWED,
    REOPEN_EPSILON,
    TIE_SHIFT,
    heuristic,
    heuristic_xy,
    record,
)


@njit(cache=True)
def best_first_kernel(  # type: ignore[no-untyped-def]
    free, weights, masks, offsets, steps, move_dx, move_dy, pw, start, goal,
    g_weight, h_weight, scale, kind, weighted, reopen, recording,
    g, parent, seen, closed, gen, ints, reals, table, state, order,
):
    """Search from ``start`` to ``goal``; returns (status, expanded, max_frontier, recorded,
    order): status FOUND, NO_PATH or OVERFLOWED (the queue was too small)."""
    gx = goal % pw
    gy = goal // pw
    moves = offsets.shape[0]
    g[start] = 0.0
    parent[start] = -1
    seen[start] = gen
    f = h_weight * (scale * heuristic(kind, start, pw, gx, gy)) if h_weight != 0.0 else 0.0
    f = (f + TIE_SHIFT) - TIE_SHIFT
    state[LIFO] = 1  # newest first among equal keys, as the readable search
    queue_push(ints, reals, table, state, f, start)
    open_count = 1
    max_frontier = 1
    expanded = 0
    recorded = 0
    status = NO_PATH
    while state[HEAP_SIZE] > 0:
        # FAST PATH (bucket_queue): pop the smallest key's first entry.
        b = ints[0, SLOT]
        e = ints[b, HEAD]
        nxt = ints[e, NEXT]
        if nxt < 0:
            c = queue_pop(ints, reals, table, state)
        else:
            c = ints[e, NODE]
            ints[e, NEXT] = state[FREE_ENTRY]
            state[FREE_ENTRY] = e
            ints[b, HEAD] = nxt
        if closed[c] == gen:
            continue
        closed[c] = gen
        open_count -= 1
        expanded += 1
        if recording:
            order = record(order, recorded, c)
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
            if seen[n] == gen:
                old = g[n]
                if ng >= old:
                    continue
                if closed[n] == gen:
                    if not reopen or ng >= old - REOPEN_EPSILON * (1.0 + old):
                        continue
                    closed[n] = 0
                    open_count += 1
            else:
                seen[n] = gen
                open_count += 1
            g[n] = ng
            parent[n] = c
            f = g_weight * ng
            if h_weight != 0.0:
                h = heuristic_xy(kind, cx + move_dx[i], cy + move_dy[i], gx, gy)
                f += h_weight * (scale * h)
            f = (f + TIE_SHIFT) - TIE_SHIFT
            # FAST PATH (bucket_queue): a recycled entry under a key already open.
            e = state[FREE_ENTRY]
            b = state[LAST]
            if e >= 0 and reals[b, BUCKET_KEY] != f:
                b = ints[0, SLOT]
                if reals[b, BUCKET_KEY] != f:
                    # Another open key: find it in the table (-1 if it is new).
                    wrap = table.shape[0] - 1
                    slot = key_slot(f, wrap)
                    b = table[slot]
                    while b >= 0 and reals[b, BUCKET_KEY] != f:
                        slot = (slot + 1) & wrap
                        b = table[slot]
            if e < 0 or b < 0:
                queue_push(ints, reals, table, state, f, n)
            else:
                state[FREE_ENTRY] = ints[e, NEXT]
                state[LAST] = b
                ints[e, NODE] = n
                ints[e, NEXT] = ints[b, HEAD]
                ints[b, HEAD] = e
        if state[OVERFLOW]:
            status = OVERFLOWED
            break
        if open_count > max_frontier:
            max_frontier = open_count
    queue_clear(ints, reals, table, state)
    return status, expanded, max_frontier, recorded, order
