"""Static exchange evaluation: does a capture sequence on one square gain material?"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ONE, U64, ZERO
from plies.core.position import attackers_to
from plies.core.tables import bishop_attacks, rook_attacks
from plies.core.types import (
    BISHOP,
    EMPTY,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    KING,
    OCC_WHITE,
    QUEEN,
    ROOK,
)

SEE_VALUES = np.array([100, 320, 330, 500, 900, 20000], dtype=np.int64)


@njit(cache=True, nogil=True)
def see_ge(bb: np.ndarray, mb: np.ndarray, att: np.ndarray, m: int, threshold: int) -> bool:
    """Whether move ``m`` wins at least ``threshold`` once all captures on its square resolve.

    Both sides recapture with their least valuable attacker and may stop when
    continuing would lose; sliders behind a capturer join in (x-rays). Pins are
    ignored, as usual for SEE.
    """
    frm = m & 63
    to = (m >> 6) & 63
    flag = (m >> 12) & 15
    if flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        return threshold <= 0
    victim = mb[to]
    gain = 0
    if flag == FLAG_EP:
        gain = SEE_VALUES[0]
    elif victim != EMPTY:
        gain = SEE_VALUES[victim % 6]
    swap = gain - threshold
    if swap < 0:
        return False
    mover = mb[frm]
    swap = SEE_VALUES[mover % 6] - swap
    if swap <= 0:
        return True
    occ = (bb[OCC_WHITE] | bb[OCC_WHITE + 1]) ^ (ONE << U64(frm)) ^ (ONE << U64(to))
    if flag == FLAG_EP:
        occ ^= ONE << U64(to - 8 if mover // 6 == 0 else to + 8)
    stm = mover // 6
    attackers = attackers_to(to, occ, 0, bb, att) | attackers_to(to, occ, 1, bb, att)
    diag = bb[BISHOP] | bb[6 + BISHOP] | bb[QUEEN] | bb[6 + QUEEN]
    straight = bb[ROOK] | bb[6 + ROOK] | bb[QUEEN] | bb[6 + QUEEN]
    res = 1
    while True:
        stm = 1 - stm
        attackers &= occ
        mine = attackers & bb[OCC_WHITE + stm]
        if mine == ZERO:
            break
        res ^= 1
        kind = -1
        for k in range(6):
            if mine & bb[stm * 6 + k]:
                kind = k
                break
        if kind == KING:
            # The king may only take last: it cannot capture into a defended square.
            if attackers & bb[OCC_WHITE + 1 - stm]:
                res ^= 1
            break
        swap = SEE_VALUES[kind] - swap
        if swap < res:
            break
        pick = mine & bb[stm * 6 + kind]
        occ ^= pick & (~pick + ONE)
        if kind == 0 or kind == BISHOP or kind == QUEEN:
            attackers |= bishop_attacks(to, occ, att) & diag
        if kind == ROOK or kind == QUEEN:
            attackers |= rook_attacks(to, occ, att) & straight
    return res == 1
