"""Static evaluation: a tapered middlegame/endgame score of a position, in centipawns.

Every term is computed twice, once with middlegame and once with endgame weights,
as "white minus black". Each term is then blended by the game phase (24 with all
minor and major pieces on the board, 0 with none) and rounded toward zero, so
that a colour-flipped position gets exactly the negated term. ``evaluate`` is the
sum of the blended terms, seen from the side to move, plus a small tempo bonus;
``evaluate_terms`` reports the same blended terms one by one (``TERM_NAMES``), so
the total always equals the sum of the parts.

Every weight comes from ``core/weights.py`` (written by ``plies tune``; its
layout is ``core/layout.py``) and is compiled in as a constant. Each is applied
through ``_weigh``, which also counts the use when given a trace array: the
tuner's feature counts (``trace_terms``, ``core/trace.py``) come from this one
definition, and the search's compiled copy carries none of it. The tables
below are from White's point of view with a1 = index 0; Black reads them through
``sq ^ 56`` (the rank mirror).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from plies.core import weights as w8
from plies.core.bits import U64, lsb, popcount
from plies.core.encoding import (
    ALL_KINDS,
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    piece_code,
)
from plies.core.layout import N_FEATURES, OFFSET
from plies.core.position import Position
from plies.core.tables import KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, rook_attacks

TERM_NAMES: tuple[str, ...] = (
    "material",
    "psqt",
    "pawns",
    "passed",
    "mobility",
    "king_safety",
    "bishop_pair",
    "rooks",
    "threats",
    "tempo",
)
"""Order of the entries ``evaluate_terms`` writes (white minus black, tempo for the mover)."""

N_TERMS = len(TERM_NAMES)
(
    T_MATERIAL, T_PSQT, T_PAWNS, T_PASSED, T_MOBILITY,
    T_KING, T_BISHOP_PAIR, T_ROOKS, T_THREATS, T_TEMPO,
) = range(N_TERMS)  # fmt: skip

_DEFAULT_WEIGHTS = (100,) * N_TERMS
WEIGHTS = np.array(_DEFAULT_WEIGHTS, dtype=np.int64)
"""Default weight of each term, in percent (the ablation switches terms off with 0).

``evaluate`` bakes the same numbers in as compile-time constants (a tuple), which
saves loading and multiplying weights at every leaf; ``evaluate_weighted(pos, weights)``
takes any array."""

TEMPO = w8.TEMPO
PHASE_MAX = 24


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
_DARK_SQUARES = U64(0xAA55AA55AA55AA55)
_FILE_A = U64(0x0101010101010101)
_FILE_H = U64(0x8080808080808080)


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
_RANK_1 = U64(0xFF)


@njit(cache=True, inline="always")
def _north_fill(b: np.uint64) -> np.uint64:
    """Each set bit smeared toward rank 8."""
    b |= b << U64(8)
    b |= b << U64(16)
    return b | (b << U64(32))


@njit(cache=True, inline="always")
def _south_fill(b: np.uint64) -> np.uint64:
    """Each set bit smeared toward rank 1."""
    b |= b >> U64(8)
    b |= b >> U64(16)
    return b | (b >> U64(32))


@njit(cache=True, inline="always")
def _sideways(b: np.uint64) -> np.uint64:
    """Squares beside the set bits on the same rank."""
    return ((b & _NOT_A) >> U64(1)) | ((b & _NOT_H) << U64(1))


@njit(cache=True, inline="always")
def _pawn_attacks(pawns: np.uint64, color: int) -> np.uint64:
    """Squares attacked by the pawns of ``color``."""
    if color == 0:
        return ((pawns & _NOT_A) << U64(7)) | ((pawns & _NOT_H) << U64(9))
    return ((pawns & _NOT_A) >> U64(9)) | ((pawns & _NOT_H) >> U64(7))


@njit(cache=True, inline="always")
def _behind(b: np.uint64, color: int) -> np.uint64:
    """Squares strictly behind the set bits, from ``color``'s point of view."""
    if color == 0:
        return _south_fill(b >> U64(8))
    return _north_fill(b << U64(8))


@njit(cache=True, inline="always")
def _distance(a: int, b: int) -> int:
    """King-step (Chebyshev) distance between two squares."""
    df = abs((a & 7) - (b & 7))
    dr = abs((a >> 3) - (b >> 3))
    return df if df > dr else dr


@njit(cache=True, inline="always")
def _taper(mg: int, eg: int, phase: int, scale: int, weight: int) -> int:
    """Blend mg and scaled eg values by phase, weight them (%), round toward zero."""
    n = (mg * phase * SCALE_FULL + eg * scale * (PHASE_MAX - phase)) * weight
    # Truncating toward zero keeps colour symmetry exact (floor would not). The
    # float division truncates without a sign branch, and is exact: a quotient
    # that is not an integer lies at least 1/153600 away from one.
    return int(n / (PHASE_MAX * SCALE_FULL * 100.0))


# Packed scores: a middlegame and an endgame value in one int64, ``mg * 2**32 + eg``.
# Sums and differences of packed scores are the packed sums and differences, so
# each addition and table lookup serves both phases at once.
_EG_BIAS = 1 << 31
_EG_MASK = (1 << 32) - 1


def _pack(mg: np.ndarray | int, eg: np.ndarray | int) -> np.ndarray:
    """Packed int64 score(s) of middlegame and endgame values."""
    return np.asarray(mg, dtype=np.int64) * (1 << 32) + np.asarray(eg, dtype=np.int64)


@njit(cache=True, inline="always")
def _mg(s: int) -> int:
    """Middlegame half of a packed score."""
    return (s - _eg(s)) >> 32


@njit(cache=True, inline="always")
def _eg(s: int) -> int:
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
_MG_ONE = 1 << 32

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
def _weigh(tr: np.ndarray | None, f: int, weight: int, n: int) -> int:
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


@njit(cache=True, nogil=True, _nrt=False)
def _pieces(
    pos: Position,
    pieces: np.uint64,
    kind: int,
    flip: int,
    occ: np.uint64,
    area: np.uint64,
    zone: np.uint64,
    tr: np.ndarray | None,
) -> tuple[int, int, int, int, np.uint64]:
    """Packed PST and mobility, king-zone attackers, attack units and attacks of a piece set
    (traced into ``tr`` unless it is None).

    Not inlined in numba's IR: that would make the evaluation much slower to compile
    for a few instructions fewer.
    """
    att = pos.sliders
    pst = mob = attackers = units = 0
    attacked = U64(0)
    while pieces:
        sq = lsb(pieces)
        pieces &= pieces - U64(1)
        rel = sq ^ flip
        pst += _weigh(tr, F_PSQT + 64 * (kind - PAWN) + (rel ^ 56), PSQ[kind, rel], 1)
        if kind == KNIGHT:
            a = KNIGHT_ATTACKS[sq]
        elif kind == BISHOP:
            a = bishop_attacks(sq, occ, att)
        elif kind == ROOK:
            a = rook_attacks(sq, occ, att)
        else:
            a = rook_attacks(sq, occ, att) | bishop_attacks(sq, occ, att)
        attacked |= a
        reach = popcount(a & area)
        mob += _weigh(tr, F_MOBILITY[kind - KNIGHT] + reach, MOBILITY[kind - KNIGHT, reach], 1)
        hits = a & zone
        if hits:
            attackers += 1
            units += KING_ATTACK_UNITS[kind] * popcount(hits)
    return pst, mob, attackers, units, attacked


def _side(
    pos: Position,
    c: int,
    occ: np.uint64,
    our_files: np.uint64,
    their_files: np.uint64,
    tr: np.ndarray | None,
) -> tuple[
    int, int, int, int, int, int, int, int, int, int,
    np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64,
]:  # fmt: skip
    """Phase share, the packed terms (material ... rooks), then what threats and checks need;
    with a trace array ``tr``, colour ``c``'s uses of each weight are counted there.

    The tail: non-pawn material (mg), then the squares attacked by our pawns, by
    our knights, bishops, rooks and queens, and by anything of ours.

    The search calls ``_side_hot``, a separate compile per colour (the colour is a
    literal there, so its tests fold away). Not inlined into ``evaluate``: numba would
    type it twice inside that compile, doubling its first-run time, and with no
    argument reference counted the call costs nothing measurable. The cold paths
    call one compiled copy, ``_side_cold``.
    """
    bb = pos.pieces
    them = 1 - c
    flip = 56 * c
    our_pawns = bb[piece_code(c, PAWN)]
    their_pawns = bb[piece_code(them, PAWN)]
    our_pawn_att = _pawn_attacks(our_pawns, c)
    area = ~bb[piece_code(c, ALL_KINDS)] & ~_pawn_attacks(their_pawns, them)
    our_king = lsb(bb[piece_code(c, KING)])
    their_king = lsb(bb[piece_code(them, KING)])

    # Material and phase.
    n_pawns = popcount(our_pawns)
    n_knights = popcount(bb[piece_code(c, KNIGHT)])
    n_bishops = popcount(bb[piece_code(c, BISHOP)])
    n_rooks = popcount(bb[piece_code(c, ROOK)])
    n_queens = popcount(bb[piece_code(c, QUEEN)])
    phase = n_knights + n_bishops + 2 * n_rooks + 4 * n_queens
    material = _weigh(tr, F_MATERIAL, MATERIAL[PAWN], n_pawns)
    material += _weigh(tr, F_MATERIAL + KNIGHT - PAWN, MATERIAL[KNIGHT], n_knights)
    material += _weigh(tr, F_MATERIAL + BISHOP - PAWN, MATERIAL[BISHOP], n_bishops)
    material += _weigh(tr, F_MATERIAL + ROOK - PAWN, MATERIAL[ROOK], n_rooks)
    material += _weigh(tr, F_MATERIAL + QUEEN - PAWN, MATERIAL[QUEEN], n_queens)

    # King and pawn placement.
    rel = our_king ^ flip
    pst = _weigh(tr, F_PSQT + 64 * (KING - PAWN) + (rel ^ 56), PSQ[KING, rel], 1)
    pawns = our_pawns
    while pawns:
        rel = lsb(pawns) ^ flip
        pst += _weigh(tr, F_PSQT + (rel ^ 56), PSQ[PAWN, rel], 1)
        pawns &= pawns - U64(1)

    # Pawn structure, set-wise: isolated, doubled, connected (defended by a pawn
    # or standing beside one), the last by rank.
    doubled_set = our_pawns & _behind(our_pawns, c)
    structure = _weigh(tr, F_ISOLATED, ISOLATED, popcount(our_pawns & ~_sideways(our_files)))
    structure += _weigh(tr, F_DOUBLED, DOUBLED, popcount(doubled_set))
    connected = our_pawns & (our_pawn_att | _sideways(our_pawns))
    for r in range(2, 7):
        structure += _weigh(tr, F_CONNECTED + r, CONNECTED[r],
                            popcount(connected & RANK_REL[c, r]))  # fmt: skip

    # Passed pawns: no enemy pawn ahead on this or a neighbouring file.
    # Their pawns' paths run toward our side: the squares behind them as we see it.
    their_span = _behind(their_pawns, c)
    their_span |= _sideways(their_span)
    passers = our_pawns & ~their_span & ~doubled_set
    passed = 0
    while passers:
        sq = lsb(passers)
        passers &= passers - U64(1)
        rank = (sq ^ flip) >> 3
        stop = sq + 8 - 16 * c
        passed += _weigh(tr, F_PASSED + rank, PASSED[rank], 1)
        passed += _weigh(tr, F_PASSED_THEIR_KING + rank, PASSED_THEIR_KING[rank],
                         _distance(their_king, stop))  # fmt: skip
        passed += _weigh(tr, F_PASSED_OUR_KING + rank, PASSED_OUR_KING[rank],
                         _distance(our_king, stop))  # fmt: skip
        if (occ >> U64(stop)) & U64(1):
            passed += _weigh(tr, F_PASSED_BLOCKED + rank, PASSED_BLOCKED[rank], -1)

    # Pieces: placement, mobility, pressure on the enemy king zone.
    zone = KING_ZONE[their_king]
    # Kinds passed as runtime int64s: a constant argument would compile one
    # copy of ``_pieces`` per kind.
    knight, bishop = np.int64(KNIGHT), np.int64(BISHOP)
    rook, queen = np.int64(ROOK), np.int64(QUEEN)
    pn, mn, an, un, xn = _pieces(pos, bb[piece_code(c, KNIGHT)], knight, flip, occ, area, zone, tr)
    pb, mb, ab, ub, xb = _pieces(pos, bb[piece_code(c, BISHOP)], bishop, flip, occ, area, zone, tr)
    pr, mr, ar, ur, xr = _pieces(pos, bb[piece_code(c, ROOK)], rook, flip, occ, area, zone, tr)
    pq, mq, aq, uq, xq = _pieces(pos, bb[piece_code(c, QUEEN)], queen, flip, occ, area, zone, tr)
    pst += pn + pb + pr + pq
    mobility = mn + mb + mr + mq

    # King safety: our pawn shield and the open files beside our king, plus our
    # pressure on theirs once two pieces take part (middlegame only, fixed).
    shelter = _weigh(tr, F_SHIELD_NEAR, SHIELD_NEAR, popcount(our_pawns & SHIELD_1[c, our_king]))
    shelter += _weigh(tr, F_SHIELD_FAR, SHIELD_FAR, popcount(our_pawns & SHIELD_2[c, our_king]))
    near_files = KING_FILES[our_king & 7]
    shelter += _weigh(tr, F_KING_SEMI_OPEN_FILE, KING_SEMI_OPEN_FILE,
                      popcount(near_files & ~our_files))  # fmt: skip
    shelter += _weigh(tr, F_KING_OPEN_FILE, KING_OPEN_FILE,
                      popcount(near_files & ~our_files & ~their_files))  # fmt: skip
    danger = 0
    if an + ab + ar + aq >= 2:
        units = un + ub + ur + uq
        danger = units * units // KING_ATTACK_DIV
        if n_queens == 0:
            danger //= 2
        danger = min(danger, KING_ATTACK_CAP)
    # Not a tuned weight: the trace keeps it apart, in its own slot.
    king = shelter + _weigh(tr, F_DANGER, _MG_ONE, danger)

    # Rooks on files without our pawns (semi-open) or without any (open).
    rooks = bb[piece_code(c, ROOK)] & ~our_files
    rook_files = _weigh(tr, F_ROOK_OPEN, ROOK_OPEN, popcount(rooks & ~their_files))
    rook_files += _weigh(tr, F_ROOK_SEMI_OPEN, ROOK_SEMI_OPEN, popcount(rooks & their_files))

    pair = _weigh(tr, F_BISHOP_PAIR, BISHOP_PAIR, 1 if n_bishops >= 2 else 0)
    npm = n_knights * MATERIAL_MG[KNIGHT] + n_bishops * MATERIAL_MG[BISHOP]
    npm += n_rooks * MATERIAL_MG[ROOK] + n_queens * MATERIAL_MG[QUEEN]
    attacked = our_pawn_att | xn | xb | xr | xq | KING_ATTACKS[our_king]
    return (
        phase, material, pst, structure, passed, mobility, king, pair, rook_files,
        npm, our_pawn_att, xn, xb, xr, xq, attacked,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _threats(
    pos: Position,
    c: int,
    pawn_att: np.uint64,
    minor_att: np.uint64,
    rook_att: np.uint64,
    ours: np.uint64,
    theirs: np.uint64,
    tr: np.ndarray | None,
) -> int:
    """Packed threats of colour ``c`` (attack sets ``ours``) on the other (``theirs``)."""
    bb = pos.pieces
    them = 1 - c
    queens = bb[piece_code(them, QUEEN)]
    majors = bb[piece_code(them, ROOK)] | queens
    pieces = bb[piece_code(them, KNIGHT)] | bb[piece_code(them, BISHOP)] | majors
    score = _weigh(tr, F_THREAT_BY_PAWN, THREAT_BY_PAWN, popcount(pawn_att & pieces))
    score += _weigh(tr, F_THREAT_BY_MINOR, THREAT_BY_MINOR, popcount(minor_att & majors))
    score += _weigh(tr, F_THREAT_BY_ROOK, THREAT_BY_ROOK, popcount(rook_att & queens))
    score += _weigh(tr, F_HANGING, HANGING, popcount(pieces & ours & ~theirs))
    return score


@njit(cache=True, nogil=True, _nrt=False)
def _safe_checks(
    pos: Position,
    c: int,
    occ: np.uint64,
    attacks: tuple[np.uint64, np.uint64, np.uint64, np.uint64],
    defended: np.uint64,
    tr: np.ndarray | None,
) -> int:
    """Packed bonus of colour ``c`` for the squares its knights, bishops, rooks and queens
    (``attacks``: their attack sets, in that order) could check the other king from,
    safely: empty or enemy-held and attacked by no enemy piece (``defended``)."""
    knights, bishops, rooks, queens = attacks
    bb = pos.pieces
    king = lsb(bb[piece_code(1 - c, KING)])
    safe = ~bb[piece_code(c, ALL_KINDS)] & ~defended
    diagonal = bishop_attacks(king, occ, pos.sliders) & safe
    straight = rook_attacks(king, occ, pos.sliders) & safe
    score = _weigh(tr, F_SAFE_CHECK_KNIGHT, SAFE_CHECK_KNIGHT,
                   popcount(KNIGHT_ATTACKS[king] & safe & knights))  # fmt: skip
    score += _weigh(tr, F_SAFE_CHECK_BISHOP, SAFE_CHECK_BISHOP, popcount(diagonal & bishops))
    score += _weigh(tr, F_SAFE_CHECK_ROOK, SAFE_CHECK_ROOK, popcount(straight & rooks))
    score += _weigh(tr, F_SAFE_CHECK_QUEEN, SAFE_CHECK_QUEEN,
                    popcount((diagonal | straight) & queens))  # fmt: skip
    return score


@njit(cache=True, inline="always")
def _wrong_bishop(bb: np.ndarray, c: int) -> bool:
    """Whether ``c``'s pawns are all on one rook file, its bishop cannot guard their
    promotion corner and the lone defending king stands next to that corner: a draw."""
    pawns = bb[piece_code(c, PAWN)]
    if (pawns & _FILE_A) == pawns:
        corner = 56 if c == WHITE else 0
    elif (pawns & _FILE_H) == pawns:
        corner = 63 if c == WHITE else 7
    else:
        return False
    corner_dark = ((_DARK_SQUARES >> U64(corner)) & U64(1)) != 0
    if ((bb[piece_code(c, BISHOP)] & _DARK_SQUARES) != 0) == corner_dark:
        return False
    king = lsb(bb[piece_code(1 - c, KING)])
    return _distance(king, corner) <= 1


@njit(cache=True, nogil=True, _nrt=False)
def _scale(bb: np.ndarray, c: int, our_npm: int, their_npm: int) -> int:
    """Endgame scale (of 64) when colour ``c`` is the side ahead (bitboards ``bb``)."""
    if bb[piece_code(c, PAWN)] == 0 and our_npm - their_npm < MATERIAL_MG[ROOK]:
        return 0 if our_npm < MATERIAL_MG[ROOK] else SCALE_NO_PAWNS_SMALL_LEAD
    if (
        our_npm == MATERIAL_MG[BISHOP]
        and their_npm == 0
        and bb[piece_code(1 - c, PAWN)] == 0
        and popcount(bb[piece_code(c, BISHOP)]) == 1
        and _wrong_bishop(bb, c)
    ):
        return 0
    w_bishops = bb[piece_code(WHITE, BISHOP)]
    b_bishops = bb[piece_code(BLACK, BISHOP)]
    if (
        our_npm == MATERIAL_MG[BISHOP]
        and their_npm == MATERIAL_MG[BISHOP]
        and popcount(w_bishops) == 1
        and popcount(b_bishops) == 1
        and ((w_bishops & _DARK_SQUARES) == 0) != ((b_bishops & _DARK_SQUARES) == 0)
    ):
        return SCALE_OPPOSITE_BISHOPS
    return SCALE_FULL


_RawTerms = tuple[
    int, int, int, int, int, int, int, int, int, int,
    int, int, int, int, int, int, int, int, int, int,
]  # fmt: skip
_SideTerms = tuple[
    int, int, int, int, int, int, int, int, int, int,
    np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64,
]  # fmt: skip


@njit(cache=True, inline="always")
def _finish(pos: Position, w: _SideTerms, b: _SideTerms, w_tr: np.ndarray | None,
            b_tr: np.ndarray | None) -> _RawTerms:  # fmt: skip
    """Phase, endgame scale, then each term's untapered (mg, eg), white minus black
    (threats and checks traced into ``w_tr`` and ``b_tr`` unless they are None)."""
    phase = min(w[0] + b[0], PHASE_MAX)
    material = w[1] - b[1]
    pst = w[2] - b[2]
    structure = w[3] - b[3]
    passed = w[4] - b[4]
    mobility = w[5] - b[5]
    king = w[6] - b[6]
    pair = w[7] - b[7]
    rook_files = w[8] - b[8]
    bb = pos.pieces
    threats = _threats(pos, WHITE, w[10], w[11] | w[12], w[13], w[15], b[15], w_tr)
    threats -= _threats(pos, BLACK, b[10], b[11] | b[12], b[13], b[15], w[15], b_tr)
    occ = bb[piece_code(WHITE, ALL_KINDS)] | bb[piece_code(BLACK, ALL_KINDS)]
    king += _safe_checks(pos, WHITE, occ, (w[11], w[12], w[13], w[14]), b[15], w_tr)
    king -= _safe_checks(pos, BLACK, occ, (b[11], b[12], b[13], b[14]), w[15], b_tr)
    # Drawish patterns need a side without pawns or a lone bishop each; the test
    # is cheap and almost always false, so the full check rarely runs.
    scale = SCALE_FULL
    no_pawns = bb[piece_code(WHITE, PAWN)] == 0 or bb[piece_code(BLACK, PAWN)] == 0
    if no_pawns or (w[9] == MATERIAL_MG[BISHOP] and b[9] == MATERIAL_MG[BISHOP]):
        # The side ahead in the endgame decides which patterns apply.
        total = material + pst + structure + passed + mobility + king + pair + rook_files
        eg = _eg(total + threats)
        if eg > 0:
            scale = _scale(bb, WHITE, w[9], b[9])
        elif eg < 0:
            scale = _scale(bb, BLACK, b[9], w[9])
    return (
        phase, scale,
        _mg(material), _eg(material), _mg(pst), _eg(pst),
        _mg(structure), _eg(structure), _mg(passed), _eg(passed),
        _mg(mobility), _eg(mobility), _mg(king), _eg(king),
        _mg(pair), _eg(pair), _mg(rook_files), _eg(rook_files),
        _mg(threats), _eg(threats),
    )  # fmt: skip


@njit(cache=True, inline="always")
def _boards(pos: Position) -> tuple[np.uint64, np.uint64, np.uint64]:
    """Occupancy, and the files holding white pawns and black pawns."""
    bb = pos.pieces
    occ = bb[piece_code(WHITE, ALL_KINDS)] | bb[piece_code(BLACK, ALL_KINDS)]
    white = bb[piece_code(WHITE, PAWN)]
    black = bb[piece_code(BLACK, PAWN)]
    return occ, _north_fill(white) | _south_fill(white), _north_fill(black) | _south_fill(black)


# The colour is passed as a literal: numba keeps one copy per colour.
_side_hot = njit(cache=True, nogil=True, _nrt=False)(_side)


@njit(cache=True, inline="always")
def _raw(pos: Position) -> _RawTerms:
    """All raw terms, one colour-specialised ``_side`` call each (the hot path)."""
    occ, white_files, black_files = _boards(pos)
    w = _side_hot(pos, WHITE, occ, white_files, black_files, None)
    b = _side_hot(pos, BLACK, occ, black_files, white_files, None)
    return _finish(pos, w, b, None, None)


_side_cold = njit(cache=True, nogil=True)(_side)


@njit(cache=True, nogil=True)
def _raw_cold(pos: Position, w_tr: np.ndarray | None, b_tr: np.ndarray | None) -> _RawTerms:
    """All raw terms through one compiled ``_side`` (the weighted, reporting and tracing
    paths; each colour's weight uses counted into ``w_tr`` and ``b_tr`` unless None).

    Compiling a second inlined copy would double the tests' and the ablation's
    first-run compile time; these paths do not run per search node.
    """
    occ, white_files, black_files = _boards(pos)
    w = _side_cold(pos, np.int64(WHITE), occ, white_files, black_files, w_tr)
    b = _side_cold(pos, np.int64(BLACK), occ, black_files, white_files, b_tr)
    return _finish(pos, w, b, w_tr, b_tr)


@njit(cache=True, inline="always")
def _combine(r: tuple[int, ...], side: int, weights: np.ndarray | tuple[int, ...]) -> int:
    """Tapered, weighted sum of the raw terms, from the side to move, plus tempo."""
    phase = r[0]
    scale = r[1]
    total = _taper(r[2], r[3], phase, scale, weights[0])
    total += _taper(r[4], r[5], phase, scale, weights[1])
    total += _taper(r[6], r[7], phase, scale, weights[2])
    total += _taper(r[8], r[9], phase, scale, weights[3])
    total += _taper(r[10], r[11], phase, scale, weights[4])
    total += _taper(r[12], r[13], phase, scale, weights[5])
    total += _taper(r[14], r[15], phase, scale, weights[6])
    total += _taper(r[16], r[17], phase, scale, weights[7])
    total += _taper(r[18], r[19], phase, scale, weights[8])
    if side != 0:
        total = -total
    return total + (TEMPO * weights[T_TEMPO]) // 100


@njit(cache=True, nogil=True)
def evaluate_weighted(pos: Position, weights: np.ndarray) -> int:
    """``evaluate`` with explicit per-term weights in percent (100 = as shipped)."""
    return _combine(_raw_cold(pos, None, None), pos.side, weights)


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(pos: Position) -> int:
    """Static evaluation in centipawns from the side to move's point of view."""
    return _combine(_raw(pos), pos.side, _DEFAULT_WEIGHTS)


@njit(cache=True, nogil=True)
def _evaluate_terms(pos: Position, weights: np.ndarray, out: np.ndarray) -> None:
    """``evaluate_terms`` with explicit weights."""
    r = _raw_cold(pos, None, None)
    for t in range(T_TEMPO):
        out[t] = _taper(r[2 + 2 * t], r[3 + 2 * t], r[0], r[1], weights[t])
    tempo = (TEMPO * weights[T_TEMPO]) // 100
    out[T_TEMPO] = tempo if pos.side == WHITE else -tempo


@njit(cache=True, nogil=True)
def evaluate_terms(pos: Position, out: np.ndarray) -> None:
    """Fill ``out`` (int64, at least N_TERMS long) with each term, white minus black.

    The tempo entry is the mover's bonus seen from White, so
    ``evaluate == sum(out)`` for White to move and ``-sum(out)`` for Black.
    """
    _evaluate_terms(pos, WEIGHTS, out)


@njit(cache=True, nogil=True)
def trace_terms(pos: Position, w_tr: np.ndarray, b_tr: np.ndarray) -> tuple[int, int]:
    """Count each colour's uses of every weight (``w_tr``, ``b_tr``: int64[N_TRACE], zeroed
    here; the king danger in slot ``F_DANGER``) as the evaluation applies them; return
    the phase and the endgame scale."""
    w_tr[:] = 0
    b_tr[:] = 0
    r = _raw_cold(pos, w_tr, b_tr)
    return r[0], r[1]
