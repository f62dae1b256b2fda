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
from .state import cells_of, moves_of, note, reach_start


@njit(cache=True, inline="always")
def _potential(reduce, n):  # type: ignore[no-untyped-def]
    """Half the difference of the distance estimates to the goal and to the start
    (``reduce``: use, heuristic kind, scale, pw, goal x, goal y, start x, start y)."""
    use, kind, scale, pw, gx, gy, sx, sy = reduce
    if not use:
        return 0.0
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


@njit(cache=True, inline="always")
def _reach(mine, near, far, c, n, nd, sign, reduce):  # type: ignore[no-untyped-def]
    """Offer ``n`` the cost ``nd`` through ``c`` on side ``mine`` (its ``cells_of`` arrays
    ``near``, the other side's ``far``), under the key ``nd + sign * potential``; return
    (how many cells join mine's open ones, the cost through ``n`` when the other side has
    reached it, else inf)."""
    gen = mine.gen
    g, parent, seen, closed = near
    far_g, _, far_seen, _ = far
    joined = 0
    if seen[n] != gen or nd < g[n]:
        if seen[n] != gen:
            joined = 1
            seen[n] = gen
        elif closed[n] == gen:
            return 0, math.inf  # consistent keys: a closed cell is already optimal
        g[n] = nd
        parent[n] = c
        push_oldest(mine, nd + sign * _potential(reduce, n), n)
    if far_seen[n] == gen:
        return joined, g[n] + far_g[n]
    return joined, math.inf


@njit(cache=True, inline="always")
def _expand(mine, near, far, c, forward, moves, reduce):  # type: ignore[no-untyped-def]
    """Relax the edges out of ``c`` on side ``mine`` (``near`` and ``far`` as for ``_reach``;
    ``moves`` from ``moves_of``); return (how many cells join mine's open ones, the cheapest
    connection to the other side found, and the cell it runs through, -1 if none)."""
    _, masks, offsets, steps, _, _, weights, weighted, _ = moves
    sign = 1.0 if forward else -1.0
    gc = near[0][c]
    mask = masks[c]
    joined_all = 0
    best = math.inf
    meet = -1
    for i in range(offsets.shape[0]):
        if not (mask >> i) & 1:
            continue
        n = c + offsets[i]
        # Forward steps pay the weight of the cell entered, backward ones that of c.
        nd = gc + (steps[i] * (weights[n] if forward else weights[c]) if weighted else steps[i])
        joined, total = _reach(mine, near, far, c, n, nd, sign, reduce)
        joined_all += joined
        if total < best:
            best = total
            meet = n
    return joined_all, best, meet


@njit(cache=True, _nrt=False)
def search_bidirectional(terrain, fwd, bwd, run, start, goal):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` (start != goal) under ``fwd.gen`` (which ``bwd.gen``
    equals); the answers go to ``run``: ``meet`` is -1 when there is no path, ``cost`` the
    cost, status as ``search_best_first`` gives it."""
    moves = moves_of(terrain)
    pw = moves[0]
    scale = moves[8]
    _, _, kind, _, use_potential, recording = run.ask
    order = run.order
    gen = fwd.gen
    reduce = (use_potential, kind, scale, pw, goal % pw, goal // pw, start % pw, start // pw)
    cells_f = cells_of(fwd)
    cells_b = cells_of(bwd)
    reach_start(fwd, start)
    reach_start(bwd, goal)
    fwd.state[LIFO] = 0  # oldest first among equal keys (the readable counter)
    bwd.state[LIFO] = 0
    queue_push(fwd, 0.0 + _potential(reduce, start), start)
    queue_push(bwd, 0.0 - _potential(reduce, goal), goal)
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
        top_f = fwd.reals[0, SLOT_KEY] if fwd.state[HEAP_SIZE] > 0 else math.inf
        top_b = bwd.reals[0, SLOT_KEY] if bwd.state[HEAP_SIZE] > 0 else math.inf
        if top_f == math.inf or top_b == math.inf or top_f + top_b >= mu:
            break
        # Step 2: expand on the side with fewer open cells; step 3: relax its edges, each
        # one that reaches the other side may lower mu.  Two calls with a constant
        # direction, so each is compiled for its side.
        if open_f <= open_b:
            c = pop_first(fwd)
            cells_f[3][c] = gen
            joined, total, through = _expand(fwd, cells_f, cells_b, c, True, moves, reduce)
            open_f += joined - 1
        else:
            c = pop_first(bwd)
            cells_b[3][c] = gen
            joined, total, through = _expand(bwd, cells_b, cells_f, c, False, moves, reduce)
            open_b += joined - 1
        expanded += 1
        if recording:
            recorded = note(order, recorded, c)
        if total < mu:
            mu = total
            meet = through
        if fwd.state[OVERFLOW] or bwd.state[OVERFLOW]:
            status = OVERFLOWED
            break
        if open_f + open_b > max_frontier:
            max_frontier = open_f + open_b
    if status != OVERFLOWED and meet >= 0:
        status = FOUND
    queue_clear(fwd)
    queue_clear(bwd)
    run.answer = (status, expanded, max_frontier, recorded, meet, mu, 0, 0, gen)
