"""Compiled jump point search (8-connected, no corner cutting, unit weights): its expansion.

The readable ``algorithms.jump_point`` over arrays: the same pruning rules,
the same jumps, the same open-list order (raw ``g + octile``, newest first
among equal keys) and the same reopening margin, so both expand the same
jump points in the same order.  See that module for the rules.  The search
loop around ``expand_jumps`` is best-first search's (``best_first``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .bucket_queue import push_newest
from .common import HEURISTIC_KINDS, heuristic
from .state import relax

SQRT2 = math.sqrt(2.0)
OCTILE = HEURISTIC_KINDS["octile"]

# A direction (dx, dy) is the code 3 * (dx + 1) + (dy + 1); a node's directions are
# codes packed four bits apiece, first tried lowest (no array: the loop allocates nothing).
_ALL_DIRECTIONS = 0
for _k, (_dx, _dy) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1),
                                  (1, -1))):
    # The eight directions in the order the readable search tries them from the start.
    _ALL_DIRECTIONS |= (3 * (_dx + 1) + (_dy + 1)) << (4 * _k)


_ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_SHIFT58 = np.uint64(58)
# Index of the set bit of a one-bit word w, as _BIT_INDEX[(w * _DE_BRUIJN) >> 58].
_BIT_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


def stop_lines(free: np.ndarray, pw: int) -> np.ndarray:
    """Where straight jumps stop, as bit lines: one bit per cell, 64 cells a word.

    A jump moving east along row y stops at x when (x, y) is blocked or has a
    forced neighbour: a cell above or below that is free at x but blocked at
    x - 1.  Rows ``0..h-1`` of the result hold those bits for eastward jumps
    (bit x of row y), rows ``h..2h-1`` for westward ones, then one line per
    column for southward and for northward jumps (bit y).  Blocked cells
    stop every jump; the kernel tells them apart from forced neighbours.
    One spare word per line lets a scan read past the border safely.
    """
    f = np.pad(free.reshape(-1, pw).astype(bool), 1)  # a blocked ring: no edge cases
    inner = f[1:-1, 1:-1]
    up, down, left, right = f[:-2, 1:-1], f[2:, 1:-1], f[1:-1, :-2], f[1:-1, 2:]
    up_left, up_right = f[:-2, :-2], f[:-2, 2:]
    down_left, down_right = f[2:, :-2], f[2:, 2:]
    east = ~inner | (up & ~up_left) | (down & ~down_left)
    west = ~inner | (up & ~up_right) | (down & ~down_right)
    south = ~inner | (left & ~up_left) | (right & ~up_right)
    north = ~inner | (left & ~down_left) | (right & ~down_right)
    height = inner.shape[0]
    words = max(pw, height) // 64 + 2
    out = np.zeros((2 * height + 2 * pw, words * 8), np.uint8)
    for first, block in ((0, east), (height, west), (2 * height, south.T),
                         (2 * height + pw, north.T)):
        packed = np.packbits(block, axis=1, bitorder="little")
        out[first : first + block.shape[0], : packed.shape[1]] = packed
    return out.view("<u8").astype(np.uint64)


@njit(cache=True, inline="always")
def _lowest(w):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero uint64."""
    return _BIT_INDEX[((w & (~w + _ONE)) * _DE_BRUIJN) >> _SHIFT58]


@njit(cache=True, inline="always")
def _highest(w):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero uint64."""
    for s in (1, 2, 4, 8, 16, 32):
        w |= w >> np.uint64(s)
    w ^= w >> _ONE
    return _BIT_INDEX[(w * _DE_BRUIJN) >> _SHIFT58]


@njit(cache=True, inline="always")
def _direction(dx, dy, k):  # type: ignore[no-untyped-def]
    """Direction ``(dx, dy)`` packed as the ``k``-th of a node's directions."""
    return (3 * (dx + 1) + (dy + 1)) << (4 * k)


@njit(cache=True)
def _sign(v):  # type: ignore[no-untyped-def]
    """-1, 0 or 1 as ``v`` is negative, zero or positive."""
    return (v > 0) - (v < 0)


@njit(cache=True, inline="always")
def expand_jumps(terrain, side, aim, c):  # type: ignore[no-untyped-def]
    """Relax the jump points reached from ``c`` (``aim`` = (goal, gx, gy)) with keys
    ``g + octile``; return how many cells join the open ones."""
    free = terrain.free
    lines = terrain.lines
    pw = terrain.pw
    height = terrain.height
    goal, gx, gy = aim
    joined_all = 0
    gc = side.g[c]
    cx = c % pw
    cy = c // pw
    # Step 1: the pruned directions, from the direction of travel into c.
    p = side.parent[c]
    count = 0
    dirs = 0
    if p < 0:
        dirs = _ALL_DIRECTIONS
        count = 8
    else:
        dx = _sign(cx - p % pw)
        dy = _sign(cy - p // pw)
        if dx != 0 and dy != 0:
            dirs = _direction(dx, 0, 0) | _direction(0, dy, 1) | _direction(dx, dy, 2)
            count = 3
        else:
            dirs = _direction(dx, dy, 0)
            count = 1
            if dx != 0:
                back = c - dx
                for sy in (-1, 1):
                    if free[c + sy * pw] and not free[back + sy * pw]:
                        dirs |= _direction(0, sy, count) | _direction(dx, sy, count + 1)
                        count += 2
            else:
                back = c - dy * pw
                for sx in (-1, 1):
                    if free[c + sx] and not free[back + sx]:
                        dirs |= _direction(sx, 0, count) | _direction(sx, dy, count + 1)
                        count += 2
    # Step 2: jump in each direction and relax the jump point found.
    for k in range(count):
        code = (dirs >> (4 * k)) & 15
        dx = code // 3 - 1
        dy = code % 3 - 1
        # The jumps of the readable version, 64 cells at a time (``stop_lines``).
        n = -1
        diagonal = dx != 0 and dy != 0
        cur = c
        curx = cx
        cury = cy
        while True:
            probes = 1
            if diagonal:
                # A diagonal step needs both orthogonal neighbours free.
                nn = cur + dx + dy * pw
                if not (free[nn] and free[cur + dx] and free[cur + dy * pw]):
                    break
                cur = nn
                curx += dx
                cury += dy
                if cur == goal:
                    n = cur
                    break
                probes = 2
            hit = -1
            for probe in range(probes):
                # A straight probe: along the row (dx) or the column (dy) of cur.
                horizontal = (diagonal and probe == 0) or (not diagonal and dx != 0)
                if horizontal:
                    line = cury if dx > 0 else height + cury
                    pos = curx
                    step = dx
                    goal_pos = gx if gy == cury else -1
                else:
                    line = 2 * height + curx if dy > 0 else 2 * height + pw + curx
                    pos = cury
                    step = dy
                    goal_pos = gy if gx == curx else -1
                # Scan 64 cells a word for the first stop past pos.
                k = pos >> 6
                bit = np.uint64(pos & 63)
                if step > 0:
                    w = lines[line, k] & (_ALL_ONES << bit) & ~(_ONE << bit)
                    while w == _ZERO:
                        k += 1
                        w = lines[line, k]
                    t = (k << 6) + _lowest(w)
                else:
                    w = lines[line, k] & ((_ONE << bit) - _ONE)
                    while w == _ZERO:
                        k -= 1
                        w = lines[line, k]
                    t = (k << 6) + _highest(w)
                if goal_pos >= 0 and ((step > 0 and pos < goal_pos <= t)
                                      or (step < 0 and t <= goal_pos < pos)):
                    t = goal_pos
                cell = cury * pw + t if horizontal else t * pw + curx
                if t != goal_pos and not free[cell]:
                    continue
                hit = cell
                break
            if not diagonal:
                n = hit
                break
            if hit >= 0:
                n = cur
                break
        if n < 0:
            continue
        ddx = abs(n % pw - cx)
        ddy = abs(n // pw - cy)
        ng = gc + (SQRT2 * ddx if ddx != 0 and ddy != 0 else float(ddx + ddy))
        joined = relax(side, c, n, ng, True)
        if joined < 0:
            continue
        joined_all += joined
        push_newest(side, ng + heuristic(OCTILE, n, pw, gx, gy), n)
    return joined_all


@njit(cache=True)
def fill_jumps(points, pw):  # type: ignore[no-untyped-def]
    """The full cell path through consecutive jump points (straight or diagonal segments)."""
    total = 1
    for i in range(points.shape[0] - 1):
        a = points[i]
        b = points[i + 1]
        total += max(abs(b % pw - a % pw), abs(b // pw - a // pw))
    out = np.empty(total, np.int64)
    out[0] = points[0]
    k = 1
    for i in range(points.shape[0] - 1):
        a = points[i]
        b = points[i + 1]
        step = _sign(b % pw - a % pw) + _sign(b // pw - a // pw) * pw
        c = a
        while c != b:
            c += step
            out[k] = c
            k += 1
    return out
