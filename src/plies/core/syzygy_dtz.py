"""Compiled Syzygy DTZ probing: plies to the next capture or pawn move, with the 50-move rule.

The values follow python-chess's ``probe_dtz`` (DTZ50'' with rounding): positive
when the side to move wins, ``1..100`` a win that beats the fifty-move rule,
``> 100`` a cursed win, ``0`` a draw, and the negatives for losses. A DTZ file
stores one side to move; for the other side the value is found by looking one
move ahead (at most two levels of moves, each probing WDL as well).

Arguments are those of ``plies.core.syzygy.probe_wdl`` plus a second scratch pair
from ``new_dtz_scratch`` (boards and moves per level of look-ahead).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import lsb, popcount
from plies.core.syzygy import PROBE_PLIES, probe_ab_at, probe_table, probe_wdl
from plies.core.syzygy_moves import (
    MAX_MOVES,
    attacked,
    gen_ep_captures,
    gen_moves,
    has_legal_move_but_ep,
    play,
)
from plies.core.syzygy_tables import MAX_MEN

DTZ_LEVELS = 4
"""Rows of the DTZ board stack: the root, its moves, their moves, and room for one more."""
NO_SQUARE = 64
_WDL_TO_DTZ = np.array([-1, -101, 0, 101, 1], dtype=np.int64)
"""The DTZ a WDL value stands for when a zeroing move realises it (index ``wdl + 2``)."""


def new_dtz_scratch() -> tuple[np.ndarray, np.ndarray]:
    """Look-ahead scratch: boards ``uint64[DTZ_LEVELS, 16]``, moves ``int64[DTZ_LEVELS, 256]``."""
    return (
        np.zeros((DTZ_LEVELS, 16), dtype=np.uint64),
        np.zeros((DTZ_LEVELS, MAX_MOVES), dtype=np.int64),
    )


@njit(cache=True, nogil=True, inline="always")
def _before_zeroing(wdl: int) -> int:
    """DTZ of a position whose WDL is realised by a zeroing move now: 1 / 101 / -1 / -101."""
    if wdl == 0:
        return 0
    magnitude = 1 if wdl == 2 or wdl == -2 else 101
    return magnitude if wdl > 0 else -magnitude


@njit(cache=True, nogil=True)
def _kind_on(bbs: np.ndarray, color: int, sq: int) -> int:
    """Kind of ``color``'s man on ``sq``, 0 if none."""
    bit = np.uint64(1) << np.uint64(sq)
    for kind in range(1, 7):
        if bbs[color * 8 + kind] & bit:
            return kind
    return 0


@njit(cache=True, nogil=True)
def _mated(bbs: np.ndarray, side: int, scratch: np.ndarray) -> bool:
    """Whether ``side`` to move (no en passant available) is checkmated."""
    king = bbs[side * 8 + 6]
    if not king or not attacked(bbs, lsb(king), side ^ 1, bbs[0] | bbs[8]):
        return False
    return not has_legal_move_but_ep(bbs, side, scratch)


@njit(cache=True, nogil=True)
def _dtz_no_ep(
    files,
    keys,
    entries,
    tables,
    pairs,
    symlen,
    base,
    level: int,
    side: int,
    ep: int,
    stack: np.ndarray,
    moves: np.ndarray,
    dboards: np.ndarray,
    dmoves: np.ndarray,
) -> tuple[int, int]:
    """DTZ of ``dboards[level]``, en passant on ``ep`` only as a move (not merged); (dtz, ok)."""
    bbs = dboards[level]
    wdl, status = probe_ab_at(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        bbs,
        side,
        np.int64(-2),
        np.int64(2),
        stack,
        moves,
    )
    if status == 0:
        return 0, 0
    if wdl == 0:
        return 0, 1
    if status == 2:
        return _before_zeroing(wdl), 1
    if popcount(bbs[0] | bbs[8]) > MAX_MEN or level + 1 >= DTZ_LEVELS:
        return 0, 0
    them = (side ^ 1) * 8
    child = dboards[level + 1]
    mine = dmoves[level]
    n = gen_moves(bbs, side, ep, mine)
    if wdl > 0:
        # A pawn push that keeps the win is a zeroing move now: DTZ 1 (or 101).
        for i in range(n):
            m = mine[i]
            frm = m & 63
            to = (m >> 6) & 63
            if _kind_on(bbs, side, frm) != 1 or (frm ^ to) & 7:
                continue
            if not play(bbs, child, side, m):
                continue
            child_ep = (frm + to) >> 1 if (frm ^ to) == 16 else NO_SQUARE
            v, ok = probe_wdl(
                files,
                keys,
                entries,
                tables,
                pairs,
                symlen,
                base,
                child,
                side ^ 1,
                np.int64(child_ep),
                stack,
                moves,
            )
            if not ok:
                return 0, 0
            if -v == wdl:
                return (1 if wdl == 2 else 101), 1
    dtz, status = probe_table(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        bbs,
        side,
        np.int64(1),
        wdl,
        moves[PROBE_PLIES],
    )
    if status == 0:
        return 0, 0
    if status == 1:
        return _before_zeroing(wdl) + (dtz if wdl > 0 else -dtz), 1
    # The table holds the other side to move: look one move ahead.
    if wdl > 0:
        best = 0xFFFF
        for i in range(n):
            m = mine[i]
            frm = m & 63
            to = (m >> 6) & 63
            if _kind_on(bbs, side, frm) == 1 or bbs[them] & (np.uint64(1) << np.uint64(to)):
                continue
            if not play(bbs, child, side, m):
                continue
            v, ok = _dtz_no_ep(
                files,
                keys,
                entries,
                tables,
                pairs,
                symlen,
                base,
                level + 1,
                side ^ 1,
                np.int64(NO_SQUARE),
                stack,
                moves,
                dboards,
                dmoves,
            )
            if not ok:
                return 0, 0
            v = -v
            if v == 1 and _mated(child, side ^ 1, stack[0]):
                best = 1
            elif v > 0 and v + 1 < best:
                best = v + 1
        return best, 1
    best = -1
    for i in range(n):
        m = mine[i]
        frm = m & 63
        to = (m >> 6) & 63
        if not play(bbs, child, side, m):
            continue
        zeroing = _kind_on(bbs, side, frm) == 1 or bbs[them] & (np.uint64(1) << np.uint64(to))
        if zeroing:
            if wdl == -2:
                v = -1
            else:
                v, status = probe_ab_at(
                    files,
                    keys,
                    entries,
                    tables,
                    pairs,
                    symlen,
                    base,
                    child,
                    side ^ 1,
                    np.int64(1),
                    np.int64(2),
                    stack,
                    moves,
                )
                if status == 0:
                    return 0, 0
                v = 0 if v == 2 else -101
        else:
            v, ok = _dtz_no_ep(
                files,
                keys,
                entries,
                tables,
                pairs,
                symlen,
                base,
                level + 1,
                side ^ 1,
                np.int64(NO_SQUARE),
                stack,
                moves,
                dboards,
                dmoves,
            )
            if not ok:
                return 0, 0
            v = -v - 1
        if v < best:
            best = v
    return best, 1


@njit(cache=True, nogil=True)
def _merge_ep(
    files,
    keys,
    entries,
    tables,
    pairs,
    symlen,
    base,
    level: int,
    side: int,
    ep: int,
    stack: np.ndarray,
    moves: np.ndarray,
    dboards: np.ndarray,
    dmoves: np.ndarray,
) -> tuple[int, int]:
    """DTZ of ``dboards[level]`` with ``side`` to move and en passant on ``ep``; (dtz, ok)."""
    v, ok = _dtz_no_ep(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        level,
        side,
        ep,
        stack,
        moves,
        dboards,
        dmoves,
    )
    if not ok:
        return 0, 0
    if ep <= 0 or ep >= 64:
        return v, 1
    if level + 1 >= DTZ_LEVELS:
        return 0, 0
    bbs = dboards[level]
    child = dboards[level + 1]
    eps = dmoves[level]
    n = gen_ep_captures(bbs, side, ep, eps)
    best = -3
    for i in range(n):
        if not play(bbs, child, side, eps[i]):
            continue
        v0, status = probe_ab_at(
            files,
            keys,
            entries,
            tables,
            pairs,
            symlen,
            base,
            child,
            side ^ 1,
            np.int64(-2),
            np.int64(2),
            stack,
            moves,
        )
        if status == 0:
            return 0, 0
        if -v0 > best:
            best = -v0
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
    elif v1 >= 0 or not has_legal_move_but_ep(bbs, side, stack[0]):
        v = v1
    return v, 1


@njit(cache=True, nogil=True)
def probe_dtz(
    files,
    keys,
    entries,
    tables,
    pairs,
    symlen,
    base,
    bbs: np.ndarray,
    side: int,
    ep: int,
    stack: np.ndarray,
    moves: np.ndarray,
    dboards: np.ndarray,
    dmoves: np.ndarray,
) -> tuple[int, int]:
    """DTZ of a position for the side to move, and 1, or (0, 0) if it cannot be probed.

    Needs the WDL and DTZ tables of the position and the WDL tables its captures
    reach. ``stack``/``moves`` come from ``syzygy.new_scratch``, ``dboards``/``dmoves``
    from ``new_dtz_scratch``.
    """
    if (
        dboards.shape[0] < DTZ_LEVELS
        or dboards.shape[1] < 16
        or dmoves.shape[0] < DTZ_LEVELS
        or dmoves.shape[1] < MAX_MOVES
        or stack.shape[0] < PROBE_PLIES
        or moves.shape[0] < PROBE_PLIES + 1
        or bbs.shape[0] < 16
    ):
        return 0, 0
    for i in range(16):
        dboards[0, i] = bbs[i]
    return _merge_ep(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        np.int64(0),
        side,
        ep,
        stack,
        moves,
        dboards,
        dmoves,
    )


@njit(cache=True, nogil=True)
def probe_root_dtz(
    files,
    keys,
    entries,
    tables,
    pairs,
    symlen,
    base,
    bbs: np.ndarray,
    side: int,
    ep: int,
    out_moves: np.ndarray,
    out_dtz: np.ndarray,
    stack: np.ndarray,
    moves: np.ndarray,
    dboards: np.ndarray,
    dmoves: np.ndarray,
) -> int:
    """Each legal root move and its DTZ counted from the root; the number of moves, -1 if unknown.

    Moves are written as ``from | to << 6 | promotion kind << 12`` to ``out_moves``
    (``int64[MAX_MOVES]``) and their DTZ from the mover's side to ``out_dtz``: a
    zeroing move scores its child's WDL as a zeroing DTZ (1, 101, 0, -101, -1),
    any other move the child's DTZ one ply further (so a win in n becomes n + 1),
    and a mate 1. This is what a search needs to rank root moves (Stockfish's
    ``root_probe`` adds the fifty-move counter and repetitions to it).
    """
    if (
        out_moves.shape[0] < MAX_MOVES
        or out_dtz.shape[0] < MAX_MOVES
        or bbs.shape[0] < 16
        or popcount(bbs[0] | bbs[8]) > MAX_MEN
    ):
        return -1
    them = (side ^ 1) * 8
    child = np.empty(16, dtype=np.uint64)
    n = gen_moves(bbs, side, ep, out_moves)
    kept = 0
    for i in range(n):
        m = out_moves[i]
        frm = m & 63
        to = (m >> 6) & 63
        if not play(bbs, child, side, m):
            continue
        pawn = _kind_on(bbs, side, frm) == 1
        if pawn or bbs[them] & (np.uint64(1) << np.uint64(to)):
            child_ep = (frm + to) >> 1 if pawn and (frm ^ to) == 16 else NO_SQUARE
            wdl, ok = probe_wdl(
                files,
                keys,
                entries,
                tables,
                pairs,
                symlen,
                base,
                child,
                side ^ 1,
                np.int64(child_ep),
                stack,
                moves,
            )
            dtz = _before_zeroing(-wdl)
        else:
            d, ok = probe_dtz(
                files,
                keys,
                entries,
                tables,
                pairs,
                symlen,
                base,
                child,
                side ^ 1,
                np.int64(NO_SQUARE),
                stack,
                moves,
                dboards,
                dmoves,
            )
            dtz = -d + 1 if d < 0 else (-d - 1 if d > 0 else 0)
            if dtz == 2 and _mated(child, side ^ 1, stack[0]):
                dtz = 1
        if not ok:
            return -1
        out_moves[kept] = m
        out_dtz[kept] = dtz
        kept += 1
    return kept
