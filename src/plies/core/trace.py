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

This mirrors ``_side``/``_threats`` of ``core/evaluate.py`` step by step with
counters instead of weights; phase and scale come from the evaluation itself.
The scale and the danger are taken as fixed per position: they depend on the
weights only through the sign of the endgame score and the material thresholds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
from plies.core.evaluate import (
    KING_ATTACK_CAP,
    KING_ATTACK_DIV,
    KING_ATTACK_UNITS,
    KING_FILES,
    KING_ZONE,
    RANK_REL,
    SHIELD_1,
    SHIELD_2,
    _behind,
    _boards,
    _distance,
    _pawn_attacks,
    _raw_cold,
    _sideways,
)
from plies.core.layout import N_FEATURES, OFFSET
from plies.core.position import Position
from plies.core.tables import KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, rook_attacks

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

MAX_ENTRIES = 2 * 96
"""Bound on a position's nonzero counts: per side at most 5 material, 16 piece-square,
7 structure, 4 per passed pawn (8 pawns), 16 mobility, 4 shelter, 1 pair, 2 rook-file,
4 threat and 4 safe-check entries (91 < 96)."""


@njit(cache=True, nogil=True)
def _trace_side(
    pos: Position, c: int, sign: int, counts: np.ndarray, by_kind: np.ndarray
) -> tuple[int, np.uint64]:
    """Add colour ``c``'s counts times ``sign``; its king danger and all squares it attacks
    (``by_kind[kind]``: the squares its pieces of each kind attack)."""
    bb = pos.pieces
    them = 1 - c
    flip = 56 * c
    occ, white_files, black_files = _boards(pos)
    our_files = white_files if c == WHITE else black_files
    their_files = black_files if c == WHITE else white_files
    our_pawns = bb[piece_code(c, PAWN)]
    their_pawns = bb[piece_code(them, PAWN)]
    our_pawn_att = _pawn_attacks(our_pawns, c)
    area = ~bb[piece_code(c, ALL_KINDS)] & ~_pawn_attacks(their_pawns, them)
    our_king = lsb(bb[piece_code(c, KING)])
    their_king = lsb(bb[piece_code(them, KING)])
    zone = KING_ZONE[their_king]

    # Material and placement of every piece (the king's placement too).
    attacked = our_pawn_att | KING_ATTACKS[our_king]
    by_kind[:] = 0
    attackers = units = 0
    for kind in range(PAWN, KING + 1):
        pieces = bb[piece_code(c, kind)]
        if kind != KING:
            counts[F_MATERIAL + kind - PAWN] += sign * popcount(pieces)
        while pieces:
            sq = lsb(pieces)
            pieces &= pieces - U64(1)
            counts[F_PSQT + 64 * (kind - PAWN) + ((sq ^ flip) ^ 56)] += sign
            if kind == PAWN or kind == KING:
                continue
            if kind == KNIGHT:
                a = KNIGHT_ATTACKS[sq]
            elif kind == BISHOP:
                a = bishop_attacks(sq, occ, pos.sliders)
            elif kind == ROOK:
                a = rook_attacks(sq, occ, pos.sliders)
            else:
                a = rook_attacks(sq, occ, pos.sliders) | bishop_attacks(sq, occ, pos.sliders)
            attacked |= a
            by_kind[kind] |= a
            counts[F_MOBILITY[kind - KNIGHT] + popcount(a & area)] += sign
            hits = a & zone
            if hits:
                attackers += 1
                units += KING_ATTACK_UNITS[kind] * popcount(hits)

    # Pawn structure.
    doubled_set = our_pawns & _behind(our_pawns, c)
    counts[F_ISOLATED] += sign * popcount(our_pawns & ~_sideways(our_files))
    counts[F_DOUBLED] += sign * popcount(doubled_set)
    connected = our_pawns & (our_pawn_att | _sideways(our_pawns))
    for r in range(2, 7):
        counts[F_CONNECTED + r] += sign * popcount(connected & RANK_REL[c, r])

    # Passed pawns.
    their_span = _behind(their_pawns, c)
    their_span |= _sideways(their_span)
    passers = our_pawns & ~their_span & ~doubled_set
    while passers:
        sq = lsb(passers)
        passers &= passers - U64(1)
        rank = (sq ^ flip) >> 3
        stop = sq + 8 - 16 * c
        counts[F_PASSED + rank] += sign
        counts[F_PASSED_THEIR_KING + rank] += sign * _distance(their_king, stop)
        counts[F_PASSED_OUR_KING + rank] += sign * _distance(our_king, stop)
        if (occ >> U64(stop)) & U64(1):
            counts[F_PASSED_BLOCKED + rank] -= sign

    # King shelter, and the fixed danger of our pressure on their king.
    counts[F_SHIELD_NEAR] += sign * popcount(our_pawns & SHIELD_1[c, our_king])
    counts[F_SHIELD_FAR] += sign * popcount(our_pawns & SHIELD_2[c, our_king])
    near_files = KING_FILES[our_king & 7]
    counts[F_KING_SEMI_OPEN_FILE] += sign * popcount(near_files & ~our_files)
    counts[F_KING_OPEN_FILE] += sign * popcount(near_files & ~our_files & ~their_files)
    danger = 0
    if attackers >= 2:
        danger = units * units // KING_ATTACK_DIV
        if bb[piece_code(c, QUEEN)] == 0:
            danger //= 2
        danger = min(danger, KING_ATTACK_CAP)

    # Rook files and the bishop pair.
    rooks = bb[piece_code(c, ROOK)] & ~our_files
    counts[F_ROOK_OPEN] += sign * popcount(rooks & ~their_files)
    counts[F_ROOK_SEMI_OPEN] += sign * popcount(rooks & their_files)
    if popcount(bb[piece_code(c, BISHOP)]) >= 2:
        counts[F_BISHOP_PAIR] += sign
    return danger, attacked


@njit(cache=True, nogil=True)
def _trace_threats(pos: Position, c: int, sign: int, ours: np.uint64, theirs: np.uint64,
                   counts: np.ndarray) -> None:  # fmt: skip
    """Add the threats of colour ``c`` (attacking ``ours``) on the other (``theirs``)."""
    bb = pos.pieces
    them = 1 - c
    occ, _, _ = _boards(pos)
    pawn_att = _pawn_attacks(bb[piece_code(c, PAWN)], c)
    minor_att = U64(0)
    rook_att = U64(0)
    for kind in (KNIGHT, BISHOP, ROOK):
        pieces = bb[piece_code(c, kind)]
        while pieces:
            sq = lsb(pieces)
            pieces &= pieces - U64(1)
            if kind == KNIGHT:
                minor_att |= KNIGHT_ATTACKS[sq]
            elif kind == BISHOP:
                minor_att |= bishop_attacks(sq, occ, pos.sliders)
            else:
                rook_att |= rook_attacks(sq, occ, pos.sliders)
    queens = bb[piece_code(them, QUEEN)]
    majors = bb[piece_code(them, ROOK)] | queens
    pieces = bb[piece_code(them, KNIGHT)] | bb[piece_code(them, BISHOP)] | majors
    counts[F_THREAT_BY_PAWN] += sign * popcount(pawn_att & pieces)
    counts[F_THREAT_BY_MINOR] += sign * popcount(minor_att & majors)
    counts[F_THREAT_BY_ROOK] += sign * popcount(rook_att & queens)
    counts[F_HANGING] += sign * popcount(pieces & ours & ~theirs)


@njit(cache=True, nogil=True)
def _trace_checks(pos: Position, c: int, sign: int, by_kind: np.ndarray, defended: np.uint64,
                  counts: np.ndarray) -> None:  # fmt: skip
    """Add colour ``c``'s safe checking squares by kind (``by_kind``: its attack sets)."""
    bb = pos.pieces
    occ, _, _ = _boards(pos)
    king = lsb(bb[piece_code(1 - c, KING)])
    safe = ~bb[piece_code(c, ALL_KINDS)] & ~defended
    diagonal = bishop_attacks(king, occ, pos.sliders) & safe
    straight = rook_attacks(king, occ, pos.sliders) & safe
    counts[F_SAFE_CHECK_KNIGHT] += sign * popcount(KNIGHT_ATTACKS[king] & safe & by_kind[KNIGHT])
    counts[F_SAFE_CHECK_BISHOP] += sign * popcount(diagonal & by_kind[BISHOP])
    counts[F_SAFE_CHECK_ROOK] += sign * popcount(straight & by_kind[ROOK])
    counts[F_SAFE_CHECK_QUEEN] += sign * popcount((diagonal | straight) & by_kind[QUEEN])


@njit(cache=True, nogil=True)
def trace(pos: Position, counts: np.ndarray) -> tuple[int, int, int]:
    """Fill ``counts`` (int64, N_FEATURES, white minus black); return (phase, scale, danger)."""
    counts[:] = 0
    w_kinds = np.zeros(KING + 1, dtype=np.uint64)
    b_kinds = np.zeros(KING + 1, dtype=np.uint64)
    w_danger, w_attacked = _trace_side(pos, WHITE, 1, counts, w_kinds)
    b_danger, b_attacked = _trace_side(pos, BLACK, -1, counts, b_kinds)
    _trace_threats(pos, WHITE, 1, w_attacked, b_attacked, counts)
    _trace_threats(pos, BLACK, -1, b_attacked, w_attacked, counts)
    _trace_checks(pos, WHITE, 1, w_kinds, b_attacked, counts)
    _trace_checks(pos, BLACK, -1, b_kinds, w_attacked, counts)
    raw = _raw_cold(pos)
    return raw[0], raw[1], w_danger - b_danger


_BACK_RANKS = U64(0xFF000000000000FF)
_PIECE_OF_BYTE = np.zeros(256, dtype=np.int64)
# The Python function under the dispatcher: calling the compiled one at import
# would compile it (a Python-side signature) in every process that imports this.
for _letter, _kind in zip("pnbrqk", range(PAWN, KING + 1), strict=True):
    _PIECE_OF_BYTE[ord(_letter.upper())] = piece_code.py_func(WHITE, _kind)
    _PIECE_OF_BYTE[ord(_letter)] = piece_code.py_func(BLACK, _kind)


@njit(cache=True, nogil=True)
def _place(pos: Position, text: np.ndarray, start: int, end: int, side: int) -> bool:
    """Set ``pos`` to the FEN placement ``text[start:end]`` and ``side``; False if malformed."""
    bb = pos.pieces
    bb[:] = 0
    pos.squares[:] = 0
    rank, file = 7, 0
    for i in range(start, end):
        ch = text[i]
        if ch == 47:  # '/'
            if file != 8 or rank == 0:
                return False
            rank -= 1
            file = 0
        elif 49 <= ch <= 56:  # '1'..'8'
            file += ch - 48
            if file > 8:
                return False
        else:
            p = _PIECE_OF_BYTE[ch]
            if p == 0 or file >= 8:
                return False
            sq = rank * 8 + file
            bb[p] |= U64(1) << U64(sq)
            bb[p & 8] |= U64(1) << U64(sq)
            pos.squares[sq] = p
            file += 1
    if rank != 0 or file != 8:
        return False
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
