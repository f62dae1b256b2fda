"""The position: one compiled object holding the board, the game state and the undo stack.

``Position`` is a numba structref (see the package docstring for why): compiled
functions take it as one argument and read its fields by name.

    pieces    uint64[16]      bitboard of each piece code; slot ``color * 8`` is
                              that colour's occupancy (see ``plies.core.encoding``)
    squares   int64[64]       the piece on each square, or NO_PIECE
    side, castling, ep, halfmove, fullmove, ply
                              side to move, castling bits, en-passant square (or
                              NO_SQUARE), the two clocks, and the number of moves
                              made since set-up
    undo      int64[cap, 7]   one record per move made (columns: ``plies.core.undo``)
    keys      uint64[cap + 1] Zobrist key after each ply; ``keys[ply]`` is current
    sliders   uint64[...]     the magic slider-attack table (shared, read-only)
    castle_rooks int64[4]     start square of the rook of each castling right (bit order
                              WK, WQ, BK, BQ; NO_SQUARE where the position had no such right)
    castle_empty uint64[4]    squares that must be empty to castle with that right (the
                              king's and the rook's paths and destinations, less both pieces)
    castle_path  uint64[4]    squares the king crosses (strictly between its start and
                              destination), which no enemy piece may attack
    castle_mask  int64[64]    castling rights kept when a move touches each square
    use_net   int64           which evaluation the search uses (``plies.core.static_eval``):
                              0 classical, 1 the net below, 2 classical plus that net
    acc       int16[cap + 1, 2, H]  the net's accumulators of each ply, by perspective
                              (``acc[ply]`` is current; one empty row without a net)
    ft_w, ft_b, out_w, out_b  the quantised net (int16[K * 768, H], int16[H], int16[B, 2H],
                              int64[B]: K king buckets, B output buckets), shared and
                              read-only; empty arrays (and one zero bias) without a net
    king_map  int64[2, 64]    the net's king buckets (``plies.core.netfile.Net.king_map``):
                              feature offset and file mirror by own-king square;
                              int64[0, 64] for a net without them (or no net)

``keys[0 .. ply]`` is the whole game seen by repetition detection.
``make_move`` assumes the move is legal (the generator only produces legal
moves); it pushes an undo record so ``unmake_move`` restores the position
exactly, without allocating. ``reserve`` grows the undo stack (and the
accumulator stack), the only place that does. A move records the piece it moved
and marks the net's accumulators of the new ply pending; the net derives them
from the last ply it computed when an evaluation reads them (``nnue.catch_up``),
so a node cut off before any evaluation costs no accumulator update.

The per-node functions (make/unmake, check tests) are compiled with
``_nrt=False``: they update no reference counts, which would otherwise be most
of the cost of a make/unmake pair (see ``plies.jitstruct``). They must never allocate;
make/unmake live in ``plies.core.makemove``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.experimental import structref

from plies.core.bits import ONE, U64, ZERO, lsb
from plies.core.encoding import (
    ALL_KINDS,
    BISHOP,
    BLACK,
    CASTLE_ALL,
    CASTLE_WK,
    CASTLE_WQ,
    KING,
    KNIGHT,
    NO_PIECE,
    NO_SQUARE,
    PAWN,
    PIECE_SLOTS,
    QUEEN,
    ROOK,
    WHITE,
    castle_targets,
    piece_code,
)
from plies.core.tables import (
    BETWEEN,
    BISHOP_PSEUDO,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    ROOK_PSEUDO,
    SLIDER_ATTACKS,
    ZOBRIST_CASTLE,
    ZOBRIST_EP,
    ZOBRIST_PIECE,
    ZOBRIST_SIDE,
    bishop_attacks,
    rook_attacks,
)
from plies.core.undo import (
    UNDO_SIZE,
)
from plies.jitstruct import CoreStruct, register

INITIAL_CAPACITY = 512
"""Plies of undo stack a new position has room for."""

STANDARD_CASTLE_ROOKS = (7, 0, 63, 56)
"""The rook squares of the castling rights WK, WQ, BK, BQ in standard chess."""

POSITION_FIELDS = (
    "pieces", "squares", "side", "castling", "ep", "halfmove", "fullmove", "ply",
    "undo", "keys", "sliders", "castle_rooks", "castle_empty", "castle_path", "castle_mask",
    "use_net", "acc", "ft_w", "ft_b", "out_w", "out_b", "king_map",
)  # fmt: skip

NO_NET_WEIGHT = np.zeros((0, 0), dtype=np.int16)
"""Feature weights of a position without a net (never read: its ``use_net`` is 0)."""
NO_NET_ROW = np.zeros(0, dtype=np.int16)
"""Feature biases of a position without a net."""
NO_NET_BIAS = np.zeros(1, dtype=np.int64)
"""Output biases of a position without a net (its output weights: ``NO_NET_WEIGHT``)."""
NO_KING_MAP = np.zeros((0, 64), dtype=np.int64)
"""King map of a position whose net has no king buckets (or that has no net)."""
_NO_NET = (NO_NET_WEIGHT, NO_NET_ROW, NO_NET_BIAS, NO_KING_MAP)
"""The net arrays of a position without a net, as ``_build`` takes them."""


@register
class PositionType(CoreStruct):
    """numba type of ``Position``."""


class Position(structref.StructRefProxy):
    """A chess position (Python handle); build it with ``new_position``."""


structref.define_proxy(Position, PositionType, list(POSITION_FIELDS))


@njit(cache=True)
def _build(
    mailbox: np.ndarray,
    state: np.ndarray,
    sliders: np.ndarray,
    castle: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    no_net: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> Position:
    """A position from a mailbox of piece codes (a1 first), the FEN's state fields
    (side, castling, ep, halfmove, fullmove), the slider attack table, the castling
    tables (``castling_tables``) and the empty net arrays; its key computed, ply 0."""
    pieces = np.zeros(PIECE_SLOTS, dtype=np.uint64)
    one = np.uint64(1)
    for sq in range(64):
        p = mailbox[sq]
        if p != NO_PIECE:
            bit = one << np.uint64(sq)
            pieces[p] |= bit
            pieces[(p >> 3) * 8 + ALL_KINDS] |= bit
    undo = np.zeros((INITIAL_CAPACITY, UNDO_SIZE), dtype=np.int64)
    keys = np.zeros(INITIAL_CAPACITY + 1, dtype=np.uint64)
    castle_rooks, castle_empty, castle_path, castle_mask = castle
    weight, row, bias, king_map = no_net
    acc = np.zeros((1, 2, 0), dtype=np.int16)
    zero = np.int64(0)
    pos = Position(pieces, mailbox, state[0], state[1], state[2], state[3], state[4], zero,
                   undo, keys, sliders, castle_rooks, castle_empty, castle_path, castle_mask,
                   zero, acc, weight, row, weight, bias, king_map)  # fmt: skip
    keys[0] = compute_key(pos)
    return pos


def castling_tables(
    squares: list[int] | tuple[int, ...], castle_rooks: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``castle_rooks, castle_empty, castle_path, castle_mask`` of a position (see above).

    ``castle_rooks`` gives each right's rook square (WK, WQ, BK, BQ), NO_SQUARE for none;
    each right's king stands on its colour's back rank (the board's validation sees to it).
    """
    rooks = np.array(castle_rooks, dtype=np.int64)
    empty = np.zeros(4, dtype=np.uint64)
    path = np.zeros(4, dtype=np.uint64)
    mask = np.full(64, CASTLE_ALL, dtype=np.int64)
    for right, rook in enumerate(castle_rooks):
        if rook == NO_SQUARE:
            continue
        color = right >> 1
        king = list(squares).index(piece_code(color, KING))
        king_to, rook_to = castle_targets(right)
        pieces = (1 << king) | (1 << rook)
        span = (int(BETWEEN[king, king_to]) | int(BETWEEN[rook, rook_to])
                | (1 << king_to) | (1 << rook_to))  # fmt: skip
        empty[right] = np.uint64(span & ~pieces)
        path[right] = BETWEEN[king, king_to]
        mask[king] &= ~((CASTLE_WK | CASTLE_WQ) << (2 * color))
        mask[rook] &= ~(1 << right)
    return rooks, empty, path, mask


def new_position(
    squares: list[int] | tuple[int, ...],
    side: int,
    castling: int,
    ep: int,
    halfmove: int,
    fullmove: int,
    castle_rooks: tuple[int, ...] = STANDARD_CASTLE_ROOKS,
) -> Position:
    """A position from a mailbox of piece codes (a1 first), the FEN's state fields, and the
    rook square of each castling right (WK, WQ, BK, BQ; only those in ``castling`` count)."""
    rooks = tuple(sq if castling & (1 << right) else NO_SQUARE
                  for right, sq in enumerate(castle_rooks))  # fmt: skip
    state = np.array([side, castling, ep, halfmove, fullmove], dtype=np.int64)
    return _build(np.array(squares, dtype=np.int64), state, SLIDER_ATTACKS,
                  castling_tables(squares, rooks), _NO_NET)


@njit(cache=True)
def copy_position(pos: Position) -> Position:
    """An independent copy (history and accumulators included); tables and net stay shared."""
    return Position(pos.pieces.copy(), pos.squares.copy(), pos.side, pos.castling, pos.ep,
                    pos.halfmove, pos.fullmove, pos.ply, pos.undo.copy(), pos.keys.copy(),
                    pos.sliders, pos.castle_rooks, pos.castle_empty, pos.castle_path,
                    pos.castle_mask, pos.use_net, pos.acc.copy(), pos.ft_w, pos.ft_b, pos.out_w,
                    pos.out_b, pos.king_map)  # fmt: skip


@njit(cache=True)
def reserve(pos: Position, extra: int) -> bool:
    """Grow the undo stack (at least doubling) so ``extra`` more moves fit; True if it grew.

    A position with a net grows its accumulator stack alongside (one row per key).
    """
    need = pos.ply + extra + 2
    size = pos.undo.shape[0]
    if need <= size:
        return False
    new_size = max(need, 2 * size)
    # Element loops, not slice assignment: a slice copy makes numba compile its
    # shape-mismatch error message (string formatting), seconds of every cold
    # start; this runs only when the stack grows.
    old_undo = pos.undo
    undo = np.zeros((new_size, UNDO_SIZE), dtype=np.int64)
    for i in range(size):
        for j in range(UNDO_SIZE):
            undo[i, j] = old_undo[i, j]
    old_keys = pos.keys
    keys = np.zeros(new_size + 1, dtype=np.uint64)
    for i in range(size + 1):
        keys[i] = old_keys[i]
    pos.undo = undo
    pos.keys = keys
    if pos.use_net:
        old_acc = pos.acc
        hidden = old_acc.shape[2]
        acc = np.zeros((new_size + 1, 2, hidden), dtype=np.int16)
        for i in range(size + 1):
            for p in range(2):
                for j in range(hidden):
                    acc[i, p, j] = old_acc[i, p, j]
        pos.acc = acc
    return True


@njit(cache=True)
def position_state(pos: Position) -> tuple[int, int, int, int, int, int]:
    """``(side, castling, ep, halfmove, fullmove, ply)`` for the Python layer."""
    return pos.side, pos.castling, pos.ep, pos.halfmove, pos.fullmove, pos.ply


@njit(cache=True)
def position_arrays(pos: Position) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The live ``pieces, squares, keys`` arrays (views, not copies) for the Python layer."""
    return pos.pieces, pos.squares, pos.keys


@njit(cache=True, inline="always")
def occupancy(pos: Position, color: int) -> np.uint64:
    """Squares occupied by ``color``."""
    return pos.pieces[piece_code(color, ALL_KINDS)]


@njit(cache=True, inline="always")
def occupied(pos: Position) -> np.uint64:
    """Squares occupied by either colour."""
    return pos.pieces[piece_code(WHITE, ALL_KINDS)] | pos.pieces[piece_code(BLACK, ALL_KINDS)]


@njit(cache=True, inline="always")
def attackers_to(pos: Position, sq: int, occ: np.uint64, by: int) -> np.uint64:
    """Pieces of colour ``by`` attacking ``sq`` with occupancy ``occ``."""
    bb = pos.pieces
    result = KNIGHT_ATTACKS[sq] & bb[piece_code(by, KNIGHT)]
    result |= KING_ATTACKS[sq] & bb[piece_code(by, KING)]
    result |= PAWN_ATTACKS[1 - by, sq] & bb[piece_code(by, PAWN)]
    queens = bb[piece_code(by, QUEEN)]
    result |= rook_attacks(sq, occ, pos.sliders) & (bb[piece_code(by, ROOK)] | queens)
    result |= bishop_attacks(sq, occ, pos.sliders) & (bb[piece_code(by, BISHOP)] | queens)
    return result


@njit(cache=True, inline="always")
def square_attacked(pos: Position, sq: int, occ: np.uint64, by: int) -> bool:
    """Whether colour ``by`` attacks ``sq`` with occupancy ``occ`` (``attackers_to`` != 0).

    The slider lookups, the costly part, run only for sliders on a line through
    ``sq``: the usual case (no check) mostly skips them.
    """
    bb = pos.pieces
    leapers = KNIGHT_ATTACKS[sq] & bb[piece_code(by, KNIGHT)]
    leapers |= KING_ATTACKS[sq] & bb[piece_code(by, KING)]
    leapers |= PAWN_ATTACKS[1 - by, sq] & bb[piece_code(by, PAWN)]
    if leapers != ZERO:
        return True
    queens = bb[piece_code(by, QUEEN)]
    straight = bb[piece_code(by, ROOK)] | queens
    if ROOK_PSEUDO[sq] & straight and rook_attacks(sq, occ, pos.sliders) & straight:
        return True
    diagonal = bb[piece_code(by, BISHOP)] | queens
    return (BISHOP_PSEUDO[sq] & diagonal) != ZERO and (
        bishop_attacks(sq, occ, pos.sliders) & diagonal
    ) != ZERO


@njit(cache=True, inline="always")
def king_square(pos: Position, color: int) -> int:
    """Square of the king of ``color``."""
    return lsb(pos.pieces[piece_code(color, KING)])


@njit(cache=True, nogil=True, _nrt=False)
def in_check(pos: Position) -> bool:
    """Whether the side to move is in check."""
    us = pos.side
    return square_attacked(pos, king_square(pos, us), occupied(pos), 1 - us)


@njit(cache=True, nogil=True, _nrt=False)
def opponent_in_check(pos: Position) -> bool:
    """Whether the side not to move is in check (an illegal position)."""
    them = 1 - pos.side
    return square_attacked(pos, king_square(pos, them), occupied(pos), pos.side)


@njit(cache=True, nogil=True, _nrt=False)
def _ray_hits(sq: int, occ: np.uint64, sliders: np.uint64, straight: bool) -> bool:
    """Whether a slider in ``sliders`` sees ``sq`` along rook (or bishop) lines.

    Walks the rays square by square: it serves the rare en-passant key test,
    where the attack-table lookup would burden make_move's inlined code.
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


@njit(cache=True, nogil=True, _nrt=False)
def ep_key_relevant(bb: np.ndarray, ep: int, side: int) -> bool:
    """Whether ``side`` has a legal en-passant capture on ``ep`` (bitboards ``bb``).

    Only then does the square belong in the Zobrist key: positions that differ
    by an en-passant square nobody can use are the same position (FIDE, and
    python-chess's repetition rules). A capture is legal when, with both pawns
    gone and the capturer on ``ep``, nothing attacks the capturing side's king.
    """
    if ep == NO_SQUARE:
        return False
    capturers = PAWN_ATTACKS[1 - side, ep] & bb[piece_code(side, PAWN)]
    if capturers == ZERO:
        return False
    them = 1 - side
    cap_sq = ep - 8 if side == WHITE else ep + 8
    cap_bit = ONE << U64(cap_sq)
    ksq = lsb(bb[piece_code(side, KING)])
    occ = bb[piece_code(WHITE, ALL_KINDS)] | bb[piece_code(BLACK, ALL_KINDS)]
    queens = bb[piece_code(them, QUEEN)]
    while capturers:
        frm = lsb(capturers)
        capturers &= capturers - ONE
        after = (occ ^ (ONE << U64(frm)) ^ cap_bit) | (ONE << U64(ep))
        if _ray_hits(ksq, after, bb[piece_code(them, ROOK)] | queens, np.bool_(True)):
            continue
        if _ray_hits(ksq, after, bb[piece_code(them, BISHOP)] | queens, np.bool_(False)):
            continue
        if KNIGHT_ATTACKS[ksq] & bb[piece_code(them, KNIGHT)]:
            continue
        if PAWN_ATTACKS[side, ksq] & bb[piece_code(them, PAWN)] & ~cap_bit:
            continue
        return True
    return False


@njit(cache=True, nogil=True)
def compute_key(pos: Position) -> np.uint64:
    """Zobrist key of the position from scratch (used at set-up and in checks)."""
    key = ZERO
    for sq in range(64):
        p = pos.squares[sq]
        if p != NO_PIECE:
            key ^= ZOBRIST_PIECE[p, sq]
    key ^= ZOBRIST_CASTLE[pos.castling]
    if ep_key_relevant(pos.pieces, pos.ep, pos.side):
        key ^= ZOBRIST_EP[pos.ep & 7]
    if pos.side == BLACK:
        key ^= ZOBRIST_SIDE
    return key
