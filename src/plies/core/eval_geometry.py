"""The board geometry the evaluation reads: relative ranks, king shields and zones, pawn fills.

Masks are built once at import (White's view first, then Black's) and compiled in as
constants; the fills and shifts are small inlined bit operations.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import U64
from plies.core.tables import KING_ATTACKS

DARK_SQUARES = U64(0xAA55AA55AA55AA55)
FILE_A = U64(0x0101010101010101)
FILE_H = U64(0x8080808080808080)


def _masks() -> tuple[np.ndarray, ...]:
    """Relative-rank, king-shield, king-file and king-zone masks."""
    rank_rel = np.zeros((2, 8), dtype=np.uint64)
    for r in range(8):
        rank_rel[0, r] = 0xFF << (8 * r)
        rank_rel[1, r] = 0xFF << (8 * (7 - r))
    shield1 = np.zeros((2, 64), dtype=np.uint64)
    shield2 = np.zeros((2, 64), dtype=np.uint64)
    king_files = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        near = [x for x in (f - 1, f, f + 1) if 0 <= x < 8]
        # One square per file near the king (on rank 1): counts files, not squares.
        king_files[sq] = sum(1 << x for x in near)
        for c, step in ((0, 1), (1, -1)):
            for dist, table in ((1, shield1), (2, shield2)):
                rr = r + dist * step
                if 0 <= rr < 8:
                    table[c, sq] = sum(1 << (rr * 8 + x) for x in near)
    zone = KING_ATTACKS | (np.uint64(1) << np.arange(64, dtype=np.uint64))
    return rank_rel, shield1, shield2, king_files, zone


RANK_REL, SHIELD_1, SHIELD_2, KING_FILES, KING_ZONE = _masks()

_NOT_A = U64(0xFEFEFEFEFEFEFEFE)
_NOT_H = U64(0x7F7F7F7F7F7F7F7F)


@njit(cache=True, inline="always")
def north_fill(b: np.uint64) -> np.uint64:
    """Each set bit smeared toward rank 8."""
    b |= b << U64(8)
    b |= b << U64(16)
    return b | (b << U64(32))


@njit(cache=True, inline="always")
def south_fill(b: np.uint64) -> np.uint64:
    """Each set bit smeared toward rank 1."""
    b |= b >> U64(8)
    b |= b >> U64(16)
    return b | (b >> U64(32))


@njit(cache=True, inline="always")
def sideways(b: np.uint64) -> np.uint64:
    """Squares beside the set bits on the same rank."""
    return ((b & _NOT_A) >> U64(1)) | ((b & _NOT_H) << U64(1))


@njit(cache=True, inline="always")
def pawn_attacks(pawns: np.uint64, color: int) -> np.uint64:
    """Squares attacked by the pawns of ``color``."""
    if color == 0:
        return ((pawns & _NOT_A) << U64(7)) | ((pawns & _NOT_H) << U64(9))
    return ((pawns & _NOT_A) >> U64(9)) | ((pawns & _NOT_H) >> U64(7))


@njit(cache=True, inline="always")
def behind(b: np.uint64, color: int) -> np.uint64:
    """Squares strictly behind the set bits, from ``color``'s point of view."""
    if color == 0:
        return south_fill(b >> U64(8))
    return north_fill(b << U64(8))


@njit(cache=True, inline="always")
def distance(a: int, b: int) -> int:
    """King-step (Chebyshev) distance between two squares."""
    df = abs((a & 7) - (b & 7))
    dr = abs((a >> 3) - (b >> 3))
    return df if df > dr else dr
