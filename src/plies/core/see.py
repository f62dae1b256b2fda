"""Static exchange evaluation: does a capture sequence on one square gain material?"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ONE, U64, ZERO
from plies.core.encoding import (
    BISHOP,
    BLACK,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    KING,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    color_of,
    kind_of,
    move_flag,
    move_from,
    move_to,
    piece_code,
)
from plies.core.position import Position, attackers_to, occupancy, occupied
from plies.core.tables import bishop_attacks, rook_attacks

SEE_VALUES = np.array([0, 100, 320, 330, 500, 900, 20000], dtype=np.int64)
"""Exchange value by piece kind (index 0, no piece, is worth nothing)."""


@njit(cache=True, inline="always")
def piece_value(piece: int) -> int:
    """Exchange value of a piece (or kind); 0 for NO_PIECE."""
    return SEE_VALUES[kind_of(piece)]


@njit(cache=True, inline="always")
def _least_valuable(pos: Position, mine: np.uint64, color: int) -> int:
    """Kind of the least valuable piece of ``color`` among ``mine``."""
    for kind in range(PAWN, KING + 1):
        if mine & pos.pieces[piece_code(color, kind)]:
            return kind
    return KING


@njit(cache=True, nogil=True, _nrt=False)
def see_ge(pos: Position, m: int, threshold: int) -> bool:
    """Whether move ``m`` wins at least ``threshold`` once all captures on its square resolve.

    Both sides recapture with their least valuable attacker and may stop when
    continuing would lose; sliders behind a capturer join in (x-rays). Pins are
    ignored, as usual for SEE.
    """
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)
    if flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        return threshold <= 0
    mb = pos.squares
    bb = pos.pieces
    gain = SEE_VALUES[PAWN] if flag == FLAG_EP else piece_value(mb[to])
    swap = gain - threshold
    if swap < 0:
        return False
    mover = mb[frm]
    swap = piece_value(mover) - swap
    if swap <= 0:
        return True
    stm = color_of(mover)
    occ = occupied(pos) ^ (ONE << U64(frm)) ^ (ONE << U64(to))
    if flag == FLAG_EP:
        occ ^= ONE << U64(to - 8 if stm == WHITE else to + 8)
    attackers = attackers_to(pos, to, occ, WHITE) | attackers_to(pos, to, occ, BLACK)
    queens = bb[piece_code(WHITE, QUEEN)] | bb[piece_code(BLACK, QUEEN)]
    diag = bb[piece_code(WHITE, BISHOP)] | bb[piece_code(BLACK, BISHOP)] | queens
    straight = bb[piece_code(WHITE, ROOK)] | bb[piece_code(BLACK, ROOK)] | queens
    res = 1
    while True:
        stm = 1 - stm
        attackers &= occ
        mine = attackers & occupancy(pos, stm)
        if mine == ZERO:
            break
        res ^= 1
        kind = _least_valuable(pos, mine, stm)
        if kind == KING:
            # The king may only take last: it cannot capture into a defended square.
            if attackers & occupancy(pos, 1 - stm):
                res ^= 1
            break
        swap = SEE_VALUES[kind] - swap
        if swap < res:
            break
        pick = mine & pos.pieces[piece_code(stm, kind)]
        occ ^= pick & (~pick + ONE)
        if kind == PAWN or kind == BISHOP or kind == QUEEN:
            attackers |= bishop_attacks(to, occ, pos.sliders) & diag
        if kind == ROOK or kind == QUEEN:
            attackers |= rook_attacks(to, occ, pos.sliders) & straight
    return res == 1
