"""Distance to zeroing: plies to the next capture or pawn move, with the fifty-move rule.

The values follow python-chess's ``probe_dtz`` (DTZ50'' with rounding): positive
when the side to move wins, ``1..100`` a win that beats the fifty-move rule,
``> 100`` a cursed win, ``0`` a draw, and the negatives for losses. A DTZ file
stores one side to move; for the other side the value is found by looking one
move ahead (at most two levels of moves, each probing WDL as well), on the
core's ``Position`` with its legal moves, as ``plies.syzygy.probe`` does.

``probe_root_dtz`` and ``probe_root_wdl`` rank every legal move of a root
position (core move codes) for the engine's root filtering
(``plies.syzygy.root``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import popcount
from plies.core.encoding import PAWN, is_capture, kind_of, move_from
from plies.core.makemove import make_move, unmake_move
from plies.core.movegen import gen_moves
from plies.core.position import Position, in_check
from plies.syzygy.decode import probe_table
from plies.syzygy.format import MAX_MEN
from plies.syzygy.probe import best_en_passant, has_move_but_ep, resolve, room, wdl_of
from plies.syzygy.tables import DTZ_LEVELS, PROBE_PLIES, TB_HITS, Tables

_WDL_TO_DTZ = np.array([-1, -101, 0, 101, 1], dtype=np.int64)
"""The DTZ a WDL value stands for when a zeroing move realises it (index ``wdl + 2``)."""


@njit(cache=True, nogil=True, inline="always")
def _before_zeroing(wdl: int) -> int:
    """DTZ of a position whose WDL is realised by a zeroing move now: 1 / 101 / -1 / -101."""
    if wdl == 0:
        return 0
    magnitude = 1 if wdl == 2 or wdl == -2 else 101
    return magnitude if wdl > 0 else -magnitude


@njit(cache=True, nogil=True, inline="always")
def _pawn_move(pos: Position, m: int) -> bool:
    """Whether ``m`` (not yet played) moves a pawn."""
    return kind_of(pos.squares[move_from(m)]) == PAWN


@njit(cache=True, nogil=True, _nrt=False)
def _mated(pos: Position, moves: np.ndarray) -> bool:
    """Whether the side to move (no en passant available) is checkmated (``moves``: scratch)."""
    return in_check(pos) and gen_moves(pos, moves, np.bool_(False)) == 0


@njit(cache=True, nogil=True, _nrt=False)
def _dtz_no_ep(tables: Tables, pos: Position, level: int) -> tuple[int, int]:
    """DTZ of ``pos``, en passant only as a move (not merged); (dtz, ok).

    ``level`` counts the look-ahead: row ``PROBE_PLIES + level`` of ``tables.moves``
    holds this level's moves.
    """
    wdl, status = resolve(tables, pos, np.int64(0), np.int64(-2), np.int64(2))
    if status == 0:
        return 0, 0
    if wdl == 0:
        return 0, 1
    if status == 2:
        return _before_zeroing(wdl), 1
    if popcount(pos.pieces[0] | pos.pieces[8]) > MAX_MEN or level + 1 >= DTZ_LEVELS:
        return 0, 0
    mine = tables.moves[PROBE_PLIES + level]
    n = gen_moves(pos, mine, np.bool_(False))
    if wdl > 0:
        # A pawn push that keeps the win is a zeroing move now: DTZ 1 (or 101).
        for i in range(n):
            m = mine[i]
            if is_capture(m) or not _pawn_move(pos, m):
                continue
            make_move(pos, m)
            v, ok = wdl_of(tables, pos)
            unmake_move(pos)
            if not ok:
                return 0, 0
            if -v == wdl:
                return (1 if wdl == 2 else 101), 1
    dtz, status = probe_table(tables, pos.pieces, pos.side, np.int64(1), wdl)
    if status == 0:
        return 0, 0
    if status == 1:
        return _before_zeroing(wdl) + (dtz if wdl > 0 else -dtz), 1
    # The table holds the other side to move: look one move ahead.
    if wdl > 0:
        best = 0xFFFF
        for i in range(n):
            m = mine[i]
            if is_capture(m) or _pawn_move(pos, m):
                continue
            make_move(pos, m)
            v, ok = _dtz_no_ep(tables, pos, level + 1)
            mated = ok and -v == 1 and _mated(pos, tables.moves[0])
            unmake_move(pos)
            if not ok:
                return 0, 0
            v = -v
            if mated:
                best = 1
            elif v > 0 and v + 1 < best:
                best = v + 1
        return best, 1
    best = -1
    for i in range(n):
        m = mine[i]
        zeroing = is_capture(m) or _pawn_move(pos, m)
        make_move(pos, m)
        if zeroing:
            if wdl == -2:
                v, ok = -1, 1
            else:
                v, status = resolve(tables, pos, np.int64(0), np.int64(1), np.int64(2))
                ok = 1 if status != 0 else 0
                v = 0 if v == 2 else -101
        else:
            v, ok = _dtz_no_ep(tables, pos, level + 1)
            v = -v - 1
        unmake_move(pos)
        if not ok:
            return 0, 0
        if v < best:
            best = v
    return best, 1


@njit(cache=True, nogil=True, _nrt=False)
def probe_dtz(tables: Tables, pos: Position) -> tuple[int, int]:
    """DTZ of ``pos`` for the side to move, and 1, or (0, 0) if it cannot be probed.

    Needs the WDL and DTZ tables of the position and the WDL tables its captures
    reach; en passant on ``pos.ep`` is merged in as python-chess does.
    """
    if not room(pos):
        return 0, 0
    return dtz_of(tables, pos)


@njit(cache=True, nogil=True, _nrt=False)
def dtz_of(tables: Tables, pos: Position) -> tuple[int, int]:
    """``probe_dtz`` without the room check (a caller that made it already)."""
    v, ok = _dtz_no_ep(tables, pos, np.int64(0))
    if not ok:
        return 0, 0
    if pos.ep >= 64:
        return v, 1
    best, ok = best_en_passant(tables, pos, np.int64(PROBE_PLIES), np.int64(0))
    if not ok:
        return 0, 0
    if best == -3:
        return v, 1
    v1 = _WDL_TO_DTZ[best + 2]
    if v < -100:
        if v1 >= 0:
            v = v1
    elif v < 0:
        if v1 >= 0 or v1 < -100:
            v = v1
    elif v > 100:
        if v1 > 0:
            v = v1
    elif v > 0:
        if v1 == 1:
            v = v1
    elif v1 >= 0 or not has_move_but_ep(pos, tables.moves[0]):
        v = v1
    return v, 1


@njit(cache=True, nogil=True, _nrt=False)
def probe_root_dtz(
    tables: Tables, pos: Position, out_moves: np.ndarray, out_dtz: np.ndarray
) -> int:
    """Each legal move of ``pos`` and its DTZ counted from the root; the count, -1 if unknown.

    Moves are core move codes in ``out_moves`` (``int64[MAX_MOVES]``), their DTZ from
    the mover's side in ``out_dtz``: a zeroing move scores its child's WDL as a
    zeroing DTZ (1, 101, 0, -101, -1), any other move the child's DTZ one ply
    further (so a win in n becomes n + 1), and a mate 1. This is what a search
    needs to rank root moves (Stockfish's ``root_probe`` adds the fifty-move counter
    and repetitions to it). Each move probed counts as a hit in ``tables.limits``.
    """
    if (
        out_dtz.shape[0] < out_moves.shape[0]
        or not room(pos)
        or popcount(pos.pieces[0] | pos.pieces[8]) > MAX_MEN
    ):
        return -1
    n = gen_moves(pos, out_moves, np.bool_(False))
    for i in range(n):
        m = out_moves[i]
        zeroing = is_capture(m) or _pawn_move(pos, m)
        make_move(pos, m)
        if zeroing:
            wdl, ok = wdl_of(tables, pos)
            dtz = _before_zeroing(-wdl)
        else:
            d, ok = dtz_of(tables, pos)
            dtz = -d + 1 if d < 0 else (-d - 1 if d > 0 else 0)
            if ok and dtz == 2 and _mated(pos, tables.moves[0]):
                dtz = 1
        unmake_move(pos)
        if not ok:
            return -1
        tables.limits[TB_HITS] += 1
        out_dtz[i] = dtz
    return n


@njit(cache=True, nogil=True, _nrt=False)
def probe_root_wdl(
    tables: Tables, pos: Position, out_moves: np.ndarray, out_wdl: np.ndarray
) -> int:
    """Each legal move of ``pos`` and the WDL it leaves for the mover; the count, -1 if unknown.

    As ``probe_root_dtz``, for tables without DTZ; each move probed is a hit.
    """
    if out_wdl.shape[0] < out_moves.shape[0] or not room(pos):
        return -1
    n = gen_moves(pos, out_moves, np.bool_(False))
    for i in range(n):
        make_move(pos, out_moves[i])
        wdl, ok = wdl_of(tables, pos)
        unmake_move(pos)
        if not ok:
            return -1
        tables.limits[TB_HITS] += 1
        out_wdl[i] = -wdl
    return n

