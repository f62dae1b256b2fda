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

No write lands past the end of ``out``: ``_add_targets`` checks once per
piece that its moves fit (and otherwise only counts them), single moves go
through ``_push``, which clamps the slot to the last one; counting goes on, and
``gen_moves`` raises ``IndexError`` when the count exceeds the buffer. (A
bounds test before every single write made generation three times slower;
these cost nothing measurable.) Buffers of ``MAX_MOVES`` cannot overflow for any
position the board's validation accepts (see ``types.MAX_MOVES``): the guard
is there so that a future change fails loudly instead of corrupting memory.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ALL, ONE, U64, ZERO, lsb, popcount
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
RANK_8 = U64(0xFF00000000000000)


@njit(cache=True, inline="always")
def _safe_squares(
    bb: np.ndarray, squares: np.uint64, occ: np.uint64, them: int, att: np.ndarray
) -> np.uint64:
    """The subset of ``squares`` that colour ``them`` does not attack with occupancy ``occ``."""
    safe = ZERO
    while squares:
        sq = lsb(squares)
        squares &= squares - ONE
        if attackers_to(sq, occ, them, bb, att) == ZERO:
            safe |= ONE << U64(sq)
    return safe


@njit(cache=True, inline="always")
def _push(out: np.ndarray, n: int, m: int) -> int:
    """Store move ``m`` in slot ``n`` (the last slot if full: the caller raises); return n + 1."""
    out[min(n, out.shape[0] - 1)] = m
    return n + 1


@njit(cache=True, inline="always")
def _add_promotions(out: np.ndarray, n: int, frm: int, to: int, capture: bool) -> int:
    """Append the four promotions of one pawn move, queen first."""
    base = (FLAG_PROMO_CAPTURE if capture else FLAG_PROMO) << 12
    for kind in range(3, -1, -1):
        n = _push(out, n, frm | (to << 6) | base | (kind << 12))
    return n


@njit(cache=True, inline="always")
def _add_targets(out: np.ndarray, n: int, frm: int, targets: np.uint64, enemy: np.uint64) -> int:
    """Append moves from ``frm`` to each target square, flagging captures.

    If they do not all fit, nothing is written and only the count grows.
    """
    if n + popcount(targets) > out.shape[0]:
        return n + popcount(targets)
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        flag = FLAG_CAPTURE if (enemy >> U64(to)) & ONE else FLAG_QUIET
        out[n] = frm | (to << 6) | (flag << 12)
        n += 1
    return n


@njit(cache=True, inline="always")
def _count_or_add(
    out: np.ndarray, n: int, frm: int, targets: np.uint64, enemy: np.uint64, count_only: bool
) -> int:
    """Append the moves to ``targets`` or, when only counting, add their number."""
    if count_only:
        return n + popcount(targets)
    return _add_targets(out, n, frm, targets, enemy)


@njit(cache=True)
def _generate(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    att: np.ndarray,
    out: np.ndarray,
    noisy_only: bool,
    count_only: bool,
) -> int:
    """Write (or just count) the legal moves, or only the captures and promotions."""
    us = st[ST_SIDE]
    them = 1 - us
    own = bb[OCC_WHITE + us]
    enemy = bb[OCC_WHITE + them]
    occ = own | enemy
    ksq = king_square(bb, us)
    kbit = ONE << U64(ksq)
    n = 0

    checkers = attackers_to(ksq, occ, them, bb, att)
    check = checkers != ZERO

    # Step 1: king moves, tested with the king lifted off the board so that it
    # cannot retreat along the ray of a slider that checks it.
    targets = KING_ATTACKS[ksq] & ~own
    if noisy_only and not check:
        targets &= enemy
    targets = _safe_squares(bb, targets, occ ^ kbit, them, att)
    n = _count_or_add(out, n, ksq, targets, enemy, count_only)
    if check and (checkers & (checkers - ONE)) != ZERO:
        return n

    # Step 2: the squares that answer a single check (capture the checker or block).
    evasion = checkers | BETWEEN[ksq, lsb(checkers)] if check else ALL
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
        n = _count_or_add(out, n, frm, KNIGHT_ATTACKS[frm] & move_mask, enemy, count_only)

    # Step 5: sliders.
    own_queens = bb[us * 6 + QUEEN]
    b = bb[us * 6 + BISHOP] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = bishop_attacks(frm, occ, att) & move_mask
        if (pinned >> U64(frm)) & ONE:
            t &= LINE[ksq, frm]
        n = _count_or_add(out, n, frm, t, enemy, count_only)
    b = bb[us * 6 + ROOK] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = rook_attacks(frm, occ, att) & move_mask
        if (pinned >> U64(frm)) & ONE:
            t &= LINE[ksq, frm]
        n = _count_or_add(out, n, frm, t, enemy, count_only)

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
                if count_only:
                    n += 4
                else:
                    n = _add_promotions(out, n, frm, to, True)
            else:
                if count_only:
                    n += 1
                else:
                    n = _push(out, n, frm | (to << 6) | (FLAG_CAPTURE << 12))
        one = frm + push_dir
        if (occ >> U64(one)) & ONE:
            continue
        if (line_ok >> U64(one)) & ONE == 0:
            continue
        if (promo_rank >> U64(one)) & ONE:
            if (evasion >> U64(one)) & ONE:
                if count_only:
                    n += 4
                else:
                    n = _add_promotions(out, n, frm, one, False)
            continue
        if noisy:
            continue
        if (evasion >> U64(one)) & ONE:
            n = n + 1 if count_only else _push(out, n, frm | (one << 6))
        start_rank = frm >> 3 == 1 if us == 0 else frm >> 3 == 6
        if start_rank:
            two = one + push_dir
            if (occ >> U64(two)) & ONE == 0 and (evasion >> U64(two)) & ONE:
                if count_only:
                    n += 1
                else:
                    n = _push(out, n, frm | (two << 6) | (FLAG_DOUBLE << 12))

    # Step 7: en passant, verified on the board after the capture.
    ep = st[ST_EP]
    if ep != NO_SQUARE:
        cap_sq = ep - push_dir
        candidates = PAWN_ATTACKS[them, ep] & pawns
        rq = bb[base + ROOK] | queens
        bq = bb[base + BISHOP] | queens
        while candidates:
            frm = lsb(candidates)
            candidates &= candidates - ONE
            after = (occ ^ (ONE << U64(frm)) ^ (ONE << U64(cap_sq))) | (ONE << U64(ep))
            if rook_attacks(ksq, after, att) & rq:
                continue
            if bishop_attacks(ksq, after, att) & bq:
                continue
            # A non-slider checker must be the captured pawn itself.
            if checkers & ~(ONE << U64(cap_sq)) & ~(rq | bq):
                continue
            n = n + 1 if count_only else _push(out, n, frm | (ep << 6) | (FLAG_EP << 12))

    # Step 8: castling, never out of, through or into check.
    if not check and not noisy_only:
        rights = st[ST_CASTLE] >> (2 * us)
        rank = 56 * us
        if rights & 1 and (occ & (U64(0x60) << U64(rank))) == ZERO:
            path = U64(0x60) << U64(rank)
            if _safe_squares(bb, path, occ, them, att) == path:
                m = (rank + 4) | ((rank + 6) << 6) | (FLAG_KING_CASTLE << 12)
                n = n + 1 if count_only else _push(out, n, m)
        if rights & 2 and (occ & (U64(0x0E) << U64(rank))) == ZERO:
            path = U64(0x0C) << U64(rank)
            if _safe_squares(bb, path, occ, them, att) == path:
                m = (rank + 4) | ((rank + 2) << 6) | (FLAG_QUEEN_CASTLE << 12)
                n = n + 1 if count_only else _push(out, n, m)
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
    """Write the legal moves (or only captures and promotions) into ``out``; return count.

    Raises IndexError, having written nothing out of bounds, when the moves do
    not fit in ``out``.
    """
    if out.shape[0] == 0:
        raise IndexError("move buffer overflow: the buffer has no room")
    n = _generate(bb, mb, st, att, out, noisy_only, False)
    if n > out.shape[0]:
        raise IndexError("move buffer overflow: more legal moves than the buffer holds")
    return n


@njit(cache=True)
def count_moves(bb: np.ndarray, mb: np.ndarray, st: np.ndarray, att: np.ndarray) -> int:
    """Number of legal moves, without writing them (perft's bulk counting)."""
    return _generate(bb, mb, st, att, np.empty(0, dtype=np.int64), False, True)
