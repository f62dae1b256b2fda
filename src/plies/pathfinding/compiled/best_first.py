"""Compiled best-first search on a grid: uniform cost (Dijkstra), greedy, A* and jump point.

The same algorithm as the readable ``algorithms.best_first`` and the same
order: priority ``g_weight * g + h_weight * h`` rounded with ``TIE_SHIFT``,
newest first among equal priorities (the open list is the same heap of
distinct keys with a LIFO list per key, see ``bucket_queue``), goal tested
on expansion, a closed cell reopened only when a path cheaper by more than
``REOPEN_EPSILON`` turns up.  So both expand the same cells in the same
order and return the same cost; this one does it over arrays with no
Python object in the loop.

Jump point search is the same loop: only the expansion differs (the jumps
of ``jump_point.expand_jumps`` instead of the grid's moves), and its keys are
the raw ``g + octile``, as the readable jump point search orders them.

``seen[i] == gen`` marks cells whose ``g`` belongs to this search and
``closed[i] == gen`` the expanded ones, so a reused workspace needs no reset.
The search loop is compiled with ``_nrt=False`` (see ``bucket_queue``); the
entries in ``batch`` (reference counted, as a function called from Python
must be) grow the open list or the order buffer and run it again when either
was too small.
"""

from __future__ import annotations

import math

from numba import njit

from .bucket_queue import HEAP_SIZE, LIFO, OVERFLOW, pop_first, push_newest, queue_clear, queue_push
from .common import FOUND, NO_PATH, OVERFLOWED, TIE_SHIFT, heuristic, heuristic_xy
from .jump_point import expand_jumps
from .state import moves_of, note, reach_start, relax


@njit(cache=True, inline="always")
def _expand_moves(side, moves, ask, aim, c):  # type: ignore[no-untyped-def]
    """Relax the grid moves out of ``c`` (``moves`` from ``moves_of``, ``ask`` the run's,
    ``aim`` = (goal, gx, gy)); return how many cells join the open ones."""
    pw, masks, offsets, steps, move_dx, move_dy, weights, weighted, scale = moves
    g_weight, h_weight, kind, reopen, _, _ = ask
    _, gx, gy = aim
    gc = side.g[c]
    mask = masks[c]
    # One division per expansion: neighbours' coordinates come from c's.
    cx = c % pw
    cy = c // pw
    joined_all = 0
    for i in range(offsets.shape[0]):
        if not (mask >> i) & 1:
            continue
        n = c + offsets[i]
        ng = gc + steps[i] * weights[n] if weighted else gc + steps[i]
        joined = relax(side, c, n, ng, reopen)
        if joined < 0:
            continue
        joined_all += joined
        f = g_weight * ng
        if h_weight != 0.0:
            h = heuristic_xy(kind, cx + move_dx[i], cy + move_dy[i], gx, gy)
            f += h_weight * (scale * h)
        f = (f + TIE_SHIFT) - TIE_SHIFT
        push_newest(side, f, n)
    return joined_all


@njit(cache=True, inline="always")
def _search(terrain, side, run, start, goal, jump):  # type: ignore[no-untyped-def]
    """Search from ``start`` to ``goal`` under ``side.gen`` (by jumps with ``jump``); the
    answers go to ``run``: status FOUND, NO_PATH or OVERFLOWED (the queue was too small)."""
    moves = moves_of(terrain)
    pw = moves[0]
    ask = run.ask
    _, h_weight, kind, _, _, recording = ask
    order = run.order
    closed = side.closed
    gen = side.gen
    state = side.state
    aim = (goal, goal % pw, goal // pw)
    reach_start(side, start)
    f = h_weight * (terrain.scale * heuristic(kind, start, pw, aim[1], aim[2])) if h_weight else 0.0
    if not jump:
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
            recorded = note(order, recorded, c)
        if c == goal:
            status = FOUND
            break
        if jump:
            open_count += expand_jumps(terrain, side, aim, c)
        else:
            open_count += _expand_moves(side, moves, ask, aim, c)
        if state[OVERFLOW]:
            status = OVERFLOWED
            break
        if open_count > max_frontier:
            max_frontier = open_count
    queue_clear(side)
    found = status == FOUND
    run.answer = (status, expanded, max_frontier, recorded, goal if found else -1,
                  side.g[goal] if found else math.inf, 0, 0, gen)


# The loop is inlined into one kernel per expansion with a constant ``jump``, so each
# compiles to its own loop with no test or trace of the other expansion in it.


@njit(cache=True, _nrt=False)
def search_best_first(terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """Uniform cost, greedy or A* as ``run.ask`` says: ``_search`` over the grid's moves."""
    _search(terrain, side, run, start, goal, False)


@njit(cache=True, _nrt=False)
def search_jump_point(terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """Jump point search: ``_search`` over the jumps of ``expand_jumps``."""
    _search(terrain, side, run, start, goal, True)
