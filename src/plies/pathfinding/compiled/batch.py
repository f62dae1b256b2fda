"""Compiled loops that run many queries on one grid, timing each one.

One call per batch instead of one per query keeps the per-query overhead to
the search itself plus two reads of the cycle counter (``seconds`` holds
cycles until the caller rescales them).
Query ``q`` runs with generation ``gen + q``, so no array is cleared between
queries.  Costs are ``inf`` where there is no path.  Each loop returns the
index of the first query whose open list overflowed (-1 if none): the
caller grows the queue and resumes from there.  ``recording`` is always
False; it is a parameter so that the kernels are called with the same
argument types as from Python (a literal would compile a second copy).
"""

from __future__ import annotations

import math

from numba import njit

from .best_first import best_first_kernel
from .bidirectional import bidirectional_kernel
from .breadth_first import breadth_first_kernel
from .common import FOUND, OVERFLOWED
from .cycles import clock as _clock
from .jump_point import jump_point_kernel


@njit(cache=True)
def batch_best_first(  # type: ignore[no-untyped-def]
    free, weights, masks, offsets, steps, move_dx, move_dy, pw, starts, goals,
    g_weight, h_weight, scale, kind, weighted, reopen,
    g, parent, seen, closed, gen, ints, reals, table, state, order, costs, expanded, seconds,
    recording,
):
    """Best-first search (UCS, greedy, A*) for every start/goal pair."""
    for q in range(starts.shape[0]):
        t0 = _clock()
        status, count, _, _, _ = best_first_kernel(
            free, weights, masks, offsets, steps, move_dx, move_dy, pw, starts[q], goals[q],
            g_weight, h_weight, scale, kind, weighted, reopen, recording,
            g, parent, seen, closed, gen + q, ints, reals, table, state, order,
        )
        seconds[q] = _clock() - t0
        if status == OVERFLOWED:
            return q
        costs[q] = g[goals[q]] if status == FOUND else math.inf
        expanded[q] = count
    return -1


@njit(cache=True)
def batch_jump_point(  # type: ignore[no-untyped-def]
    free, lines, pw, starts, goals, g, parent, seen, closed, gen, ints, reals, table, state,
    order, costs, expanded, seconds, recording,
):
    """Jump point search for every start/goal pair."""
    for q in range(starts.shape[0]):
        t0 = _clock()
        status, count, _, _, _ = jump_point_kernel(
            free, lines, pw, starts[q], goals[q], recording, g, parent, seen, closed, gen + q,
            ints, reals, table, state, order,
        )
        seconds[q] = _clock() - t0
        if status == OVERFLOWED:
            return q
        costs[q] = g[goals[q]] if status == FOUND else math.inf
        expanded[q] = count
    return -1


@njit(cache=True)
def batch_breadth_first(  # type: ignore[no-untyped-def]
    weights, masks, offsets, steps, starts, goals, weighted, g, parent, seen, gen, queue,
    order, costs, expanded, seconds, recording,
):
    """Breadth-first search for every start/goal pair (never overflows: returns -1)."""
    for q in range(starts.shape[0]):
        t0 = _clock()
        found = True
        count = 0
        if starts[q] == goals[q]:
            g[goals[q]] = 0.0
        else:
            found, count, _, _, _, _, _ = breadth_first_kernel(
                weights, masks, offsets, steps, starts[q], goals[q], weighted, recording,
                g, parent, seen, gen + q, queue, order,
            )
        seconds[q] = _clock() - t0
        costs[q] = g[goals[q]] if found else math.inf
        expanded[q] = count
    return -1


@njit(cache=True)
def batch_bidirectional(  # type: ignore[no-untyped-def]
    weights, masks, offsets, steps, pw, starts, goals, weighted, use_potential, kind, scale,
    gen,
    g_f, parent_f, seen_f, closed_f, ints_f, reals_f, table_f, state_f,
    g_b, parent_b, seen_b, closed_b, ints_b, reals_b, table_b, state_b,
    order, costs, expanded, seconds, recording,
):
    """Bidirectional search (Dijkstra or A*) for every start/goal pair."""
    for q in range(starts.shape[0]):
        t0 = _clock()
        status = FOUND
        mu = 0.0
        count = 0
        if starts[q] != goals[q]:
            status, _, mu, count, _, _, _ = bidirectional_kernel(
                weights, masks, offsets, steps, pw, starts[q], goals[q], weighted,
                use_potential, kind, scale, recording, gen + q,
                g_f, parent_f, seen_f, closed_f, ints_f, reals_f, table_f, state_f,
                g_b, parent_b, seen_b, closed_b, ints_b, reals_b, table_b, state_b, order,
            )
        seconds[q] = _clock() - t0
        if status == OVERFLOWED:
            return q
        costs[q] = mu
        expanded[q] = count
    return -1
