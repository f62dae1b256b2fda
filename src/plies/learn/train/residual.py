"""The handcrafted evaluation of every training row, compiled: the fixed base a residual net
corrects (``plies train --residual``, docs/nnue-spec.md).

The core's ``evaluate`` reads only the piece bitboards and the side to move, so one
scratch position, its boards refilled from each row's feature indices, evaluates
every row without a FEN being parsed again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

import plies.core as core
from plies.core.encoding import NO_PIECE, NO_SQUARE, WHITE
from plies.core.evaluate import evaluate
from plies.learn.train.features import OTHER_OFFSET
from plies.learn.train.loader import Dataset
from plies.learn.train.network import SCALE


# ``pos: Any``: a core Position is a numba structref whose fields mypy cannot see.
@njit(cache=True, nogil=True)
def _fill(pos: Any, row: np.ndarray, side: int, mirror: int) -> None:
    """Set the scratch position's boards to ``row`` (files mirrored when ``mirror`` is 7)."""
    bb = pos.pieces
    squares = pos.squares
    bb[:] = 0
    squares[:] = 0
    for j in range(len(row)):
        f = row[j]
        if f < 0:
            break
        color = 1 if f >= OTHER_OFFSET else 0
        rest = f - color * OTHER_OFFSET
        kind = rest // 64 + 1
        sq = (rest % 64) ^ mirror
        piece = color * 8 + kind
        bit = np.uint64(1) << np.uint64(sq)
        bb[piece] |= bit
        bb[color * 8] |= bit
        squares[sq] = piece
    pos.side = side


@njit(cache=True, nogil=True)
def _evaluations(pos: Any, features: np.ndarray, stm: np.ndarray, out: np.ndarray) -> None:
    """out[r, 0] = evaluate(row r), out[r, 1] = evaluate(row r mirrored left to right)."""
    for r in range(len(stm)):
        for m in range(2):
            _fill(pos, features[r], stm[r], 7 * m)
            out[r, m] = evaluate(pos)


def _scratch() -> core.Position:
    """A position of the core's own making whose boards ``_fill`` overwrites."""
    return core.new_position([NO_PIECE] * 64, WHITE, 0, NO_SQUARE, 0, 1)


def hce_centipawns(data: Dataset) -> np.ndarray:
    """int64 [n, 2]: the core's handcrafted evaluation of each row (centipawns, side to
    move's view) as it is (column 0) and mirrored left to right (column 1)."""
    out = np.zeros((len(data), 2), dtype=np.int64)
    _evaluations(_scratch(), data.features, data.stm, out)
    return out


def hce_base(data: Dataset) -> np.ndarray:
    """float32 [n, 2]: ``hce_centipawns`` in the net's raw units (divided by SCALE), the
    offset a residual net's output is added to."""
    return (hce_centipawns(data) / SCALE).astype(np.float32)
