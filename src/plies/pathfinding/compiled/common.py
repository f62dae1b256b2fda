"""Small compiled helpers shared by the grid kernels: heuristics and paths.

Every kernel works on the padded layout of ``Grid`` (one blocked border cell
around the map), where cell ``(x, y)`` is index ``(y + 1) * pw + x + 1`` and
``pw = width + 2``.  Heuristic kinds are numbered: see ``HEURISTIC_KINDS``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: Heuristic names as the kernels number them.
HEURISTIC_KINDS = {"zero": 0, "manhattan": 1, "octile": 2, "euclidean": 3}

# sqrt(2) - 2, so octile is ``dx + dy + K * min(dx, dy)`` (heuristics.SQRT2_MINUS_2).
OCTILE_K = math.sqrt(2.0) - 2.0

# Same rounding of priorities as the readable best-first search (best_first.TIE_SHIFT).
TIE_SHIFT = 2.0**20

# What a kernel says about its search.
FOUND, NO_PATH, OVERFLOWED = 1, 0, -1

# Same reopening margin as the readable searches (best_first.REOPEN_EPSILON).
REOPEN_EPSILON = 1e-9


@njit(cache=True, inline="always")
def heuristic(kind, index, pw, gx, gy):  # type: ignore[no-untyped-def]
    """Unscaled distance estimate of kind ``kind`` from padded ``index`` to ``(gx, gy)``."""
    return heuristic_xy(kind, index % pw, index // pw, gx, gy)


@njit(cache=True, inline="always")
def heuristic_xy(kind, x, y, gx, gy):  # type: ignore[no-untyped-def]
    """Unscaled distance estimate of kind ``kind`` from ``(x, y)`` to ``(gx, gy)``."""
    dx = x - gx
    dy = y - gy
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    if kind == 2:
        return float(dx + dy) + OCTILE_K * float(dx if dx < dy else dy)
    if kind == 1:
        return float(dx + dy)
    if kind == 3:
        return math.sqrt(float(dx * dx + dy * dy))
    return 0.0


@njit(cache=True)
def parent_chain(parent, start, node):  # type: ignore[no-untyped-def]
    """The indices from ``start`` to ``node`` by following ``parent`` back from ``node``."""
    count = 1
    c = node
    while c != start:
        c = parent[c]
        count += 1
    out = np.empty(count, np.int64)
    c = node
    for i in range(count - 1, -1, -1):
        out[i] = c
        if i:
            c = parent[c]
    return out
