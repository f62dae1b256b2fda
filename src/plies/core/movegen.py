"""Legal move generation, done directly with check and pin masks.

No move is made and tested: the generator computes the checkers of our king,
a mask of squares that resolve a single check, the pinned pieces with the
line each may move along, and the squares the enemy attacks with our king
removed from the board (so the king cannot step back along a checking ray).
En passant, whose two vanishing pawns can expose the king along a rank, is
the one case verified by looking at the board after the capture.

``gen_moves`` writes moves into ``out`` and returns their count. With
``noisy_only`` it produces only captures and promotions (quiescence search);
when in check it still produces every evasion, as quiescence needs them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ALL, ONE, U64, ZERO, lsb
from plies.core.position import attackers_to, king_square
from plies.core.tables import (
    BETWEEN,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    bishop_attacks,
    rook_attacks,
)
from plies.core.types import (
    BISHOP,
    FLAG_CAPTURE,
    FLAG_DOUBLE,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_PROMO,
    FLAG_PROMO_CAPTURE,
    FLAG_QUEEN_CASTLE,
    FLAG_QUIET,
    KING,
    KNIGHT,
    NO_SQUARE,
    OCC_WHITE,
    PAWN,
    QUEEN,
    ROOK,
    ST_CASTLE,
    ST_EP,
    ST_SIDE,
)

RANK_1 = U64(0x00000000000000FF)
RANK_3 = U64(0x0000000000FF0000)
RANK_6 = U64(0x0000FF0000000000)
RANK_8 = U64(0xFF00000000000000)
FILE_A = U64(0x0101010101010101)
FILE_H = U64(0x8080808080808080)


@njit(cache=True, inline="always")
def _attacked_by(bb: np.ndarray, occ: np.uint64, them: int, att: np.ndarray) -> np.uint64:
    """Every square attacked by colour ``them`` with occupancy ``occ``."""
    base = them * 6
    result = ZERO
    pawns = bb[base + PAWN]
    if them == 0:
        result |= ((pawns & ~FILE_A) << U64(7)) | ((pawns & ~FILE_H) << U64(9))
    else:
        result |= ((pawns & ~FILE_A) >> U64(9)) | ((pawns & ~FILE_H) >> U64(7))
    b = bb[base + KNIGHT]
    while b:
        result |= KNIGHT_ATTACKS[lsb(b)]
        b &= b - ONE
    queens = bb[base + QUEEN]
    b = bb[base + BISHOP] | queens
    while b:
        result |= bishop_attacks(lsb(b), occ, att)
        b &= b - ONE
    b = bb[base + ROOK] | queens
    while b:
        result |= rook_attacks(lsb(b), occ, att)
        b &= b - ONE
    result |= KING_ATTACKS[lsb(bb[base + KING])]
    return result


@njit(cache=True, inline="always")
def _add_promotions(out: np.ndarray, n: int, frm: int, to: int, capture: bool) -> int:
    """Append the four promotions of one pawn move, queen first."""
    base = (FLAG_PROMO_CAPTURE if capture else FLAG_PROMO) << 12
    for kind in range(3, -1, -1):
        out[n] = frm | (to << 6) | base | (kind << 12)
        n += 1
    return n


@njit(cache=True, inline="always")
def _add_targets(out: np.ndarray, n: int, frm: int, targets: np.uint64, enemy: np.uint64) -> int:
    """Append moves from ``frm`` to each target square, flagging captures."""
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        flag = FLAG_CAPTURE if (enemy >> U64(to)) & ONE else FLAG_QUIET
        out[n] = frm | (to << 6) | (flag << 12)
        n += 1
    return n


@njit(cache=True)
def gen_moves(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    att: np.ndarray,
    out: np.ndarray,
    noisy_only: bool,
) -> int:
    """Write the legal moves (or only captures and promotions) into ``out``; return count."""
    us = st[ST_SIDE]
    them = 1 - us
    own = bb[OCC_WHITE + us]
    enemy = bb[OCC_WHITE + them]
    occ = own | enemy
    ksq = king_square(bb, us)
    kbit = ONE << U64(ksq)
    n = 0

    checkers = attackers_to(ksq, occ, them, bb, att)
    danger = _attacked_by(bb, occ ^ kbit, them, att)

    # Step 1: king moves; in double check nothing else is legal.
    targets = KING_ATTACKS[ksq] & ~own & ~danger
    check = checkers != ZERO
    if noisy_only and not check:
        targets &= enemy
    n = _add_targets(out, n, ksq, targets, enemy)
    if check and (checkers & (checkers - ONE)) != ZERO:
        return n

    # Step 2: the squares that answer a single check (capture the checker or block).
    if check:
        csq = lsb(checkers)
        evasion = checkers | BETWEEN[ksq, csq]
    else:
        evasion = ALL
    noisy = noisy_only and not check
    move_mask = evasion & ~own
    if noisy:
        move_mask &= enemy

    # Step 3: pinned pieces, each confined to the line through its king and pinner.
    base = them * 6
    queens = bb[base + QUEEN]
    snipers = (rook_attacks(ksq, enemy, att) & (bb[base + ROOK] | queens)) | (
        bishop_attacks(ksq, enemy, att) & (bb[base + BISHOP] | queens)
    )
    pinned = ZERO
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - ONE
        blockers = BETWEEN[ksq, s] & occ
        if blockers != ZERO and (blockers & (blockers - ONE)) == ZERO and (blockers & own):
            pinned |= blockers

    # Step 4: knights (a pinned knight can never move).
    b = bb[us * 6 + KNIGHT] & ~pinned
    while b:
        frm = lsb(b)
        b &= b - ONE
        n = _add_targets(out, n, frm, KNIGHT_ATTACKS[frm] & move_mask, enemy)

    # Step 5: sliders.
    own_queens = bb[us * 6 + QUEEN]
    b = bb[us * 6 + BISHOP] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = bishop_attacks(frm, occ, att) & move_mask
        if (pinned >> U64(frm)) & ONE:
            t &= LINE[ksq, frm]
        n = _add_targets(out, n, frm, t, enemy)
    b = bb[us * 6 + ROOK] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = rook_attacks(frm, occ, att) & move_mask
        if (pinned >> U64(frm)) & ONE:
            t &= LINE[ksq, frm]
        n = _add_targets(out, n, frm, t, enemy)

    # Step 6: pawns.
    pawns = bb[us * 6 + PAWN]
    promo_rank = RANK_8 if us == 0 else RANK_1
    push_dir = 8 if us == 0 else -8
    b = pawns
    while b:
        frm = lsb(b)
        b &= b - ONE
        line_ok = ALL
        if (pinned >> U64(frm)) & ONE:
            line_ok = LINE[ksq, frm]
        caps = PAWN_ATTACKS[us, frm] & enemy & evasion & line_ok
        while caps:
            to = lsb(caps)
            caps &= caps - ONE
            if (promo_rank >> U64(to)) & ONE:
                n = _add_promotions(out, n, frm, to, True)
            else:
                out[n] = frm | (to << 6) | (FLAG_CAPTURE << 12)
                n += 1
        one = frm + push_dir
        if (occ >> U64(one)) & ONE:
            continue
        if (line_ok >> U64(one)) & ONE == 0:
            continue
        if (promo_rank >> U64(one)) & ONE:
            if (evasion >> U64(one)) & ONE:
                n = _add_promotions(out, n, frm, one, False)
            continue
        if noisy:
            continue
        if (evasion >> U64(one)) & ONE:
            out[n] = frm | (one << 6)
            n += 1
        start_rank = frm >> 3 == 1 if us == 0 else frm >> 3 == 6
        if start_rank:
            two = one + push_dir
            if (occ >> U64(two)) & ONE == 0 and (evasion >> U64(two)) & ONE:
                out[n] = frm | (two << 6) | (FLAG_DOUBLE << 12)
                n += 1

    # Step 7: en passant, verified on the board after the capture.
    ep = st[ST_EP]
    if ep != NO_SQUARE:
        cap_sq = ep - push_dir
        candidates = PAWN_ATTACKS[them, ep] & pawns
        while candidates:
            frm = lsb(candidates)
            candidates &= candidates - ONE
            after = (occ ^ (ONE << U64(frm)) ^ (ONE << U64(cap_sq))) | (ONE << U64(ep))
            rq = bb[base + ROOK] | queens
            bq = bb[base + BISHOP] | queens
            if rook_attacks(ksq, after, att) & rq:
                continue
            if bishop_attacks(ksq, after, att) & bq:
                continue
            # A non-slider checker must be the captured pawn itself.
            sliders = bb[base + ROOK] | bb[base + BISHOP] | queens
            others = checkers & ~(ONE << U64(cap_sq)) & ~sliders
            if others:
                continue
            out[n] = frm | (ep << 6) | (FLAG_EP << 12)
            n += 1

    # Step 8: castling, never out of, through or into check.
    if not check and not noisy_only:
        rights = st[ST_CASTLE]
        if us == 0:
            if rights & 1 and (occ & U64(0x60)) == ZERO and (danger & U64(0x60)) == ZERO:
                out[n] = 4 | (6 << 6) | (FLAG_KING_CASTLE << 12)
                n += 1
            if rights & 2 and (occ & U64(0x0E)) == ZERO and (danger & U64(0x0C)) == ZERO:
                out[n] = 4 | (2 << 6) | (FLAG_QUEEN_CASTLE << 12)
                n += 1
        else:
            if rights & 4 and (occ & U64(0x6000000000000000)) == ZERO and (
                danger & U64(0x6000000000000000)
            ) == ZERO:
                out[n] = 60 | (62 << 6) | (FLAG_KING_CASTLE << 12)
                n += 1
            if rights & 8 and (occ & U64(0x0E00000000000000)) == ZERO and (
                danger & U64(0x0C00000000000000)
            ) == ZERO:
                out[n] = 60 | (58 << 6) | (FLAG_QUEEN_CASTLE << 12)
                n += 1
    return n
