"""The network's input features: a piece's index in one perspective, as the spec fixes it,
and the optional king buckets (format 2) that make it depend on that perspective's king."""

from __future__ import annotations

import numpy as np
from numba import njit

N_INPUTS = 768
"""Feature rows: 2 colours (own, other) x 6 kinds x 64 squares."""
OTHER_OFFSET = 384
"""Added to a piece's index when its colour is not the perspective's."""
MAX_PIECES = 32
"""Pieces a legal chess position can hold; rows are padded to this many."""
NO_FEATURE = -1
"""Padding in a row of feature indices."""
OWN_KING = 5 * 64
"""Index of the perspective's own king on a1 (own colour, kind 6): own king squares are
OWN_KING .. OWN_KING + 63."""
MIRROR_FILES = 7
"""XOR of a square (or feature index) that swaps files a-h, b-g, c-f, d-e."""
NO_KINGS = np.zeros(0, dtype=np.int64)
"""The kernels' ``king_buckets`` of a net without king buckets (format 1)."""


def _mirrored_table(left: list[list[int]]) -> np.ndarray:
    """The 64-entry king-bucket table from its files a-d (``left[rank][file]``), the e-h half
    filled with the mirror image so the table is complete and left-right symmetric."""
    table = np.empty(64, dtype=np.int64)
    for rank in range(8):
        for file in range(4):
            table[rank * 8 + file] = left[rank][file]
            table[rank * 8 + (file ^ MIRROR_FILES)] = left[rank][file]
    return table


KING_LAYOUTS: dict[int, tuple[np.ndarray, int]] = {
    # a1 b1 c1: castled long or cornered; d1: the king's home (e1 mirrored); rank 2; the rest.
    4: (_mirrored_table([[0, 0, 0, 1], [2, 2, 2, 2]] + [[3, 3, 3, 3]] * 6), 1),
}
"""The king layouts ``plies train --king-buckets K`` offers: K -> (king_buckets int64 [64],
king_mirror), as docs/nnue-spec.md defines them."""


def king_layout(count: int) -> tuple[np.ndarray, int]:
    """A copy of the offered layout of ``count`` king buckets: (king_buckets, king_mirror)."""
    if count not in KING_LAYOUTS:
        raise ValueError(f"no layout of {count} king buckets (offered: {sorted(KING_LAYOUTS)})")
    table, mirror = KING_LAYOUTS[count]
    return table.copy(), mirror


def feature_index(
    perspective: int,
    color: int,
    kind: int,
    square: int,
    king_square: int = 0,
    king_buckets: np.ndarray | None = None,
    king_mirror: int = 0,
) -> int:
    """index(p, c, k, s) of the spec: kind 1 (pawn) .. 6 (king), square a1 = 0 .. h8 = 63;
    with ``king_buckets`` (format 2), ``king_square`` is where p's own king stands (a1 = 0)."""
    seen = square if perspective == 0 else square ^ 56
    base = 0 if color == perspective else OTHER_OFFSET
    if king_buckets is None:
        return base + (kind - 1) * 64 + seen
    ks = king_square if perspective == 0 else king_square ^ 56
    flip = MIRROR_FILES if king_mirror == 1 and ks % 8 >= 4 else 0
    bucket = int(king_buckets[ks ^ flip])
    return bucket * N_INPUTS + base + (kind - 1) * 64 + (seen ^ flip)


@njit(cache=True, nogil=True, inline="always")
def flip_perspective(index: int) -> int:
    """The same piece's index in the other perspective (mirror the rank, swap own/other)."""
    mirrored = index ^ 56
    return mirrored + OTHER_OFFSET if mirrored < OTHER_OFFSET else mirrored - OTHER_OFFSET


@njit(cache=True, nogil=True, inline="always")
def king_frame(
    white: int, black: int, side: int, mirror: int, king_buckets: np.ndarray, king_mirror: int
) -> tuple[int, int, int, int]:
    """Where each perspective's features of a loaded row go, given the squares of the White
    and the Black king (a1 = 0, White's view): (row offset, file flip) of the side to move,
    then of the other side. ``mirror`` is the training augmentation (7: files swapped),
    applied first, so the king mirror sees the position as trained on."""
    # Each side sees its own king from its own end of the board (Black's ranks turned).
    white ^= mirror
    black ^= mirror ^ 56
    stm_king, other_king = (white, black) if side == 0 else (black, white)
    stm_flip = MIRROR_FILES if king_mirror == 1 and stm_king % 8 >= 4 else 0
    other_flip = MIRROR_FILES if king_mirror == 1 and other_king % 8 >= 4 else 0
    return (
        king_buckets[stm_king ^ stm_flip] * N_INPUTS,
        stm_flip,
        king_buckets[other_king ^ other_flip] * N_INPUTS,
        other_flip,
    )
