"""Transposition table: two-entry buckets of packed 64-bit records.

Each slot holds ``keys[i] = zobrist ^ data`` and ``data[i]``, so a slot torn by
two writers (a future multi-threaded search) fails verification instead of
returning another position's data. The data word::

    bits  0-15  best move (16-bit move encoding, 0 if none)
    bits 16-31  score + 32768 (mate scores stored relative to this node)
    bits 32-39  depth + 1 (quiescence entries have depth 0)
    bits 40-41  bound: 1 upper, 2 lower, 3 exact
    bits 42-49  age (search generation) for replacement
    bits 50-63  static evaluation + 8192 (0 when unknown, e.g. in check)

Slot ``2k`` of a bucket keeps the deepest result, slot ``2k+1`` the newest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import U64

BOUND_UPPER = 1
BOUND_LOWER = 2
BOUND_EXACT = 3

MATE = 32000
MATE_BOUND = MATE - 512  # scores beyond this are mates, shifted by ply on store/probe

# Indices of the probe result array.
P_HIT = 0
P_MOVE = 1
P_SCORE = 2
P_DEPTH = 3
P_BOUND = 4
P_EVAL = 5
P_SIZE = 6

NO_EVAL = -32767  # probe result when the entry holds no static evaluation
_EVAL_BIAS = 8192


def allocate(megabytes: int) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed table arrays using at most ``megabytes`` MB (a power-of-two slot count)."""
    slots = max(2, (max(1, megabytes) * 1024 * 1024) // 16)
    slots = 1 << (slots.bit_length() - 1)
    return np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.int64)


@njit(cache=True, nogil=True)
def score_to_tt(score: int, ply: int) -> int:
    """Make a mate score relative to the storing node."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True)
def score_from_tt(score: int, ply: int) -> int:
    """Make a stored mate score relative to the root again."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True)
def probe(
    tt_keys: np.ndarray, tt_data: np.ndarray, key: np.uint64, ply: int, out: np.ndarray
) -> bool:
    """Look ``key`` up; on a hit fill ``out`` (move, score, depth, bound) and return True."""
    base = np.int64(key & U64(tt_keys.shape[0] - 2))
    for i in range(base, base + 2):
        data = tt_data[i]
        if tt_keys[i] ^ U64(data) == key and data != 0:
            out[P_HIT] = 1
            out[P_MOVE] = data & 0xFFFF
            out[P_SCORE] = score_from_tt(((data >> 16) & 0xFFFF) - 32768, ply)
            out[P_DEPTH] = ((data >> 32) & 0xFF) - 1
            out[P_BOUND] = (data >> 40) & 3
            stored = (data >> 50) & 0x3FFF
            out[P_EVAL] = NO_EVAL if stored == 0 else stored - _EVAL_BIAS
            return True
    out[P_HIT] = 0
    out[P_MOVE] = 0
    return False


@njit(cache=True, nogil=True)
def store(
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
    ply: int,
    move: int,
    score: int,
    depth: int,
    bound: int,
    age: int,
    static: int,
) -> None:
    """Record a search result (and static eval), keeping the old best move if none is given."""
    base = np.int64(key & U64(tt_keys.shape[0] - 2))
    slot = base + 1
    for i in range(base, base + 2):
        if tt_keys[i] ^ U64(tt_data[i]) == key:
            slot = i
            if move == 0:
                move = tt_data[i] & 0xFFFF
            break
    else:
        old = tt_data[base]
        old_depth = ((old >> 32) & 0xFF) - 1
        old_age = (old >> 42) & 0xFF
        if old == 0 or old_age != age or depth >= old_depth:
            # The deep slot's occupant moves to the always-replace slot.
            tt_keys[base + 1] = tt_keys[base]
            tt_data[base + 1] = old
            slot = base
    depth = max(-1, min(depth, 250))
    stored = 0
    if -_EVAL_BIAS < static < _EVAL_BIAS:
        stored = static + _EVAL_BIAS
    data = (
        (move & 0xFFFF)
        | ((score_to_tt(score, ply) + 32768) << 16)
        | ((depth + 1) << 32)
        | (bound << 40)
        | ((age & 0xFF) << 42)
        | (stored << 50)
    )
    tt_keys[slot] = key ^ U64(data)
    tt_data[slot] = data


@njit(cache=True, nogil=True)
def hashfull(tt_data: np.ndarray, age: int) -> int:
    """Permille of the first 1000 slots used by the current search."""
    n = min(1000, tt_data.shape[0])
    used = 0
    for i in range(n):
        if tt_data[i] != 0 and ((tt_data[i] >> 42) & 0xFF) == (age & 0xFF):
            used += 1
    return used * 1000 // n
