"""The network's input features: a piece's index in one perspective, as the spec fixes it."""

from __future__ import annotations

from numba import njit

N_INPUTS = 768
"""Feature rows: 2 colours (own, other) x 6 kinds x 64 squares."""
OTHER_OFFSET = 384
"""Added to a piece's index when its colour is not the perspective's."""
MAX_PIECES = 32
"""Pieces a legal chess position can hold; rows are padded to this many."""
NO_FEATURE = -1
"""Padding in a row of feature indices."""


def feature_index(perspective: int, color: int, kind: int, square: int) -> int:
    """index(p, c, k, s) of the spec: kind 1 (pawn) .. 6 (king), square a1 = 0 .. h8 = 63."""
    base = 0 if color == perspective else OTHER_OFFSET
    return base + (kind - 1) * 64 + (square if perspective == 0 else square ^ 56)


@njit(cache=True, nogil=True, inline="always")
def flip_perspective(index: int) -> int:
    """The same piece's index in the other perspective (mirror the rank, swap own/other)."""
    mirrored = index ^ 56
    return mirrored + OTHER_OFFSET if mirrored < OTHER_OFFSET else mirrored - OTHER_OFFSET
