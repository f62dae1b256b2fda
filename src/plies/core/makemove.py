"""Make and unmake: moves and null moves on a ``Position``, its keys and undo records kept.

``make_move`` assumes the move is legal (the generator only produces legal moves);
it pushes an undo record so ``unmake_move`` restores the position exactly, without
allocating (``reserve`` grows the stacks beforehand). A move records the piece it
moved and marks the net's accumulators of the new ply pending (``nnue.catch_up``).
The per-node functions are compiled with ``_nrt=False`` (see ``plies.jitstruct``):
they must never allocate. ``push_move``/``push_null``/``pop_null`` are the Python
layer's entries (they reserve room first); ``key_after`` is a move's resulting key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ONE, U64, ZERO
from plies.core.encoding import (
    ALL_KINDS,
    BLACK,
    FLAG_DOUBLE,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    KING,
    NO_PIECE,
    NO_SQUARE,
    PAWN,
    ROOK,
    WHITE,
    color_of,
    is_promotion,
    kind_of,
    move_flag,
    move_from,
    move_to,
    piece_code,
    promotion_kind,
    rook_castle_squares,
)
from plies.core.position import Position, ep_key_relevant, reserve
from plies.core.tables import (
    PAWN_ATTACKS,
    ZOBRIST_CASTLE,
    ZOBRIST_EP,
    ZOBRIST_PIECE,
    ZOBRIST_SIDE,
)
from plies.core.undo import (
    UNDO_CAPTURED,
    UNDO_CASTLING,
    UNDO_EP,
    UNDO_HALFMOVE,
    UNDO_MOVE,
    UNDO_MOVED,
    UNDO_PENDING,
)


@njit(cache=True, inline="always")
def _put(bb: np.ndarray, mb: np.ndarray, p: int, sq: int) -> None:
    """Place piece ``p`` on empty square ``sq``."""
    b = ONE << U64(sq)
    bb[p] |= b
    bb[piece_code(color_of(p), ALL_KINDS)] |= b
    mb[sq] = p


@njit(cache=True, inline="always")
def _remove(bb: np.ndarray, mb: np.ndarray, p: int, sq: int) -> None:
    """Remove piece ``p`` from square ``sq``."""
    b = ~(ONE << U64(sq))
    bb[p] &= b
    bb[piece_code(color_of(p), ALL_KINDS)] &= b
    mb[sq] = NO_PIECE


@njit(cache=True, inline="always")
def _move_piece(bb: np.ndarray, mb: np.ndarray, p: int, frm: int, to: int) -> None:
    """Move piece ``p`` between two squares (``to`` must be empty)."""
    b = (ONE << U64(frm)) | (ONE << U64(to))
    bb[p] ^= b
    bb[piece_code(color_of(p), ALL_KINDS)] ^= b
    mb[frm] = NO_PIECE
    mb[to] = p


@njit(cache=True, inline="always")
def _push_undo(pos: Position, m: int, captured: int) -> None:
    """Record what ``unmake`` needs before the state fields change."""
    rec = pos.undo[pos.ply]
    rec[UNDO_MOVE] = m
    rec[UNDO_CAPTURED] = captured
    rec[UNDO_CASTLING] = pos.castling
    rec[UNDO_EP] = pos.ep
    rec[UNDO_HALFMOVE] = pos.halfmove


@njit(cache=True, nogil=True, _nrt=False)
def make_move(pos: Position, m: int) -> None:
    """Play legal move ``m``, pushing an undo record and the new key."""
    bb = pos.pieces
    mb = pos.squares
    us = pos.side
    them = 1 - us
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)
    ply = pos.ply
    key = pos.keys[ply]
    _push_undo(pos, m, NO_PIECE)

    if pos.ep != NO_SQUARE and ep_key_relevant(bb, pos.ep, us):
        key ^= ZOBRIST_EP[pos.ep & 7]
    key ^= ZOBRIST_CASTLE[pos.castling]

    p = mb[frm]
    captured = NO_PIECE
    pos.halfmove += 1
    if flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        # In Chess960 the king may land on the rook's square or the rook on the
        # king's: both leave the board before either is placed.
        rook = piece_code(us, ROOK)
        r_from, r_to = rook_castle_squares(pos.castle_rooks, to, flag)
        _remove(bb, mb, p, frm)
        _remove(bb, mb, rook, r_from)
        _put(bb, mb, p, to)
        _put(bb, mb, rook, r_to)
        key ^= ZOBRIST_PIECE[p, frm] ^ ZOBRIST_PIECE[p, to]
        key ^= ZOBRIST_PIECE[rook, r_from] ^ ZOBRIST_PIECE[rook, r_to]
    else:
        if flag == FLAG_EP:
            cap_sq = to - 8 if us == WHITE else to + 8
            captured = mb[cap_sq]
            _remove(bb, mb, captured, cap_sq)
            key ^= ZOBRIST_PIECE[captured, cap_sq]
        elif mb[to] != NO_PIECE:
            captured = mb[to]
            _remove(bb, mb, captured, to)
            key ^= ZOBRIST_PIECE[captured, to]
        if captured != NO_PIECE or kind_of(p) == PAWN:
            pos.halfmove = 0
        pos.undo[ply, UNDO_CAPTURED] = captured

        _move_piece(bb, mb, p, frm, to)
        key ^= ZOBRIST_PIECE[p, frm] ^ ZOBRIST_PIECE[p, to]
        if is_promotion(m):
            promoted = piece_code(us, promotion_kind(m))
            _remove(bb, mb, p, to)
            _put(bb, mb, promoted, to)
            key ^= ZOBRIST_PIECE[p, to] ^ ZOBRIST_PIECE[promoted, to]

    mask = pos.castle_mask
    pos.castling &= mask[frm] & mask[to]
    key ^= ZOBRIST_CASTLE[pos.castling]

    if flag == FLAG_DOUBLE:
        ep = (frm + to) >> 1
        pos.ep = ep
        if (PAWN_ATTACKS[us, ep] & bb[piece_code(them, PAWN)]) != ZERO and ep_key_relevant(
            bb, ep, them
        ):
            key ^= ZOBRIST_EP[ep & 7]
    else:
        pos.ep = NO_SQUARE

    if us == BLACK:
        pos.fullmove += 1
    pos.side = them
    key ^= ZOBRIST_SIDE
    pos.ply = ply + 1
    pos.keys[ply + 1] = key
    # The net's accumulators of ply + 1 are derived only when an evaluation needs them
    # (``nnue.catch_up``): many nodes end on a table cut-off before any evaluation.
    rec = pos.undo[ply]
    rec[UNDO_MOVED] = p
    rec[UNDO_PENDING] = 1


@njit(cache=True, nogil=True, _nrt=False)
def unmake_move(pos: Position) -> int:
    """Take back the last move made; return it."""
    bb = pos.pieces
    mb = pos.squares
    ply = pos.ply - 1
    rec = pos.undo[ply]
    m = rec[UNDO_MOVE]
    us = 1 - pos.side
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)

    if flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        # Lift both before placing either (their squares may overlap, as in make_move).
        rook = piece_code(us, ROOK)
        king = piece_code(us, KING)
        r_from, r_to = rook_castle_squares(pos.castle_rooks, to, flag)
        _remove(bb, mb, king, to)
        _remove(bb, mb, rook, r_to)
        _put(bb, mb, king, frm)
        _put(bb, mb, rook, r_from)
    else:
        if is_promotion(m):
            _remove(bb, mb, mb[to], to)
            _put(bb, mb, piece_code(us, PAWN), to)
        _move_piece(bb, mb, mb[to], to, frm)

    captured = rec[UNDO_CAPTURED]
    if captured != NO_PIECE:
        if flag == FLAG_EP:
            _put(bb, mb, captured, to - 8 if us == WHITE else to + 8)
        else:
            _put(bb, mb, captured, to)

    pos.castling = rec[UNDO_CASTLING]
    pos.ep = rec[UNDO_EP]
    pos.halfmove = rec[UNDO_HALFMOVE]
    if us == BLACK:
        pos.fullmove -= 1
    pos.side = us
    pos.ply = ply
    return m


@njit(cache=True, nogil=True, _nrt=False)
def make_null(pos: Position) -> None:
    """Pass the move (null move for the search); undo with ``unmake_null``."""
    ply = pos.ply
    key = pos.keys[ply]
    _push_undo(pos, 0, NO_PIECE)
    if pos.ep != NO_SQUARE and ep_key_relevant(pos.pieces, pos.ep, pos.side):
        key ^= ZOBRIST_EP[pos.ep & 7]
    pos.ep = NO_SQUARE
    pos.halfmove += 1
    pos.side = 1 - pos.side
    key ^= ZOBRIST_SIDE
    pos.ply = ply + 1
    pos.keys[ply + 1] = key
    pos.undo[ply, UNDO_PENDING] = 1


@njit(cache=True, inline="always")
def after_null(pos: Position) -> bool:
    """Whether the move that led here was a null move (its undo record holds move 0)."""
    return pos.ply > 0 and pos.undo[pos.ply - 1, UNDO_MOVE] == 0


@njit(cache=True, nogil=True, _nrt=False)
def unmake_null(pos: Position) -> None:
    """Undo ``make_null``."""
    ply = pos.ply - 1
    rec = pos.undo[ply]
    pos.ep = rec[UNDO_EP]
    pos.halfmove = rec[UNDO_HALFMOVE]
    pos.side = 1 - pos.side
    pos.ply = ply


@njit(cache=True)
def push_move(pos: Position, m: int) -> bool:
    """Make room for one more move and play it (the board layer's push); True if it grew."""
    grew = reserve(pos, np.int64(1))
    make_move(pos, m)
    return grew


@njit(cache=True)
def push_null(pos: Position) -> None:
    """Make room for one more ply and pass the move (``make_null`` for the Python layer)."""
    reserve(pos, np.int64(1))
    make_null(pos)


@njit(cache=True)
def pop_null(pos: Position) -> None:
    """Undo ``push_null``."""
    unmake_null(pos)


@njit(cache=True)
def key_after(pos: Position, m: int) -> np.uint64:
    """Zobrist key of the position after legal move ``m`` (the position is unchanged)."""
    reserve(pos, np.int64(1))
    make_move(pos, m)
    key = pos.keys[pos.ply]
    unmake_move(pos)
    return key
