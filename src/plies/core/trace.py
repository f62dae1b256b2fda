"""The evaluation as features: how often each weight of ``core/weights.py`` is used.

For a position, ``trace`` fills ``counts`` (one entry per feature of
``core/layout.py``, white minus black) and returns the game phase, the endgame
scale and the fixed king-attack danger (white minus black, middlegame only). With
``mg``/``eg`` the weight vectors, each term ``t`` of the evaluation is::

    mg_t = sum(counts[f] * mg[f] for f in term t)  (+ danger for the king term)
    eg_t = sum(counts[f] * eg[f] for f in term t)
    value_t = trunc((mg_t * phase * 64 + eg_t * scale * (24 - phase)) / (24 * 64))

and ``evaluate`` is the sum of the nine ``value_t`` (negated for Black to move)
plus ``TEMPO``: exactly, so a test checks it over thousands of positions. The
plain linear model (the same without the nine truncations toward zero) is within
9 centipawns of ``evaluate`` (each truncation moves its term by less than 1).

The counts are not a second copy of the evaluation: ``core/evaluate.py`` applies
every weight through one helper that also counts it when given a trace array
(``trace_terms``), so a new term written there is traced too. The scale and the
danger are taken as fixed per position: they depend on the weights only through
the sign of the endgame score and the material thresholds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import U64, popcount
from plies.core.encoding import (
    BLACK,
    KING,
    NO_PIECE,
    PAWN,
    WHITE,
    piece_code,
)
from plies.core.eval_weights import F_DANGER, N_TRACE
from plies.core.evaluate import trace_terms
from plies.core.layout import N_FEATURES
from plies.core.placement import PLACEMENT_OK, read_placement
from plies.core.position import Position

MAX_ENTRIES = 2 * 96
"""Bound on a position's nonzero counts: per side at most 5 material, 16 piece-square,
7 structure, 4 per passed pawn (8 pawns), 16 mobility, 4 shelter, 1 pair, 2 rook-file,
4 threat and 4 safe-check entries (91 < 96)."""


@njit(cache=True, nogil=True)
def trace(pos: Position, counts: np.ndarray) -> tuple[int, int, int]:
    """Fill ``counts`` (int64, N_FEATURES, white minus black); return (phase, scale, danger)."""
    ours = np.zeros(N_TRACE, dtype=np.int64)
    theirs = np.zeros(N_TRACE, dtype=np.int64)
    phase, scale = trace_terms(pos, ours, theirs)
    for f in range(N_FEATURES):
        counts[f] = ours[f] - theirs[f]
    return phase, scale, ours[F_DANGER] - theirs[F_DANGER]


_BACK_RANKS = U64(0xFF000000000000FF)


@njit(cache=True, nogil=True)
def _place(pos: Position, text: np.ndarray, start: int, end: int, side: int) -> bool:
    """Set ``pos`` to the FEN placement ``text[start:end]`` and ``side``; False if malformed."""
    squares = pos.squares
    status, _, _, stop = read_placement(text, start, end, squares)
    if status != PLACEMENT_OK or stop != end:
        return False
    bb = pos.pieces
    bb[:] = 0
    one = U64(1)
    for sq in range(64):
        p = squares[sq]
        if p != NO_PIECE:
            bb[p] |= one << U64(sq)
            bb[p & 8] |= one << U64(sq)
    pos.side = side
    # One king each and no pawn on the back ranks, or the evaluation's indexing breaks.
    pawns = bb[piece_code(WHITE, PAWN)] | bb[piece_code(BLACK, PAWN)]
    if pawns & _BACK_RANKS:
        return False
    w_kings = popcount(bb[piece_code(WHITE, KING)])
    return w_kings == 1 and popcount(bb[piece_code(BLACK, KING)]) == 1


@njit(cache=True, nogil=True)
def trace_placements(
    pos: Position,
    text: np.ndarray,
    bounds: np.ndarray,
    sides: np.ndarray,
    cols: np.ndarray,
    vals: np.ndarray,
    row_len: np.ndarray,
    info: np.ndarray,
) -> int:
    """Trace many FEN placements (``text[bounds[i]:bounds[i + 1]]``, ``sides[i]``) at once.

    Writes each row's nonzero counts to ``cols``/``vals`` (consecutively, ``row_len[i]``
    entries; 0 and ``info[i, 3] = 0`` for a malformed placement) and ``info[i]`` =
    (phase, scale, danger, ok). ``pos`` is scratch. Returns the entries written.
    """
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    at = 0
    for i in range(len(sides)):
        row_len[i] = 0
        info[i, 3] = 0
        start = at
        if not _place(pos, text, bounds[i], bounds[i + 1], sides[i]):
            continue
        phase, scale, danger = trace(pos, counts)
        info[i, 0] = phase
        info[i, 1] = scale
        info[i, 2] = danger
        info[i, 3] = 1
        for f in range(N_FEATURES):
            if counts[f] != 0:
                cols[at] = f
                vals[at] = counts[f]
                at += 1
        row_len[i] = at - start
    return at
