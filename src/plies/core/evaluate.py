"""Static evaluation: a tapered middlegame/endgame score of a position, in centipawns.

Every term is computed twice, once with middlegame and once with endgame weights,
as "white minus black". Each term is then blended by the game phase (24 with all
minor and major pieces on the board, 0 with none) and rounded toward zero, so
that a colour-flipped position gets exactly the negated term. ``evaluate`` is the
sum of the blended terms, seen from the side to move, plus a small tempo bonus;
``evaluate_terms`` reports the same blended terms one by one (``TERM_NAMES``), so
the total always equals the sum of the parts.

Every weight comes from ``core/weights.py`` (written by ``plies tune``; its
layout is ``core/layout.py``), arranged as tables by ``core/eval_weights.py`` and
compiled in as constants. Each is applied through ``weigh``, which also counts the
use when given a trace array: the tuner's feature counts (``trace_terms``,
``core/trace.py``) come from this one definition, and the search's compiled copy
carries none of it. The tables are from White's point of view with a1 = index 0;
Black reads them through ``sq ^ 56`` (the rank mirror). The masks and pawn fills
are in ``core/eval_geometry.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
from plies.core.eval_geometry import (
    DARK_SQUARES,
    FILE_A,
    FILE_H,
    KING_FILES,
    KING_ZONE,
    RANK_REL,
    SHIELD_1,
    SHIELD_2,
    behind,
    distance,
    north_fill,
    pawn_attacks,
    sideways,
    south_fill,
)
from plies.core.eval_weights import (
    BISHOP_PAIR,
    CONNECTED,
    DOUBLED,
    F_BISHOP_PAIR,
    F_CONNECTED,
    F_DANGER,
    F_DOUBLED,
    F_HANGING,
    F_ISOLATED,
    F_KING_OPEN_FILE,
    F_KING_SEMI_OPEN_FILE,
    F_MATERIAL,
    F_MOBILITY,
    F_PASSED,
    F_PASSED_BLOCKED,
    F_PASSED_OUR_KING,
    F_PASSED_THEIR_KING,
    F_PSQT,
    F_ROOK_OPEN,
    F_ROOK_SEMI_OPEN,
    F_SAFE_CHECK_BISHOP,
    F_SAFE_CHECK_KNIGHT,
    F_SAFE_CHECK_QUEEN,
    F_SAFE_CHECK_ROOK,
    F_SHIELD_FAR,
    F_SHIELD_NEAR,
    F_THREAT_BY_MINOR,
    F_THREAT_BY_PAWN,
    F_THREAT_BY_ROOK,
    HANGING,
    ISOLATED,
    KING_ATTACK_CAP,
    KING_ATTACK_DIV,
    KING_ATTACK_UNITS,
    KING_OPEN_FILE,
    KING_SEMI_OPEN_FILE,
    MATERIAL,
    MATERIAL_MG,
    MG_ONE,
    MOBILITY,
    PASSED,
    PASSED_BLOCKED,
    PASSED_OUR_KING,
    PASSED_THEIR_KING,
    PSQ,
    ROOK_OPEN,
    ROOK_SEMI_OPEN,
    SAFE_CHECK_BISHOP,
    SAFE_CHECK_KNIGHT,
    SAFE_CHECK_QUEEN,
    SAFE_CHECK_ROOK,
    SCALE_FULL,
    SCALE_NO_PAWNS_SMALL_LEAD,
    SCALE_OPPOSITE_BISHOPS,
    SHIELD_FAR,
    SHIELD_NEAR,
    THREAT_BY_MINOR,
    THREAT_BY_PAWN,
    THREAT_BY_ROOK,
    eg_half,
    mg_half,
    weigh,
)
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


@njit(cache=True, inline="always")
def _taper(mg: int, eg: int, phase: int, scale: int, weight: int) -> int:
    """Blend mg and scaled eg values by phase, weight them (%), round toward zero."""
    n = (mg * phase * SCALE_FULL + eg * scale * (PHASE_MAX - phase)) * weight
    # Truncating toward zero keeps colour symmetry exact (floor would not). The
    # float division truncates without a sign branch, and is exact: a quotient
    # that is not an integer lies at least 1/153600 away from one.
    return int(n / (PHASE_MAX * SCALE_FULL * 100.0))


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
        pst += weigh(tr, F_PSQT + 64 * (kind - PAWN) + (rel ^ 56), PSQ[kind, rel], 1)
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
        mob += weigh(tr, F_MOBILITY[kind - KNIGHT] + reach, MOBILITY[kind - KNIGHT, reach], 1)
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
    our_pawn_att = pawn_attacks(our_pawns, c)
    area = ~bb[piece_code(c, ALL_KINDS)] & ~pawn_attacks(their_pawns, them)
    our_king = lsb(bb[piece_code(c, KING)])
    their_king = lsb(bb[piece_code(them, KING)])

    # Material and phase.
    n_pawns = popcount(our_pawns)
    n_knights = popcount(bb[piece_code(c, KNIGHT)])
    n_bishops = popcount(bb[piece_code(c, BISHOP)])
    n_rooks = popcount(bb[piece_code(c, ROOK)])
    n_queens = popcount(bb[piece_code(c, QUEEN)])
    phase = n_knights + n_bishops + 2 * n_rooks + 4 * n_queens
    material = weigh(tr, F_MATERIAL, MATERIAL[PAWN], n_pawns)
    material += weigh(tr, F_MATERIAL + KNIGHT - PAWN, MATERIAL[KNIGHT], n_knights)
    material += weigh(tr, F_MATERIAL + BISHOP - PAWN, MATERIAL[BISHOP], n_bishops)
    material += weigh(tr, F_MATERIAL + ROOK - PAWN, MATERIAL[ROOK], n_rooks)
    material += weigh(tr, F_MATERIAL + QUEEN - PAWN, MATERIAL[QUEEN], n_queens)

    # King and pawn placement.
    rel = our_king ^ flip
    pst = weigh(tr, F_PSQT + 64 * (KING - PAWN) + (rel ^ 56), PSQ[KING, rel], 1)
    pawns = our_pawns
    while pawns:
        rel = lsb(pawns) ^ flip
        pst += weigh(tr, F_PSQT + (rel ^ 56), PSQ[PAWN, rel], 1)
        pawns &= pawns - U64(1)

    # Pawn structure, set-wise: isolated, doubled, connected (defended by a pawn
    # or standing beside one), the last by rank.
    doubled_set = our_pawns & behind(our_pawns, c)
    structure = weigh(tr, F_ISOLATED, ISOLATED, popcount(our_pawns & ~sideways(our_files)))
    structure += weigh(tr, F_DOUBLED, DOUBLED, popcount(doubled_set))
    connected = our_pawns & (our_pawn_att | sideways(our_pawns))
    for r in range(2, 7):
        structure += weigh(tr, F_CONNECTED + r, CONNECTED[r],
                            popcount(connected & RANK_REL[c, r]))  # fmt: skip

    # Passed pawns: no enemy pawn ahead on this or a neighbouring file.
    # Their pawns' paths run toward our side: the squares behind them as we see it.
    their_span = behind(their_pawns, c)
    their_span |= sideways(their_span)
    passers = our_pawns & ~their_span & ~doubled_set
    passed = 0
    while passers:
        sq = lsb(passers)
        passers &= passers - U64(1)
        rank = (sq ^ flip) >> 3
        stop = sq + 8 - 16 * c
        passed += weigh(tr, F_PASSED + rank, PASSED[rank], 1)
        passed += weigh(tr, F_PASSED_THEIR_KING + rank, PASSED_THEIR_KING[rank],
                         distance(their_king, stop))  # fmt: skip
        passed += weigh(tr, F_PASSED_OUR_KING + rank, PASSED_OUR_KING[rank],
                         distance(our_king, stop))  # fmt: skip
        if (occ >> U64(stop)) & U64(1):
            passed += weigh(tr, F_PASSED_BLOCKED + rank, PASSED_BLOCKED[rank], -1)

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
    shelter = weigh(tr, F_SHIELD_NEAR, SHIELD_NEAR, popcount(our_pawns & SHIELD_1[c, our_king]))
    shelter += weigh(tr, F_SHIELD_FAR, SHIELD_FAR, popcount(our_pawns & SHIELD_2[c, our_king]))
    near_files = KING_FILES[our_king & 7]
    shelter += weigh(tr, F_KING_SEMI_OPEN_FILE, KING_SEMI_OPEN_FILE,
                      popcount(near_files & ~our_files))  # fmt: skip
    shelter += weigh(tr, F_KING_OPEN_FILE, KING_OPEN_FILE,
                      popcount(near_files & ~our_files & ~their_files))  # fmt: skip
    danger = 0
    if an + ab + ar + aq >= 2:
        units = un + ub + ur + uq
        danger = units * units // KING_ATTACK_DIV
        if n_queens == 0:
            danger //= 2
        danger = min(danger, KING_ATTACK_CAP)
    # Not a tuned weight: the trace keeps it apart, in its own slot.
    king = shelter + weigh(tr, F_DANGER, MG_ONE, danger)

    # Rooks on files without our pawns (semi-open) or without any (open).
    rooks = bb[piece_code(c, ROOK)] & ~our_files
    rook_files = weigh(tr, F_ROOK_OPEN, ROOK_OPEN, popcount(rooks & ~their_files))
    rook_files += weigh(tr, F_ROOK_SEMI_OPEN, ROOK_SEMI_OPEN, popcount(rooks & their_files))

    pair = weigh(tr, F_BISHOP_PAIR, BISHOP_PAIR, 1 if n_bishops >= 2 else 0)
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
    score = weigh(tr, F_THREAT_BY_PAWN, THREAT_BY_PAWN, popcount(pawn_att & pieces))
    score += weigh(tr, F_THREAT_BY_MINOR, THREAT_BY_MINOR, popcount(minor_att & majors))
    score += weigh(tr, F_THREAT_BY_ROOK, THREAT_BY_ROOK, popcount(rook_att & queens))
    score += weigh(tr, F_HANGING, HANGING, popcount(pieces & ours & ~theirs))
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
    score = weigh(tr, F_SAFE_CHECK_KNIGHT, SAFE_CHECK_KNIGHT,
                   popcount(KNIGHT_ATTACKS[king] & safe & knights))  # fmt: skip
    score += weigh(tr, F_SAFE_CHECK_BISHOP, SAFE_CHECK_BISHOP, popcount(diagonal & bishops))
    score += weigh(tr, F_SAFE_CHECK_ROOK, SAFE_CHECK_ROOK, popcount(straight & rooks))
    score += weigh(tr, F_SAFE_CHECK_QUEEN, SAFE_CHECK_QUEEN,
                    popcount((diagonal | straight) & queens))  # fmt: skip
    return score


@njit(cache=True, inline="always")
def _wrong_bishop(bb: np.ndarray, c: int) -> bool:
    """Whether ``c``'s pawns are all on one rook file, its bishop cannot guard their
    promotion corner and the lone defending king stands next to that corner: a draw."""
    pawns = bb[piece_code(c, PAWN)]
    if (pawns & FILE_A) == pawns:
        corner = 56 if c == WHITE else 0
    elif (pawns & FILE_H) == pawns:
        corner = 63 if c == WHITE else 7
    else:
        return False
    corner_dark = ((DARK_SQUARES >> U64(corner)) & U64(1)) != 0
    if ((bb[piece_code(c, BISHOP)] & DARK_SQUARES) != 0) == corner_dark:
        return False
    king = lsb(bb[piece_code(1 - c, KING)])
    return distance(king, corner) <= 1


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
        and ((w_bishops & DARK_SQUARES) == 0) != ((b_bishops & DARK_SQUARES) == 0)
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
        eg = eg_half(total + threats)
        if eg > 0:
            scale = _scale(bb, WHITE, w[9], b[9])
        elif eg < 0:
            scale = _scale(bb, BLACK, b[9], w[9])
    return (
        phase, scale,
        mg_half(material), eg_half(material), mg_half(pst), eg_half(pst),
        mg_half(structure), eg_half(structure), mg_half(passed), eg_half(passed),
        mg_half(mobility), eg_half(mobility), mg_half(king), eg_half(king),
        mg_half(pair), eg_half(pair), mg_half(rook_files), eg_half(rook_files),
        mg_half(threats), eg_half(threats),
    )  # fmt: skip


@njit(cache=True, inline="always")
def _boards(pos: Position) -> tuple[np.uint64, np.uint64, np.uint64]:
    """Occupancy, and the files holding white pawns and black pawns."""
    bb = pos.pieces
    occ = bb[piece_code(WHITE, ALL_KINDS)] | bb[piece_code(BLACK, ALL_KINDS)]
    white = bb[piece_code(WHITE, PAWN)]
    black = bb[piece_code(BLACK, PAWN)]
    return occ, north_fill(white) | south_fill(white), north_fill(black) | south_fill(black)


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
