"""Compiled loops that run many queries on one grid, timing each one.

One call per batch instead of one per query keeps the per-query overhead to
the search itself plus two reads of the cycle counter (``seconds`` holds
cycles until the caller rescales them).  ``queries`` is an int64 array of
``(start, goal)`` rows; costs are ``inf`` where there is no path.  Each query
runs under a fresh generation, so no array is cleared between queries; a
query whose open list overflows grows it and runs again.  The run must not
record (``plan`` with ``record`` off).
"""

from __future__ import annotations

import math

from numba import njit

from .best_first import search_best_first
from .bidirectional import search_bidirectional
from .breadth_first import search_breadth_first
from .common import FOUND, OVERFLOWED
from .cycles import clock as _clock
from .jump_point import search_jump_point
from .state import grow_queue, order_room

BEST_FIRST_SEARCH, JUMP_POINT_SEARCH, BREADTH_FIRST_SEARCH = 0, 1, 2
"""Which one-sided search ``search_one_sided`` and ``batch_one_sided`` run."""


@njit(cache=True, inline="always")
def _one_sided(algorithm, terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """One search of the chosen one-sided algorithm under a fresh generation."""
    side.gen += 1
    if algorithm == BEST_FIRST_SEARCH:
        search_best_first(terrain, side, run, start, goal)
    elif algorithm == JUMP_POINT_SEARCH:
        search_jump_point(terrain, side, run, start, goal)
    else:
        search_breadth_first(terrain, side, run, start, goal)


@njit(cache=True)
def search_one_sided(algorithm, terrain, side, run, start, goal):  # type: ignore[no-untyped-def]
    """One query of a one-sided search, run again with more room until its open list and
    its order buffer held it (breadth-first never overflows)."""
    while True:
        _one_sided(algorithm, terrain, side, run, start, goal)
        if run.status == OVERFLOWED:
            grow_queue(side)
        elif not order_room(run):
            return


@njit(cache=True)
def batch_one_sided(  # type: ignore[no-untyped-def]
    algorithm, terrain, side, run, queries, costs, expanded, seconds,
):
    """Best-first (UCS, greedy, A*), jump point or breadth-first search for every query."""
    g = side.g
    for q in range(queries.shape[0]):
        start = queries[q, 0]
        goal = queries[q, 1]
        t0 = _clock()
        if algorithm == BREADTH_FIRST_SEARCH and start == goal:
            g[goal] = 0.0
            run.status = FOUND
            run.expanded = 0
        else:
            _one_sided(algorithm, terrain, side, run, start, goal)
            while run.status == OVERFLOWED:
                grow_queue(side)
                _one_sided(algorithm, terrain, side, run, start, goal)
        seconds[q] = _clock() - t0
        costs[q] = g[goal] if run.status == FOUND else math.inf
        expanded[q] = run.expanded


@njit(cache=True)
def batch_bidirectional(  # type: ignore[no-untyped-def]
    terrain, fwd, bwd, run, queries, costs, expanded, seconds,
):
    """Bidirectional search (Dijkstra or A*) for every query."""
    for q in range(queries.shape[0]):
        start = queries[q, 0]
        goal = queries[q, 1]
        t0 = _clock()
        mu = 0.0
        count = 0
        if start != goal:
            while True:
                fwd.gen = max(fwd.gen, bwd.gen) + 1
                bwd.gen = fwd.gen
                search_bidirectional(terrain, fwd, bwd, run, start, goal)
                if run.status != OVERFLOWED:
                    break
                grow_queue(fwd)
                grow_queue(bwd)
            mu = run.mu
            count = run.expanded
        seconds[q] = _clock() - t0
        costs[q] = mu
        expanded[q] = count
