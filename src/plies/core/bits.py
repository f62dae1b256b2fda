"""Bit tricks on uint64 bitboards that numba has no builtin for."""

from __future__ import annotations

import numpy as np
from numba import njit

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
ALL = U64(0xFFFFFFFFFFFFFFFF)

# De Bruijn sequence for bit scans: isolating the lowest set bit and multiplying
# by this constant puts a unique 6-bit pattern in the top bits.
_DEBRUIJN = U64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip

_M1 = U64(0x5555555555555555)
_M2 = U64(0x3333333333333333)
_M4 = U64(0x0F0F0F0F0F0F0F0F)
_H01 = U64(0x0101010101010101)


@njit(cache=True, inline="always")
def lsb(b: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero bitboard."""
    isolated = b & (~b + ONE)
    return _DEBRUIJN_INDEX[(isolated * _DEBRUIJN) >> U64(58)]


@njit(cache=True, inline="always")
def popcount(b: np.uint64) -> int:
    """Number of set bits (SWAR)."""
    b = b - ((b >> ONE) & _M1)
    b = (b & _M2) + ((b >> U64(2)) & _M2)
    b = (b + (b >> U64(4))) & _M4
    return int((b * _H01) >> U64(56))
