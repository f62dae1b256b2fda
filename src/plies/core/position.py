"""Make and unmake moves on the position arrays, and compute attacks and keys.

See ``plies.core.types`` for the array layout. ``make_move`` assumes the move
is legal (the move generator only produces legal moves); it pushes an undo
record so ``unmake_move`` restores the position exactly, without allocating.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ONE, U64, ZERO, lsb
from plies.core.tables import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    ZOBRIST_CASTLE,
    ZOBRIST_EP,
    ZOBRIST_PIECE,
    ZOBRIST_SIDE,
    bishop_attacks,
    rook_attacks,
)
from plies.core.types import (
    BISHOP,
    EMPTY,
    FLAG_DOUBLE,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    H_CAPTURED,
    H_CASTLE,
    H_EP,
    H_HALFMOVE,
    H_MOVE,
    KING,
    KNIGHT,
    NO_SQUARE,
    OCC_WHITE,
    PAWN,
    QUEEN,
    ROOK,
    ST_CASTLE,
    ST_EP,
    ST_FULLMOVE,
    ST_HALFMOVE,
    ST_PLY,
    ST_SIDE,
    is_promotion,
    move_flag,
    move_from,
    move_to,
    promotion_kind,
)

# CASTLE_MASK[sq]: castling rights kept when a move touches sq (from or to).
_CASTLE_MASK = np.full(64, 15, dtype=np.int64)
_CASTLE_MASK[0] = 15 & ~2  # a1 rook: white queen-side
_CASTLE_MASK[7] = 15 & ~1  # h1 rook: white king-side
_CASTLE_MASK[4] = 15 & ~3  # e1 king: both white rights
_CASTLE_MASK[56] = 15 & ~8
_CASTLE_MASK[63] = 15 & ~4
_CASTLE_MASK[60] = 15 & ~12


@njit(cache=True, inline="always")
def attackers_to(
    sq: int, occ: np.uint64, by: int, bb: np.ndarray, att: np.ndarray
) -> np.uint64:
    """Pieces of colour ``by`` attacking ``sq`` with occupancy ``occ``."""
    base = by * 6
    result = KNIGHT_ATTACKS[sq] & bb[base + KNIGHT]
    result |= KING_ATTACKS[sq] & bb[base + KING]
    result |= PAWN_ATTACKS[1 - by, sq] & bb[base + PAWN]
    queens = bb[base + QUEEN]
    result |= rook_attacks(sq, occ, att) & (bb[base + ROOK] | queens)
    result |= bishop_attacks(sq, occ, att) & (bb[base + BISHOP] | queens)
    return result


@njit(cache=True, inline="always")
def king_square(bb: np.ndarray, color: int) -> int:
    """Square of the king of ``color``."""
    return lsb(bb[color * 6 + KING])


@njit(cache=True)
def in_check(bb: np.ndarray, st: np.ndarray, att: np.ndarray) -> bool:
    """Whether the side to move is in check."""
    us = st[ST_SIDE]
    occ = bb[OCC_WHITE] | bb[OCC_WHITE + 1]
    return attackers_to(king_square(bb, us), occ, 1 - us, bb, att) != ZERO


@njit(cache=True)
def _ray_hits(sq: int, occ: np.uint64, sliders: np.uint64, straight: bool) -> bool:
    """Whether a slider in ``sliders`` sees ``sq`` along rook (or bishop) lines.

    Walks the rays square by square: it serves the rare en-passant key test,
    where taking the big attack table as an argument would burden make_move.
    """
    f0 = sq & 7
    r0 = sq >> 3
    for d in range(4):
        if straight:
            df = (1, -1, 0, 0)[d]
            dr = (0, 0, 1, -1)[d]
        else:
            df = (1, 1, -1, -1)[d]
            dr = (1, -1, 1, -1)[d]
        f = f0 + df
        r = r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            b = ONE << U64(r * 8 + f)
            if occ & b:
                if sliders & b:
                    return True
                break
            f += df
            r += dr
    return False


@njit(cache=True)
def ep_key_relevant(bb: np.ndarray, ep: int, side: int) -> bool:
    """Whether ``side`` has a legal en-passant capture on ``ep``.

    Only then does the square belong in the Zobrist key: positions that differ
    by an en-passant square nobody can use are the same position (FIDE, and
    python-chess's repetition rules). A capture is legal when, with both pawns
    gone and the capturer on ``ep``, nothing attacks the capturing side's king.
    """
    if ep == NO_SQUARE:
        return False
    capturers = PAWN_ATTACKS[1 - side, ep] & bb[side * 6 + PAWN]
    if capturers == ZERO:
        return False
    them = 1 - side
    base = them * 6
    cap_sq = ep - 8 if side == 0 else ep + 8
    cap_bit = ONE << U64(cap_sq)
    ksq = lsb(bb[side * 6 + KING])
    occ = bb[OCC_WHITE] | bb[OCC_WHITE + 1]
    queens = bb[base + QUEEN]
    while capturers:
        frm = lsb(capturers)
        capturers &= capturers - ONE
        after = (occ ^ (ONE << U64(frm)) ^ cap_bit) | (ONE << U64(ep))
        if _ray_hits(ksq, after, bb[base + ROOK] | queens, True):
            continue
        if _ray_hits(ksq, after, bb[base + BISHOP] | queens, False):
            continue
        if KNIGHT_ATTACKS[ksq] & bb[base + KNIGHT]:
            continue
        if PAWN_ATTACKS[side, ksq] & bb[base + PAWN] & ~cap_bit:
            continue
        return True
    return False


@njit(cache=True)
def compute_key(bb: np.ndarray, mb: np.ndarray, st: np.ndarray) -> np.uint64:
    """Zobrist key of the position from scratch (used at setup and in checks)."""
    key = ZERO
    for sq in range(64):
        p = mb[sq]
        if p != EMPTY:
            key ^= ZOBRIST_PIECE[p, sq]
    key ^= ZOBRIST_CASTLE[st[ST_CASTLE]]
    if ep_key_relevant(bb, st[ST_EP], st[ST_SIDE]):
        key ^= ZOBRIST_EP[st[ST_EP] & 7]
    if st[ST_SIDE] == 1:
        key ^= ZOBRIST_SIDE
    return key


@njit(cache=True, inline="always")
def _put(bb: np.ndarray, mb: np.ndarray, p: int, sq: int) -> None:
    """Place piece ``p`` on empty square ``sq``."""
    b = ONE << U64(sq)
    bb[p] |= b
    bb[OCC_WHITE + p // 6] |= b
    mb[sq] = p


@njit(cache=True, inline="always")
def _remove(bb: np.ndarray, mb: np.ndarray, p: int, sq: int) -> None:
    """Remove piece ``p`` from square ``sq``."""
    b = ~(ONE << U64(sq))
    bb[p] &= b
    bb[OCC_WHITE + p // 6] &= b
    mb[sq] = EMPTY


@njit(cache=True, inline="always")
def _move_piece(bb: np.ndarray, mb: np.ndarray, p: int, frm: int, to: int) -> None:
    """Move piece ``p`` between two squares (``to`` must be empty)."""
    b = (ONE << U64(frm)) | (ONE << U64(to))
    bb[p] ^= b
    bb[OCC_WHITE + p // 6] ^= b
    mb[frm] = EMPTY
    mb[to] = p


@njit(cache=True)
def make_move(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray, m: int
) -> None:
    """Play legal move ``m``, pushing an undo record and the new key."""
    us = st[ST_SIDE]
    them = 1 - us
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)
    ply = st[ST_PLY]
    key = keys[ply]

    rec = hist[ply]
    rec[H_MOVE] = m
    rec[H_CASTLE] = st[ST_CASTLE]
    rec[H_EP] = st[ST_EP]
    rec[H_HALFMOVE] = st[ST_HALFMOVE]

    if st[ST_EP] != NO_SQUARE and ep_key_relevant(bb, st[ST_EP], us):
        key ^= ZOBRIST_EP[st[ST_EP] & 7]
    key ^= ZOBRIST_CASTLE[st[ST_CASTLE]]

    p = mb[frm]
    captured = EMPTY
    st[ST_HALFMOVE] += 1
    if flag == FLAG_EP:
        cap_sq = to - 8 if us == 0 else to + 8
        captured = mb[cap_sq]
        _remove(bb, mb, captured, cap_sq)
        key ^= ZOBRIST_PIECE[captured, cap_sq]
    elif mb[to] != EMPTY:
        captured = mb[to]
        _remove(bb, mb, captured, to)
        key ^= ZOBRIST_PIECE[captured, to]
    if captured != EMPTY or p % 6 == PAWN:
        st[ST_HALFMOVE] = 0
    rec[H_CAPTURED] = captured

    _move_piece(bb, mb, p, frm, to)
    key ^= ZOBRIST_PIECE[p, frm] ^ ZOBRIST_PIECE[p, to]
    if is_promotion(m):
        promoted = us * 6 + promotion_kind(m)
        _remove(bb, mb, p, to)
        _put(bb, mb, promoted, to)
        key ^= ZOBRIST_PIECE[p, to] ^ ZOBRIST_PIECE[promoted, to]
    elif flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        rook = us * 6 + ROOK
        if flag == FLAG_KING_CASTLE:
            r_from, r_to = to + 1, to - 1
        else:
            r_from, r_to = to - 2, to + 1
        _move_piece(bb, mb, rook, r_from, r_to)
        key ^= ZOBRIST_PIECE[rook, r_from] ^ ZOBRIST_PIECE[rook, r_to]

    st[ST_CASTLE] &= _CASTLE_MASK[frm] & _CASTLE_MASK[to]
    key ^= ZOBRIST_CASTLE[st[ST_CASTLE]]

    if flag == FLAG_DOUBLE:
        st[ST_EP] = (frm + to) >> 1
        if (PAWN_ATTACKS[us, st[ST_EP]] & bb[them * 6 + PAWN]) != ZERO and ep_key_relevant(
            bb, st[ST_EP], them
        ):
            key ^= ZOBRIST_EP[st[ST_EP] & 7]
    else:
        st[ST_EP] = NO_SQUARE

    if us == 1:
        st[ST_FULLMOVE] += 1
    st[ST_SIDE] = them
    key ^= ZOBRIST_SIDE
    st[ST_PLY] = ply + 1
    keys[ply + 1] = key


@njit(cache=True)
def unmake_move(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray
) -> int:
    """Take back the last move made; return it."""
    ply = st[ST_PLY] - 1
    rec = hist[ply]
    m = rec[H_MOVE]
    them = st[ST_SIDE]
    us = 1 - them
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)

    if is_promotion(m):
        _remove(bb, mb, mb[to], to)
        _put(bb, mb, us * 6 + PAWN, to)
    elif flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        rook = us * 6 + ROOK
        if flag == FLAG_KING_CASTLE:
            r_from, r_to = to + 1, to - 1
        else:
            r_from, r_to = to - 2, to + 1
        _move_piece(bb, mb, rook, r_to, r_from)
    _move_piece(bb, mb, mb[to], to, frm)

    captured = rec[H_CAPTURED]
    if captured != EMPTY:
        if flag == FLAG_EP:
            _put(bb, mb, captured, to - 8 if us == 0 else to + 8)
        else:
            _put(bb, mb, captured, to)

    st[ST_CASTLE] = rec[H_CASTLE]
    st[ST_EP] = rec[H_EP]
    st[ST_HALFMOVE] = rec[H_HALFMOVE]
    if us == 1:
        st[ST_FULLMOVE] -= 1
    st[ST_SIDE] = us
    st[ST_PLY] = ply
    return m


@njit(cache=True)
def make_null(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray
) -> None:
    """Pass the move (null move for the search); undo with ``unmake_null``."""
    ply = st[ST_PLY]
    key = keys[ply]
    rec = hist[ply]
    rec[H_MOVE] = 0
    rec[H_CAPTURED] = EMPTY
    rec[H_CASTLE] = st[ST_CASTLE]
    rec[H_EP] = st[ST_EP]
    rec[H_HALFMOVE] = st[ST_HALFMOVE]
    us = st[ST_SIDE]
    if st[ST_EP] != NO_SQUARE and ep_key_relevant(bb, st[ST_EP], us):
        key ^= ZOBRIST_EP[st[ST_EP] & 7]
    st[ST_EP] = NO_SQUARE
    st[ST_HALFMOVE] += 1
    st[ST_SIDE] = 1 - us
    key ^= ZOBRIST_SIDE
    st[ST_PLY] = ply + 1
    keys[ply + 1] = key


@njit(cache=True)
def unmake_null(
    bb: np.ndarray, mb: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray
) -> None:
    """Undo ``make_null``."""
    ply = st[ST_PLY] - 1
    rec = hist[ply]
    st[ST_EP] = rec[H_EP]
    st[ST_HALFMOVE] = rec[H_HALFMOVE]
    st[ST_SIDE] = 1 - st[ST_SIDE]
    st[ST_PLY] = ply
