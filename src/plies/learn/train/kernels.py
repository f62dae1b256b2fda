"""The network's forward and backward passes over rows of a dataset, compiled.

Rows hold each piece's feature index in White's perspective; the side to move's
perspective is that index (White to move) or its flip (Black to move), and the
other perspective is the flip of that. The arrays may be float32 (training) or
float64 (the gradient check): numba compiles one version for each.

The output layer has B buckets (``out_weight`` [B, 2H], ``out_bias`` [B]); a position
uses the one ``bucket`` gives for its number of pieces, and only that bucket's output
weights get its gradient (the feature transformer gets every position's).

King buckets (format 2): ``king_buckets`` int64 [64] and ``king_mirror`` put each
perspective's features in the 768-row block of its own king's bucket, files mirrored
when that king stands on files e-h; ``shared`` >= 0 is the first row of the factoriser's
block, which every piece adds too (at the same mirrored index). An empty ``king_buckets``
is a format-1 net (one block, no mirror), which keeps the plain loop.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from plies.core.nnue import bucket
from plies.learn.train.features import (
    MAX_PIECES,
    NO_KINGS,
    OTHER_OFFSET,
    OWN_KING,
    flip_perspective,
    king_frame,
)


class Params(NamedTuple):
    """The net's four parameter arrays as one compiled value: its weights, or their gradients
    (the same shapes, so the two can never be passed in each other's place by position)."""

    ft_weight: np.ndarray
    ft_bias: np.ndarray
    out_weight: np.ndarray
    out_bias: np.ndarray


class Kings(NamedTuple):
    """The net's king layout as ``Network.kings`` gives it: bucket per own-king square (empty
    without), the mirror flag, and the first row of the shared block (-1 without)."""

    buckets: np.ndarray
    mirror: int
    shared: int


class Examples(NamedTuple):
    """The dataset's columns a gradient reads: features, side to move, target, base offsets."""

    features: np.ndarray
    stm: np.ndarray
    target: np.ndarray
    base: np.ndarray


FORMAT_ONE = Kings(NO_KINGS, 0, -1)
"""The king layout of a format-1 net (no king buckets)."""


@njit(cache=True, nogil=True, inline="always")
def _feature_rows(
    row: np.ndarray, side: int, mirror: int, kings: Kings, touched: np.ndarray
) -> tuple[int, int]:
    """Write the feature rows one position adds to ``touched`` (int64 [2 * MAX_PIECES, 2]):
    per entry the side to move's row and the other side's, one entry per piece and one
    more in the shared block when there is one (files mirrored when ``mirror`` is 7);
    (entries, pieces). The forward pass sums these rows, the backward pass feeds them."""
    king_buckets, king_mirror, shared = kings
    # Step 1: each piece as the side to move sees it (as trained), and where the kings are.
    pieces = 0
    white = 0
    black = 0
    for j in range(len(row)):
        f = row[j]
        if f < 0:
            break
        if OWN_KING <= f < OTHER_OFFSET:
            white = f - OWN_KING
        elif f >= OTHER_OFFSET + OWN_KING:
            black = f - OTHER_OFFSET - OWN_KING
        touched[j, 0] = (f if side == 0 else flip_perspective(f)) ^ mirror
        pieces += 1
    stm_at = stm_flip = other_at = other_flip = 0
    if len(king_buckets):
        stm_at, stm_flip, other_at, other_flip = king_frame(
            white, black, side, mirror, king_buckets, king_mirror
        )
    # Step 2: each piece's rows in both perspectives' blocks. With a shared block a piece
    # has entries 2j and 2j + 1: going from the last piece down, every slot written has
    # been read already.
    step = 2 if shared >= 0 else 1
    for j in range(pieces - 1, -1, -1):
        own = touched[j, 0]
        s = own ^ stm_flip
        o = flip_perspective(own) ^ other_flip
        at = j * step
        touched[at, 0] = stm_at + s
        touched[at, 1] = other_at + o
        if shared >= 0:
            touched[at + 1, 0] = shared + s
            touched[at + 1, 1] = shared + o
    return pieces * step, pieces


@njit(cache=True, nogil=True, inline="always")
def _accumulate(
    row: np.ndarray,
    side: int,
    mirror: int,
    net: Params,
    kings: Kings,
    acc_stm: np.ndarray,
    acc_other: np.ndarray,
    touched: np.ndarray,
) -> tuple[int, int]:
    """Fill both accumulators of one position (files mirrored when ``mirror`` is 7) and
    ``touched`` with the rows summed (``_feature_rows``); (entries, pieces)."""
    ft_weight = net.ft_weight
    acc_stm[:] = net.ft_bias
    acc_other[:] = net.ft_bias
    entries, pieces = _feature_rows(row, side, mirror, kings, touched)
    for j in range(entries):
        acc_stm += ft_weight[touched[j, 0]]
        acc_other += ft_weight[touched[j, 1]]
    return entries, pieces


@njit(cache=True, nogil=True, inline="always")
def _output(
    acc_stm: np.ndarray, acc_other: np.ndarray, out_weight: np.ndarray, out_bias: float
) -> float:
    """raw = out_bias + out_weight . screlu(accumulators) (one bucket's weights and bias)."""
    hidden = len(acc_stm)
    raw = float(out_bias)
    for k in range(hidden):
        a = min(max(acc_stm[k], 0.0), 1.0)
        b = min(max(acc_other[k], 0.0), 1.0)
        raw += out_weight[k] * a * a + out_weight[hidden + k] * b * b
    return raw


@njit(cache=True, nogil=True)
def _raw_outputs(
    features: np.ndarray, stm: np.ndarray, rows: np.ndarray, net: Params, kings: Kings
) -> np.ndarray:
    """``raw_outputs`` compiled."""
    ft_weight, ft_bias, out_weight, out_bias = net
    hidden = len(ft_bias)
    buckets = len(out_bias)
    acc_stm = np.empty(hidden, dtype=ft_weight.dtype)
    acc_other = np.empty(hidden, dtype=ft_weight.dtype)
    touched = np.empty((2 * MAX_PIECES, 2), dtype=np.int64)
    out = np.empty(len(rows), dtype=np.float64)
    for i in range(len(rows)):
        r = rows[i]
        _, pieces = _accumulate(features[r], stm[r], 0, net, kings, acc_stm, acc_other, touched)
        head = bucket(pieces, buckets)
        out[i] = _output(acc_stm, acc_other, out_weight[head], out_bias[head])
    return out


def raw_outputs(
    features: np.ndarray, stm: np.ndarray, rows: np.ndarray, net: Params,
    kings: Kings = FORMAT_ONE,
) -> np.ndarray:  # fmt: skip
    """The raw output (eval / 400, side to move's view) of each row in ``rows``; ``kings`` as
    ``Network.kings`` gives it (omitted: a format-1 net)."""
    return _raw_outputs(features, stm, rows, net, kings)


@njit(cache=True, nogil=True)
def batch_gradient(
    data: Examples,
    rows: np.ndarray,
    mirrors: np.ndarray,
    norm: float,
    net: Params,
    grads: Params,
    kings: Kings,
) -> float:
    """Add norm * d(sum of squared errors)/d(weights) over ``rows`` to the gradient arrays
    (zeroed by the caller); return the sum of squared errors. ``mirrors[i]`` is 7 to train
    on row ``rows[i]`` mirrored left to right (files a-h swapped), 0 to take it as it is.
    The prediction is sigmoid(base + raw): ``base[r, m]`` is a fixed offset in raw units
    (zero for a pure net, the handcrafted evaluation / 400 for a residual one), column m
    1 for the mirrored row, 0 for the row as it is.

    Only the feature rows of pieces present get gradient: 64 of 768 rows per position
    (per block: the king bucket's and the shared one); only the position's own output
    bucket gets output gradient. ``kings`` is ``Network.kings``'s.
    """
    features, stm, target, base = data
    ft_weight, ft_bias, out_weight, out_bias = net
    g_ft_weight, g_ft_bias, g_out_weight, g_out_bias = grads
    hidden = len(ft_bias)
    buckets = len(out_bias)
    dtype = ft_weight.dtype
    acc_stm = np.empty(hidden, dtype=dtype)
    acc_other = np.empty(hidden, dtype=dtype)
    d_stm = np.empty(hidden, dtype=dtype)
    d_other = np.empty(hidden, dtype=dtype)
    touched = np.empty((2 * MAX_PIECES, 2), dtype=np.int64)
    loss = 0.0
    for i in range(len(rows)):
        r = rows[i]
        mirror = mirrors[i]
        entries, pieces = _accumulate(
            features[r], stm[r], mirror, net, kings, acc_stm, acc_other, touched
        )
        head = bucket(pieces, buckets)
        w_out = out_weight[head]
        g_out = g_out_weight[head]
        raw = base[r, 1 if mirror else 0] + _output(acc_stm, acc_other, w_out, out_bias[head])
        p = 1.0 / (1.0 + math.exp(-raw))
        diff = p - target[r]
        loss += diff * diff
        g = 2.0 * diff * p * (1.0 - p) * norm
        g_out_bias[head] += g
        for k in range(hidden):
            a = acc_stm[k]
            b = acc_other[k]
            if 0.0 < a < 1.0:
                g_out[k] += g * a * a
                d_stm[k] = 2.0 * g * w_out[k] * a
            else:
                if a >= 1.0:
                    g_out[k] += g
                d_stm[k] = 0.0
            if 0.0 < b < 1.0:
                g_out[hidden + k] += g * b * b
                d_other[k] = 2.0 * g * w_out[hidden + k] * b
            else:
                if b >= 1.0:
                    g_out[hidden + k] += g
                d_other[k] = 0.0
        g_ft_bias += d_stm
        g_ft_bias += d_other
        for j in range(entries):
            g_ft_weight[touched[j, 0]] += d_stm
            g_ft_weight[touched[j, 1]] += d_other
    return loss
