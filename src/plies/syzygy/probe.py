"""Win/draw/loss of a position: the table's value with captures and en passant resolved.

A WDL table stores positions whose side to move has no capture that changes
the outcome; the prober plays the captures (alpha-beta over them, as the
format's reference prober does) down to the tables, on the core's own
``Position`` with the core's legal move generator and ``make_move`` /
``unmake_move``. The position is left exactly as it was found. Castling rights
are never in a table: the caller must not probe with them.

Results are ``(value, ok)``: WDL values are -2 loss, -1 blessed loss (a loss
the fifty-move rule saves), 0 draw, 1 cursed win, 2 win, for the side to move,
valid only when ``ok`` is 1. ``ok`` is 0 when a needed table is missing, the
position has more men than ``MAX_PROBE_MEN``, its undo stack has fewer than
``PROBE_ROOM`` free plies, or a table read fails its bounds checks. As Syzygy
WDL values do, a value assumes the fifty-move counter at zero (just after a
capture or pawn move).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import lsb, popcount
from plies.core.encoding import FLAG_EP, NO_PIECE, NO_SQUARE, PAWN, is_capture, move_flag
from plies.core.makemove import make_move, unmake_move
from plies.core.movegen import gen_moves
from plies.core.position import Position
from plies.syzygy.decode import probe_table
from plies.syzygy.tables import MAX_PROBE_MEN, PROBE_PLIES, PROBE_ROOM, Tables


@njit(cache=True, nogil=True, _nrt=False)
def room(pos: Position) -> bool:
    """Whether ``pos`` has the undo-stack room any probe needs."""
    return pos.ply + PROBE_ROOM < pos.undo.shape[0]


@njit(cache=True, nogil=True, _nrt=False)
def resolve(tables: Tables, pos: Position, row: int, alpha: int, beta: int) -> tuple[int, int]:
    """WDL of ``pos`` with captures (not en passant) resolved, alpha-beta in [alpha, beta].

    Returns ``(value, status)``: status 0 failed, 2 a capture reached beta or the
    best value was not the table's, 1 the table's value stands. ``row`` is the
    first free row of ``tables.moves``.
    """
    bbs = pos.pieces
    if popcount(bbs[0] | bbs[8]) > MAX_PROBE_MEN or row + 1 >= PROBE_PLIES:
        return 0, 0
    moves = tables.moves[row]
    n = gen_moves(pos, moves, np.bool_(True))
    for i in range(n):
        m = moves[i]
        if not is_capture(m) or move_flag(m) == FLAG_EP:
            continue
        make_move(pos, m)
        v, status = resolve(tables, pos, row + 1, -beta, -alpha)
        unmake_move(pos)
        if status == 0:
            return 0, 0
        v = -v
        if v > alpha:
            if v >= beta:
                return v, 2
            alpha = v
    if (bbs[0] | bbs[8]) == (bbs[6] | bbs[14]):
        v = 0
    else:
        v, status = probe_table(tables, bbs, pos.side, np.int64(0), np.int64(0))
        if status != 1:
            return 0, 0
    if alpha >= v:
        return alpha, 1 + (1 if alpha > 0 else 0)
    return v, 1


@njit(cache=True, nogil=True, _nrt=False)
def has_move_but_ep(pos: Position, moves: np.ndarray) -> bool:
    """Whether the side to move has a legal move besides en passant (``moves``: scratch)."""
    n = gen_moves(pos, moves, np.bool_(False))
    for i in range(n):  # noqa: SIM110 (compiled code: no generator expressions)
        if move_flag(moves[i]) != FLAG_EP:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def best_en_passant(tables: Tables, pos: Position, moves_row: int, row: int) -> tuple[int, int]:
    """The best WDL the side to move reaches by capturing en passant (-3: it cannot), and 1,
    or (0, 0) if a capture leads where the tables cannot tell.

    The moves are listed in ``tables.moves[moves_row]``; each capture's position resolves
    its own captures from row ``row`` on.
    """
    moves = tables.moves[moves_row]
    n = gen_moves(pos, moves, np.bool_(True))
    best = -3
    for i in range(n):
        m = moves[i]
        if move_flag(m) != FLAG_EP:
            continue
        make_move(pos, m)
        v, status = resolve(tables, pos, row, np.int64(-2), np.int64(2))
        unmake_move(pos)
        if status == 0:
            return 0, 0
        best = max(best, -v)
    return best, 1


@njit(cache=True, nogil=True, _nrt=False)
def probe_wdl(tables: Tables, pos: Position) -> tuple[int, int]:
    """WDL (-2..2) of ``pos`` for the side to move, and 1, or (0, 0) if it cannot be probed.

    Handles en passant on ``pos.ep``; allocates nothing (the scratch is ``tables``').
    """
    if not room(pos):
        return 0, 0
    return wdl_of(tables, pos)


@njit(cache=True, nogil=True, _nrt=False)
def wdl_of(tables: Tables, pos: Position) -> tuple[int, int]:
    """``probe_wdl`` without the room check (a caller that made it already)."""
    v, status = resolve(tables, pos, np.int64(0), np.int64(-2), np.int64(2))
    if status == 0:
        return 0, 0
    if pos.ep >= 64 or pos.squares[pos.ep] != NO_PIECE:
        return v, 1
    best, ok = best_en_passant(tables, pos, np.int64(0), np.int64(1))
    if not ok:
        return 0, 0
    if best > -3:
        if best >= v:
            v = best
        elif v == 0 and not has_move_but_ep(pos, tables.moves[0]):
            # Only en passant is legal: the losing capture is forced.
            v = best
    return v, 1


@njit(cache=True, nogil=True)
def set_position(pos: Position, bbs: np.ndarray, side: int, ep: int) -> None:
    """Make ``pos`` the position of 16-slot bitboards ``bbs``: no castling, clocks at zero.

    ``ep`` is kept only where a pawn just passed it (the square empty, the pawn beyond).
    """
    for i in range(16):
        pos.pieces[i] = bbs[i]
    for sq in range(64):
        pos.squares[sq] = NO_PIECE
    for code in range(16):
        if code & 7:
            b = bbs[code]
            while b:
                pos.squares[lsb(b)] = code
                b &= b - np.uint64(1)
    pos.side = side
    pos.castling = 0
    pos.halfmove = 0
    pos.ply = 0
    pos.ep = NO_SQUARE
    if (40 <= ep < 48) if side == 0 else (16 <= ep < 24):
        victim = ep - 8 if side == 0 else ep + 8
        if pos.squares[ep] == NO_PIECE and pos.squares[victim] == (1 - side) * 8 + PAWN:
            pos.ep = ep
