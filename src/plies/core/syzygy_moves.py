"""The few move rules the Syzygy prober needs, on a 16-slot piece bitboard array.

The prober resolves captures (and en passant) before it trusts a table, so it
needs legal captures, en-passant captures and "is there any other legal move",
but only in positions of at most eight men. This module keeps that small and
self-contained: attack sets from fixed tables and a between-squares table, legal
moves checked by playing them on a copy and asking whether the king is attacked.

Bitboards follow ``core/encoding``: ``bbs[color * 8 + kind]`` for kinds
``PAWN = 1`` ... ``KING = 6``, and ``bbs[color * 8]`` holds that colour's
occupancy. A move here is ``from | to << 6 | promotion kind << 12`` (kind 0: none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import lsb

_U64 = np.uint64
_ZERO = _U64(0)
_ONE = _U64(1)

PROMOTION_SHIFT = 12
"""A move's promotion kind sits above its two 6-bit squares."""


def _step_table(steps: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Squares one (file, rank) step away from each square, for each step in ``steps``."""
    table = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                table[sq] |= _U64(1) << _U64((r + dr) * 8 + f + df)
    return table


def _ray_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty-board bishop and rook lines from each square, and the squares strictly between two."""
    diag = np.zeros(64, dtype=np.uint64)
    ortho = np.zeros(64, dtype=np.uint64)
    between = np.zeros(64 * 64, dtype=np.uint64)
    dirs = ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
    for sq in range(64):
        for d, (df, dr) in enumerate(dirs):
            f, r = (sq & 7) + df, (sq >> 3) + dr
            passed = _U64(0)
            while 0 <= f < 8 and 0 <= r < 8:
                to = r * 8 + f
                if d < 4:
                    diag[sq] |= _U64(1) << _U64(to)
                else:
                    ortho[sq] |= _U64(1) << _U64(to)
                between[sq * 64 + to] = passed
                passed |= _U64(1) << _U64(to)
                f, r = f + df, r + dr
    return diag, ortho, between


KNIGHT_ATTACKS = _step_table(
    ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
)
KING_ATTACKS = _step_table(((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
PAWN_ATTACKS = np.concatenate((_step_table(((-1, 1), (1, 1))), _step_table(((-1, -1), (1, -1)))))
"""``PAWN_ATTACKS[color * 64 + sq]``: squares a pawn of ``color`` on ``sq`` attacks."""
DIAGONALS, LINES, BETWEEN = _ray_tables()
"""Bishop lines, rook lines, and ``BETWEEN[a * 64 + b]`` (squares strictly between a and b)."""

MAX_CAPTURES = 64
"""Room for one position's captures (and en-passant captures).

With at most eight men, a side with k men (king included) faces at most 7 - k
men it can take: each of its men has at most 7 - k captures, or 2 x 4 for a
pawn taking with promotion, so at most 7 x 8 = 56 entries.
"""


@njit(cache=True, nogil=True)
def attacked(bbs: np.ndarray, sq: int, by: int, occ: np.uint64) -> bool:
    """Whether colour ``by`` attacks square ``sq`` when the board's occupancy is ``occ``."""
    base = by * 8
    if KNIGHT_ATTACKS[sq] & bbs[base + 2]:
        return True
    if KING_ATTACKS[sq] & bbs[base + 6]:
        return True
    if PAWN_ATTACKS[(by ^ 1) * 64 + sq] & bbs[base + 1]:
        return True
    sliders = DIAGONALS[sq] & (bbs[base + 3] | bbs[base + 5])
    while sliders:
        s = lsb(sliders)
        sliders &= sliders - _ONE
        if not (BETWEEN[sq * 64 + s] & occ):
            return True
    sliders = LINES[sq] & (bbs[base + 4] | bbs[base + 5])
    while sliders:
        s = lsb(sliders)
        sliders &= sliders - _ONE
        if not (BETWEEN[sq * 64 + s] & occ):
            return True
    return False


@njit(cache=True, nogil=True)
def targets(
    bbs: np.ndarray, kind: int, side: int, frm: int, occ: np.uint64, among: np.uint64
) -> np.uint64:
    """Squares of ``among`` a ``kind`` of ``side`` on ``frm`` attacks (pawns: capture squares).

    Sliders test only the squares of ``among`` on their lines, so a narrow ``among``
    (the enemy men, for captures) is cheap.
    """
    if kind == 1:
        return PAWN_ATTACKS[side * 64 + frm] & among
    if kind == 2:
        return KNIGHT_ATTACKS[frm] & among
    if kind == 6:
        return KING_ATTACKS[frm] & among
    lines = _ZERO
    if kind == 3 or kind == 5:
        lines |= DIAGONALS[frm]
    if kind == 4 or kind == 5:
        lines |= LINES[frm]
    result = _ZERO
    rest = lines & among
    while rest:
        to = lsb(rest)
        rest &= rest - _ONE
        if not (BETWEEN[frm * 64 + to] & occ):
            result |= _ONE << _U64(to)
    return result


@njit(cache=True, nogil=True)
def play(src: np.ndarray, dst: np.ndarray, side: int, move: int) -> bool:
    """Write ``src`` after ``side`` plays ``move`` to ``dst``; False if its king is then attacked.

    A pawn moving diagonally onto an empty square captures en passant.
    """
    frm = move & 63
    to = (move >> 6) & 63
    promo = move >> PROMOTION_SHIFT
    for i in range(16):
        dst[i] = src[i]
    us = side * 8
    them = (side ^ 1) * 8
    from_bb = _ONE << _U64(frm)
    to_bb = _ONE << _U64(to)
    kind = 1
    for k in range(1, 7):
        if src[us + k] & from_bb:
            kind = k
    dst[us + kind] ^= from_bb
    dst[us] ^= from_bb | to_bb
    if src[them] & to_bb:
        for k in range(1, 7):
            dst[them + k] &= ~to_bb
        dst[them] ^= to_bb
    elif kind == 1 and ((frm ^ to) & 7) != 0:
        gone = _ONE << _U64(to - 8 if side == 0 else to + 8)
        dst[them + 1] ^= gone
        dst[them] ^= gone
    dst[us + (promo if promo else kind)] |= to_bb
    king = dst[us + 6]
    if not king:
        return False
    return not attacked(dst, lsb(king), side ^ 1, dst[0] | dst[8])


@njit(cache=True, nogil=True)
def gen_captures(bbs: np.ndarray, side: int, out: np.ndarray) -> int:
    """Write ``side``'s pseudo-legal captures (no en passant, no king) to ``out``; their count."""
    us = side * 8
    them = (side ^ 1) * 8
    occ = bbs[0] | bbs[8]
    victims = bbs[them] & ~bbs[them + 6]
    last_rank = _U64(0xFF00000000000000) if side == 0 else _U64(0xFF)
    n = 0
    for kind in range(1, 7):
        movers = bbs[us + kind]
        while movers:
            frm = lsb(movers)
            movers &= movers - _ONE
            hits = targets(bbs, kind, side, frm, occ, victims)
            while hits:
                to = lsb(hits)
                hits &= hits - _ONE
                move = frm | (to << 6)
                if kind == 1 and (_ONE << _U64(to)) & last_rank:
                    for promo in range(5, 1, -1):
                        out[n] = move | (promo << PROMOTION_SHIFT)
                        n += 1
                else:
                    out[n] = move
                    n += 1
    return n


@njit(cache=True, nogil=True)
def gen_ep_captures(bbs: np.ndarray, side: int, ep: int, out: np.ndarray) -> int:
    """Write ``side``'s pseudo-legal en-passant captures onto ``ep`` to ``out``; their count."""
    if ep <= 0 or ep >= 64:
        return 0
    ep_bb = _ONE << _U64(ep)
    if (bbs[0] | bbs[8]) & ep_bb:
        return 0
    victim = ep - 8 if side == 0 else ep + 8
    if victim < 0 or victim >= 64 or not (bbs[(side ^ 1) * 8 + 1] & (_ONE << _U64(victim))):
        return 0
    capturers = PAWN_ATTACKS[(side ^ 1) * 64 + ep] & bbs[side * 8 + 1]
    n = 0
    while capturers:
        frm = lsb(capturers)
        capturers &= capturers - _ONE
        out[n] = frm | (ep << 6)
        n += 1
    return n


@njit(cache=True, nogil=True)
def has_legal_move_but_ep(bbs: np.ndarray, side: int, scratch: np.ndarray) -> bool:
    """Whether ``side`` has a legal move besides en passant (castling ignored: tables have none)."""
    us = side * 8
    occ = bbs[0] | bbs[8]
    own = bbs[us]
    theirs = bbs[(side ^ 1) * 8]
    for kind in range(1, 7):
        movers = bbs[us + kind]
        while movers:
            frm = lsb(movers)
            movers &= movers - _ONE
            if kind == 1:
                dests = targets(bbs, kind, side, frm, occ, theirs)
                one = frm + 8 if side == 0 else frm - 8
                if 0 <= one < 64 and not (occ & (_ONE << _U64(one))):
                    dests |= _ONE << _U64(one)
                    start = (frm >> 3) == (1 if side == 0 else 6)
                    two = frm + 16 if side == 0 else frm - 16
                    if start and not (occ & (_ONE << _U64(two))):
                        dests |= _ONE << _U64(two)
            else:
                dests = targets(bbs, kind, side, frm, occ, ~own)
            while dests:
                to = lsb(dests)
                dests &= dests - _ONE
                if play(bbs, scratch, side, frm | (to << 6)):
                    return True
    return False


MAX_MOVES = 256
"""Room for one position's moves with at most seven men: six queens' 27 and a king's 8 is 170."""


@njit(cache=True, nogil=True)
def gen_moves(bbs: np.ndarray, side: int, ep: int, out: np.ndarray) -> int:
    """Write every pseudo-legal move of ``side`` (promotions four times, en passant on ``ep``)."""
    us = side * 8
    occ = bbs[0] | bbs[8]
    own = bbs[us]
    theirs = bbs[(side ^ 1) * 8] & ~bbs[(side ^ 1) * 8 + 6]
    last_rank = _U64(0xFF00000000000000) if side == 0 else _U64(0xFF)
    n = 0
    for kind in range(1, 7):
        movers = bbs[us + kind]
        while movers:
            frm = lsb(movers)
            movers &= movers - _ONE
            if kind == 1:
                dests = targets(bbs, kind, side, frm, occ, theirs)
                one = frm + 8 if side == 0 else frm - 8
                if 0 <= one < 64 and not (occ & (_ONE << _U64(one))):
                    dests |= _ONE << _U64(one)
                    two = frm + 16 if side == 0 else frm - 16
                    if (frm >> 3) == (1 if side == 0 else 6) and not (occ & (_ONE << _U64(two))):
                        dests |= _ONE << _U64(two)
            else:
                dests = targets(bbs, kind, side, frm, occ, ~own & ~bbs[(side ^ 1) * 8 + 6])
            while dests:
                to = lsb(dests)
                dests &= dests - _ONE
                move = frm | (to << 6)
                if kind == 1 and (_ONE << _U64(to)) & last_rank:
                    for promo in range(5, 1, -1):
                        out[n] = move | (promo << PROMOTION_SHIFT)
                        n += 1
                else:
                    out[n] = move
                    n += 1
    return n + gen_ep_captures(bbs, side, ep, out[n:])
