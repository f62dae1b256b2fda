"""The evaluation's weights as its compiled code reads them, and the tuner's feature offsets.

Every weight lives in ``core/weights.py`` (written by ``plies tune``, laid out by
``core/layout.py``); here they become tables by piece kind and square, and packed
scores: one int64 holding the middlegame value in its high half and the endgame
value in its low half (``mg_half``, ``eg_half``). ``weigh`` applies a weight and,
when tracing, counts its use at the feature offset ``F_*`` (``core/trace.py``).
The king-safety and endgame-scale numbers are fixed, not tuned.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from plies.core import weights as w8
from plies.core.layout import N_FEATURES, OFFSET

# King safety, fixed (not tuned: it is not linear in its numbers). Attack units
# per king-zone square hit, by kind; once two pieces join in, the middlegame
# penalty is units squared over KING_ATTACK_DIV, halved without a queen, capped.
KING_ATTACK_UNITS = np.array([0, 0, 2, 2, 3, 5, 0], dtype=np.int64)
KING_ATTACK_DIV = 3
KING_ATTACK_CAP = 500

# Endgame scale (of 64) for the side ahead, fixed: without pawns, a lead of less
# than a rook rarely wins, and a lone minor piece never can; bishops of opposite
# colours with nothing else but pawns draw often; a bishop and rook pawns whose
# corner the bishop cannot guard, against a lone king in that corner, never win.
SCALE_FULL = 64
SCALE_NO_PAWNS_SMALL_LEAD = 16
SCALE_OPPOSITE_BISHOPS = 32


def _kinds(values: tuple[int, ...]) -> np.ndarray:
    """A table indexed by piece kind (PAWN = 1 ... KING = 6; 0 and KING unused) from 5 values."""
    return np.array([0, *values, 0], dtype=np.int64)


def _grid(rows: tuple[int, ...]) -> np.ndarray:
    """A 64-entry table (a1 = 0) from 8 rows written rank 8 first (as a diagram reads)."""
    a = np.array(rows, dtype=np.int64).reshape(8, 8)
    return np.ascontiguousarray(a[::-1].reshape(64))


def _pad(rows: tuple[tuple[int, ...], ...], width: int) -> np.ndarray:
    """Rows of unequal length as one table, zero-padded to ``width``."""
    return np.array([[*r] + [0] * (width - len(r)) for r in rows], dtype=np.int64)


# Every weight lives in core/weights.py (written by ``plies tune``); the tables
# below arrange them for the compiled code.
MATERIAL_MG = _kinds(w8.MATERIAL_MG)
MATERIAL_EG = _kinds(w8.MATERIAL_EG)

_NONE = np.zeros(64, dtype=np.int64)
# By piece kind (row 0 unused).
PST_MG = np.stack([
    _NONE, _grid(w8.PSQT_PAWN_MG), _grid(w8.PSQT_KNIGHT_MG), _grid(w8.PSQT_BISHOP_MG),
    _grid(w8.PSQT_ROOK_MG), _grid(w8.PSQT_QUEEN_MG), _grid(w8.PSQT_KING_MG),
])  # fmt: skip
PST_EG = np.stack([
    _NONE, _grid(w8.PSQT_PAWN_EG), _grid(w8.PSQT_KNIGHT_EG), _grid(w8.PSQT_BISHOP_EG),
    _grid(w8.PSQT_ROOK_EG), _grid(w8.PSQT_QUEEN_EG), _grid(w8.PSQT_KING_EG),
])  # fmt: skip

# Mobility by number of safe squares reached (own pieces and squares attacked by
# enemy pawns excluded); rows knight, bishop, rook, queen (kind - KNIGHT).
_MOBILITY_WIDTH = 28
MOBILITY_MG = _pad(
    (w8.MOBILITY_KNIGHT_MG, w8.MOBILITY_BISHOP_MG, w8.MOBILITY_ROOK_MG, w8.MOBILITY_QUEEN_MG),
    _MOBILITY_WIDTH,
)
MOBILITY_EG = _pad(
    (w8.MOBILITY_KNIGHT_EG, w8.MOBILITY_BISHOP_EG, w8.MOBILITY_ROOK_EG, w8.MOBILITY_QUEEN_EG),
    _MOBILITY_WIDTH,
)


# Packed scores: a middlegame and an endgame value in one int64, ``mg * 2**32 + eg``.
# Sums and differences of packed scores are the packed sums and differences, so
# each addition and table lookup serves both phases at once.
_EG_BIAS = 1 << 31
_EG_MASK = (1 << 32) - 1


def _pack(mg: np.ndarray | int, eg: np.ndarray | int) -> np.ndarray:
    """Packed int64 score(s) of middlegame and endgame values."""
    return np.asarray(mg, dtype=np.int64) * (1 << 32) + np.asarray(eg, dtype=np.int64)


@njit(cache=True, inline="always")
def mg_half(s: int) -> int:
    """Middlegame half of a packed score."""
    return (s - eg_half(s)) >> 32


@njit(cache=True, inline="always")
def eg_half(s: int) -> int:
    """Endgame half of a packed score (the low 32 bits, sign-extended)."""
    return ((s + _EG_BIAS) & _EG_MASK) - _EG_BIAS


PSQ = _pack(PST_MG, PST_EG)
MATERIAL = _pack(MATERIAL_MG, MATERIAL_EG)
MOBILITY = _pack(MOBILITY_MG, MOBILITY_EG)
CONNECTED = _pack(w8.CONNECTED_MG, w8.CONNECTED_EG)
PASSED = _pack(w8.PASSED_MG, w8.PASSED_EG)
PASSED_BLOCKED = _pack(w8.PASSED_BLOCKED_MG, w8.PASSED_BLOCKED_EG)
PASSED_THEIR_KING = _pack(w8.PASSED_THEIR_KING_MG, w8.PASSED_THEIR_KING_EG)
PASSED_OUR_KING = _pack(w8.PASSED_OUR_KING_MG, w8.PASSED_OUR_KING_EG)
ISOLATED = int(_pack(w8.ISOLATED_MG, w8.ISOLATED_EG))
DOUBLED = int(_pack(w8.DOUBLED_MG, w8.DOUBLED_EG))
SHIELD_NEAR = int(_pack(w8.SHIELD_NEAR_MG, w8.SHIELD_NEAR_EG))
SHIELD_FAR = int(_pack(w8.SHIELD_FAR_MG, w8.SHIELD_FAR_EG))
KING_SEMI_OPEN_FILE = int(_pack(w8.KING_SEMI_OPEN_FILE_MG, w8.KING_SEMI_OPEN_FILE_EG))
KING_OPEN_FILE = int(_pack(w8.KING_OPEN_FILE_MG, w8.KING_OPEN_FILE_EG))
BISHOP_PAIR = int(_pack(w8.BISHOP_PAIR_MG, w8.BISHOP_PAIR_EG))
ROOK_OPEN = int(_pack(w8.ROOK_OPEN_MG, w8.ROOK_OPEN_EG))
ROOK_SEMI_OPEN = int(_pack(w8.ROOK_SEMI_OPEN_MG, w8.ROOK_SEMI_OPEN_EG))
THREAT_BY_PAWN = int(_pack(w8.THREAT_BY_PAWN_MG, w8.THREAT_BY_PAWN_EG))
THREAT_BY_MINOR = int(_pack(w8.THREAT_BY_MINOR_MG, w8.THREAT_BY_MINOR_EG))
THREAT_BY_ROOK = int(_pack(w8.THREAT_BY_ROOK_MG, w8.THREAT_BY_ROOK_EG))
HANGING = int(_pack(w8.HANGING_MG, w8.HANGING_EG))
SAFE_CHECK_KNIGHT = int(_pack(w8.SAFE_CHECK_KNIGHT_MG, w8.SAFE_CHECK_KNIGHT_EG))
SAFE_CHECK_BISHOP = int(_pack(w8.SAFE_CHECK_BISHOP_MG, w8.SAFE_CHECK_BISHOP_EG))
SAFE_CHECK_ROOK = int(_pack(w8.SAFE_CHECK_ROOK_MG, w8.SAFE_CHECK_ROOK_EG))
SAFE_CHECK_QUEEN = int(_pack(w8.SAFE_CHECK_QUEEN_MG, w8.SAFE_CHECK_QUEEN_EG))
MG_ONE = 1 << 32

# Feature indices of the weights (``core/layout.py``), for the trace.
F_MATERIAL = OFFSET["MATERIAL"]
F_PSQT = OFFSET["PSQT_PAWN"]  # six tables of 64 in kind order
F_ISOLATED = OFFSET["ISOLATED"]
F_DOUBLED = OFFSET["DOUBLED"]
F_CONNECTED = OFFSET["CONNECTED"]
F_PASSED = OFFSET["PASSED"]
F_PASSED_BLOCKED = OFFSET["PASSED_BLOCKED"]
F_PASSED_THEIR_KING = OFFSET["PASSED_THEIR_KING"]
F_PASSED_OUR_KING = OFFSET["PASSED_OUR_KING"]
F_MOBILITY = np.array(
    [OFFSET["MOBILITY_KNIGHT"], OFFSET["MOBILITY_BISHOP"], OFFSET["MOBILITY_ROOK"],
     OFFSET["MOBILITY_QUEEN"]], dtype=np.int64,
)  # fmt: skip
F_SHIELD_NEAR = OFFSET["SHIELD_NEAR"]
F_SHIELD_FAR = OFFSET["SHIELD_FAR"]
F_KING_SEMI_OPEN_FILE = OFFSET["KING_SEMI_OPEN_FILE"]
F_KING_OPEN_FILE = OFFSET["KING_OPEN_FILE"]
F_BISHOP_PAIR = OFFSET["BISHOP_PAIR"]
F_ROOK_OPEN = OFFSET["ROOK_OPEN"]
F_ROOK_SEMI_OPEN = OFFSET["ROOK_SEMI_OPEN"]
F_THREAT_BY_PAWN = OFFSET["THREAT_BY_PAWN"]
F_THREAT_BY_MINOR = OFFSET["THREAT_BY_MINOR"]
F_THREAT_BY_ROOK = OFFSET["THREAT_BY_ROOK"]
F_HANGING = OFFSET["HANGING"]
F_SAFE_CHECK_KNIGHT = OFFSET["SAFE_CHECK_KNIGHT"]
F_SAFE_CHECK_BISHOP = OFFSET["SAFE_CHECK_BISHOP"]
F_SAFE_CHECK_ROOK = OFFSET["SAFE_CHECK_ROOK"]
F_SAFE_CHECK_QUEEN = OFFSET["SAFE_CHECK_QUEEN"]
F_DANGER = N_FEATURES
"""The trace's slot past the weights: the fixed king-attack danger (middlegame cp)."""
N_TRACE = N_FEATURES + 1
"""Length of one colour's trace array (``trace_terms``)."""


@register_jitable
def weigh(tr: np.ndarray | None, f: int, weight: int, n: int) -> int:
    """``n`` uses of the packed ``weight`` of feature ``f``, counted in ``tr`` when tracing.

    Every weight of the evaluation is applied through here, so the evaluation and its
    trace are one definition. Without a trace ``tr`` is None, a type of its own: numba
    prunes the counting branch while it compiles, and the search's code is as if it had
    never been written. Not ``inline="always"``: typed again at each of its sixty call
    sites, that made the evaluation take a third longer to compile; as a jitable (typed
    once per argument types, literals dropped) LLVM inlines it all the same.
    """
    if tr is not None:
        tr[f] += n
    return weight * n
