"""The format's index tables: each numbers what it should, once, and agrees with its inverse."""

from __future__ import annotations

import numpy as np

from plies.syzygy.format import DIAG, FLAP, INVFLAP, KK_IDX, LOWER, PIVFAC, PTWIST, TRIANGLE


def test_king_pairs_are_numbered_once_each() -> None:
    """Every legal placement of two kings has its own index, 0 to 461 (``PIVFAC[2]``)."""
    used = np.sort(KK_IDX[KK_IDX >= 0])
    assert np.array_equal(used, np.arange(PIVFAC[2]))


def test_square_classes_respect_the_symmetries() -> None:
    """A square and its mirror images share a class; the folded halves are numbered once."""
    for sq in range(64):
        for image in (sq ^ 7, sq ^ 0x38, sq ^ 0x3F):
            assert TRIANGLE[image] == TRIANGLE[sq]
        assert LOWER[(sq & 7) * 8 + (sq >> 3)] == LOWER[sq]
    assert sorted(set(TRIANGLE.tolist())) == list(range(10))
    assert sorted(set(LOWER.tolist())) == list(range(36))
    assert sorted(DIAG[[8 * r + r for r in range(8)] + [8 * r + 7 - r for r in range(8)]]) == (
        list(range(16))
    )


def test_pawn_orders_are_permutations() -> None:
    """The leading-pawn index and the pawn twist number the 48 pawn squares as they should."""
    pawn_squares = range(8, 56)
    assert [int(INVFLAP[FLAP[sq]]) for sq in pawn_squares if sq & 7 < 4] == [
        sq for sq in pawn_squares if sq & 7 < 4
    ]
    assert sorted(int(PTWIST[sq]) for sq in pawn_squares) == list(range(48))
