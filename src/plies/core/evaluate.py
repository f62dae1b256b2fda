"""Static evaluation: a tapered middlegame/endgame score of a position, in centipawns.

Every term is computed twice, once with middlegame and once with endgame weights,
as "white minus black". Each term is then blended by the game phase (24 with all
minor and major pieces on the board, 0 with none) and rounded toward zero, so
that a colour-flipped position gets exactly the negated term. ``evaluate`` is the
sum of the blended terms, seen from the side to move, plus a small tempo bonus;
``evaluate_terms`` reports the same blended terms one by one (``TERM_NAMES``), so
the total always equals the sum of the parts.

Tables are written from White's point of view with a1 = index 0; Black reads
them through ``sq ^ 56`` (the rank mirror).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import U64, lsb, popcount
from plies.core.types import ST_SIDE

TERM_NAMES: tuple[str, ...] = ("material", "psqt", "tempo")
"""Order of the entries ``evaluate_terms`` writes (white minus black, tempo for the mover)."""

N_TERMS = len(TERM_NAMES)
T_MATERIAL, T_PSQT, T_TEMPO = range(N_TERMS)

WEIGHTS = np.full(N_TERMS, 100, dtype=np.int64)
"""Default weight of each term, in percent (the ablation switches terms off with 0)."""

SEE_VALUES = np.array([100, 320, 330, 500, 900, 20000] * 2 + [0], dtype=np.int64)
"""Exchange values for SEE / delta pruning: by kind 0..5 or piece 0..11; EMPTY (12) is 0."""

TEMPO = 12
PHASE_MAX = 24
_PHASE_INC = np.array([0, 1, 1, 2, 4, 0], dtype=np.int64)

MATERIAL_MG = np.array([85, 325, 335, 470, 950, 0], dtype=np.int64)
MATERIAL_EG = np.array([105, 300, 320, 520, 960, 0], dtype=np.int64)


def _grid(rows: list[int]) -> np.ndarray:
    """A 64-entry table from 8 rows written rank 8 first (as a diagram reads)."""
    a = np.array(rows, dtype=np.int64).reshape(8, 8)
    return np.ascontiguousarray(a[::-1].reshape(64))


# Piece-square tables, White's view, printed like a diagram (rank 8 on top).
# The shapes: pawns gain by advancing and by holding the centre; minor pieces
# want the centre and hate the rim; rooks like the seventh rank; kings hide in a
# corner in the middlegame and walk to the centre in the endgame.
# fmt: off
_PAWN_MG = _grid([
      0,   0,   0,   0,   0,   0,   0,   0,
     30,  35,  40,  45,  45,  40,  35,  30,
     10,  12,  18,  25,  25,  18,  12,  10,
      2,   4,   8,  18,  18,   8,   4,   2,
     -2,   0,   5,  14,  14,   3,   0,  -2,
     -2,   2,   2,   4,   4,  -2,   4,  -2,
     -4,   2,   0,  -8,  -8,   6,   8,  -4,
      0,   0,   0,   0,   0,   0,   0,   0,
])
_PAWN_EG = _grid([
      0,   0,   0,   0,   0,   0,   0,   0,
     45,  45,  40,  35,  35,  40,  45,  45,
     25,  25,  20,  15,  15,  20,  25,  25,
     12,  12,   8,   5,   5,   8,  12,  12,
      4,   4,   2,   0,   0,   2,   4,   4,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   2,   2,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
])
_KNIGHT_MG = _grid([
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -15,   5,  15,  25,  25,  15,   5, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,   0,  10,  10,  10,  10,   0, -20,
    -30, -15,   0,   2,   2,   0, -15, -30,
    -50, -25, -20, -15, -15, -20, -25, -50,
])
_KNIGHT_EG = _grid([
    -45, -30, -20, -15, -15, -20, -30, -45,
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -15,   0,  10,  15,  15,  10,   0, -15,
    -15,   0,  10,  15,  15,  10,   0, -15,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -45, -30, -20, -15, -15, -20, -30, -45,
])
_BISHOP_MG = _grid([
    -15, -10, -10, -10, -10, -10, -10, -15,
    -10,   0,   0,   0,   0,   0,   0, -10,
     -8,   4,   6,   8,   8,   6,   4,  -8,
     -6,   6,   6,  10,  10,   6,   6,  -6,
     -6,   4,  10,  10,  10,  10,   4,  -6,
     -4,  10,   8,   8,   8,   8,  10,  -4,
     -6,  12,   4,   2,   2,   4,  12,  -6,
    -15,  -6, -10,  -8,  -8, -10,  -6, -15,
])
_BISHOP_EG = _grid([
    -12,  -8,  -6,  -4,  -4,  -6,  -8, -12,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -4,   2,   6,   8,   8,   6,   2,  -4,
     -4,   2,   6,   8,   8,   6,   2,  -4,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
    -12,  -8,  -6,  -4,  -4,  -6,  -8, -12,
])
_ROOK_MG = _grid([
      5,   5,   8,  10,  10,   8,   5,   5,
     15,  20,  20,  20,  20,  20,  20,  15,
     -4,   0,   2,   4,   4,   2,   0,  -4,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -8,  -4,   0,   2,   2,   0,  -4,  -8,
     -4,  -2,   2,   6,   6,   4,  -2,  -4,
])
_ROOK_EG = _grid([
      8,   8,   8,   8,   8,   8,   8,   8,
     12,  12,  12,  12,  12,  12,  12,  12,
      4,   4,   4,   4,   4,   4,   4,   4,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
     -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
     -4,  -4,  -2,   0,   0,  -2,  -4,  -4,
])
_QUEEN_MG = _grid([
    -15, -10,  -5,  -2,  -2,  -5, -10, -15,
    -10,  -6,   0,   0,   0,   0,  -6, -10,
     -6,   0,   4,   4,   4,   4,   0,  -6,
     -4,   0,   4,   6,   6,   4,   0,  -4,
     -4,   0,   4,   6,   6,   4,   0,  -4,
     -6,   2,   4,   4,   4,   4,   2,  -6,
    -10,  -4,   2,   2,   2,   0,  -4, -10,
    -15, -10,  -6,   0,  -4,  -6, -10, -15,
])
_QUEEN_EG = _grid([
    -20, -12,  -8,  -5,  -5,  -8, -12, -20,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
     -8,   0,   6,   8,   8,   6,   0,  -8,
     -5,   2,   8,  12,  12,   8,   2,  -5,
     -5,   2,   8,  12,  12,   8,   2,  -5,
     -8,   0,   6,   8,   8,   6,   0,  -8,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
    -20, -12,  -8,  -5,  -5,  -8, -12, -20,
])
_KING_MG = _grid([
    -50, -55, -60, -70, -70, -60, -55, -50,
    -45, -50, -55, -65, -65, -55, -50, -45,
    -40, -45, -50, -60, -60, -50, -45, -40,
    -35, -40, -45, -55, -55, -45, -40, -35,
    -25, -30, -35, -45, -45, -35, -30, -25,
    -15, -20, -25, -30, -30, -25, -20, -15,
      5,   5, -10, -20, -20, -10,   5,   5,
     15,  25,  10, -10,   0,  -5,  30,  20,
])
_KING_EG = _grid([
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -20,   5,  20,  28,  28,  20,   5, -20,
    -25,   0,  15,  25,  25,  15,   0, -25,
    -30,  -5,   8,  15,  15,   8,  -5, -30,
    -40, -20,  -5,   0,   0,  -5, -20, -40,
    -60, -40, -30, -25, -25, -30, -40, -60,
])
# fmt: on

PST_MG = np.stack([_PAWN_MG, _KNIGHT_MG, _BISHOP_MG, _ROOK_MG, _QUEEN_MG, _KING_MG])
PST_EG = np.stack([_PAWN_EG, _KNIGHT_EG, _BISHOP_EG, _ROOK_EG, _QUEEN_EG, _KING_EG])


@njit(cache=True, inline="always")
def _taper(mg: int, eg: int, phase: int, weight: int) -> int:
    """Blend a middlegame and an endgame value by phase, scale by weight (%), round toward zero."""
    n = (mg * phase + eg * (PHASE_MAX - phase)) * weight
    if n >= 0:
        return n // (PHASE_MAX * 100)
    return -((-n) // (PHASE_MAX * 100))


@njit(cache=True)
def _raw(bb: np.ndarray, att: np.ndarray) -> tuple[int, int, int, int, int]:
    """Phase and the untapered (mg, eg) white-minus-black values of every term."""
    phase = 0
    mat_mg = 0
    mat_eg = 0
    pst_mg = 0
    pst_eg = 0
    for c in range(2):
        sign = 1 - 2 * c
        flip = 56 * c
        base = 6 * c
        for kind in range(6):
            pieces = bb[base + kind]
            n = popcount(pieces)
            phase += n * _PHASE_INC[kind]
            mat_mg += sign * n * MATERIAL_MG[kind]
            mat_eg += sign * n * MATERIAL_EG[kind]
            while pieces:
                sq = lsb(pieces) ^ flip
                pieces &= pieces - U64(1)
                pst_mg += sign * PST_MG[kind, sq]
                pst_eg += sign * PST_EG[kind, sq]
    if phase > PHASE_MAX:
        phase = PHASE_MAX
    return phase, mat_mg, mat_eg, pst_mg, pst_eg


@njit(cache=True, nogil=True)
def _evaluate(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, att: np.ndarray, weights: np.ndarray
) -> int:
    """``evaluate`` with explicit per-term weights in percent (100 = as shipped)."""
    phase, mat_mg, mat_eg, pst_mg, pst_eg = _raw(bb, att)
    total = _taper(mat_mg, mat_eg, phase, weights[T_MATERIAL])
    total += _taper(pst_mg, pst_eg, phase, weights[T_PSQT])
    if st[ST_SIDE] != 0:
        total = -total
    return total + (TEMPO * weights[T_TEMPO]) // 100


@njit(cache=True, nogil=True)
def evaluate(bb: np.ndarray, mb: np.ndarray, st: np.ndarray, att: np.ndarray) -> int:
    """Static evaluation in centipawns from the side to move's point of view."""
    return _evaluate(bb, mb, st, att, WEIGHTS)


@njit(cache=True, nogil=True)
def _evaluate_terms(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    att: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> None:
    """``evaluate_terms`` with explicit weights."""
    phase, mat_mg, mat_eg, pst_mg, pst_eg = _raw(bb, att)
    out[T_MATERIAL] = _taper(mat_mg, mat_eg, phase, weights[T_MATERIAL])
    out[T_PSQT] = _taper(pst_mg, pst_eg, phase, weights[T_PSQT])
    tempo = (TEMPO * weights[T_TEMPO]) // 100
    out[T_TEMPO] = tempo if st[ST_SIDE] == 0 else -tempo


@njit(cache=True, nogil=True)
def evaluate_terms(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, att: np.ndarray, out: np.ndarray
) -> None:
    """Fill ``out`` (int64, at least N_TERMS long) with each term, white minus black.

    The tempo entry is the mover's bonus seen from White, so
    ``evaluate == sum(out)`` for White to move and ``-sum(out)`` for Black.
    """
    _evaluate_terms(bb, mb, st, att, WEIGHTS, out)


@njit(cache=True, inline="always")
def piece_value(kind: int) -> int:
    """Exchange value of a piece kind (or piece code) for SEE and delta pruning."""
    return SEE_VALUES[kind]
