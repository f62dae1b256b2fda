"""Compiled (numba) grid searches: BFS, Dijkstra, greedy, A*, bidirectional and JPS.

Each kernel follows the readable version in ``plies.pathfinding.algorithms``
step for step (same order, same tie-breaking, same costs) over the padded
grid arrays, with a binary heap over arrays and no Python object in the
loop.  ``searcher_for(grid)`` is the way in: one ``GridSearcher`` per grid,
one query with ``run`` or many with ``batch``.  They are built from the plain
grid model (``plies.pathfinding.grid``), which never imports them.
"""

from __future__ import annotations

from plies.blas import answer_blas_probe
from plies.jitcache import install

answer_blas_probe()
install()

from .searcher import (  # noqa: E402 - the cache locator comes before any compiled function
    COMPILED_ALGORITHMS,
    BatchResult,
    GridSearcher,
    optimal_here,
    searcher_for,
)

__all__ = ["COMPILED_ALGORITHMS", "BatchResult", "GridSearcher", "optimal_here", "searcher_for"]
