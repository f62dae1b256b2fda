"""The compiled entries Python calls: one query (``search``) or many, timed (``batch``).

Both run each query under a fresh generation, so no array is cleared between
queries, and run it again with a doubled open list when the list overflowed;
``search`` also runs it again with a larger order buffer when the recording
did not fit.  The algorithm is a number (``BEST_FIRST_SEARCH`` ...); ``fwd``
is the scratch space of one-sided searches, ``bwd`` the backward side of the
bidirectional one (one-sided searches may pass ``fwd`` again).

``batch`` keeps the per-query overhead to the search itself plus two reads
of the cycle counter: ``queries`` is an int64 array of ``(start, goal)``
rows, and row ``q`` of ``answers`` gets the cost (``inf`` where there is no
path), the cells expanded and the cycles taken (the caller rescales them to
seconds).  The run must not record (``plan`` with ``record`` off).
"""

from __future__ import annotations

from numba import njit

from .best_first import search_best_first, search_jump_point
from .bidirectional import search_bidirectional
from .breadth_first import search_breadth_first
from .common import FOUND, OVERFLOWED
from .cycles import clock as _clock
from .state import COST, EXPANDED, STATUS, grow_queue, order_room

BEST_FIRST_SEARCH, JUMP_POINT_SEARCH, BREADTH_FIRST_SEARCH, BIDIRECTIONAL_SEARCH = range(4)
"""Which kernel ``search`` and ``batch`` run."""

_COST, _EXPANDED, _CYCLES = range(3)
"""Columns of ``batch``'s answers."""


@njit(cache=True)
def _solve(algorithm, terrain, fwd, bwd, run, start, goal):  # type: ignore[no-untyped-def]
    """One query under a fresh generation, again with a doubled open list until it fits."""
    while True:
        gen = max(fwd.gen, bwd.gen) + 1
        fwd.gen = gen
        bwd.gen = gen
        if start == goal and algorithm in (BREADTH_FIRST_SEARCH, BIDIRECTIONAL_SEARCH):
            # These kernels take start != goal: the empty path, nothing expanded.
            run.answer = (FOUND, 0, 1, 0, goal, 0.0, 0, 0, gen)
        elif algorithm == BIDIRECTIONAL_SEARCH:
            search_bidirectional(terrain, fwd, bwd, run, start, goal)
        elif algorithm == BREADTH_FIRST_SEARCH:
            search_breadth_first(terrain, fwd, run, start, goal)
        elif algorithm == JUMP_POINT_SEARCH:
            search_jump_point(terrain, fwd, run, start, goal)
        else:
            search_best_first(terrain, fwd, run, start, goal)
        if run.answer[STATUS] != OVERFLOWED:
            return
        grow_queue(fwd)
        if algorithm == BIDIRECTIONAL_SEARCH:
            grow_queue(bwd)


@njit(cache=True)
def search(algorithm, terrain, fwd, bwd, run, start, goal):  # type: ignore[no-untyped-def]
    """One query, again with a larger order buffer until the recording fitted."""
    while True:
        _solve(algorithm, terrain, fwd, bwd, run, start, goal)
        if not order_room(run):
            return


@njit(cache=True)
def batch(algorithm, terrain, fwd, bwd, run, queries, answers):  # type: ignore[no-untyped-def]
    """Every query of ``queries``, each timed; its cost, expansions and cycles to ``answers``."""
    for q in range(queries.shape[0]):
        t0 = _clock()
        _solve(algorithm, terrain, fwd, bwd, run, queries[q, 0], queries[q, 1])
        answers[q, _CYCLES] = _clock() - t0
        answers[q, _COST] = run.answer[COST]
        answers[q, _EXPANDED] = run.answer[EXPANDED]
