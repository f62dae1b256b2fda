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
from numba.experimental import structref

from plies.core.bits import U64
from plies.core.structs import CoreStruct, register

BOUND_UPPER = 1
BOUND_LOWER = 2
BOUND_EXACT = 3

MATE = 32000
MATE_BOUND = MATE - 512  # scores beyond this are mates, shifted by ply on store/probe

NO_EVAL = -32767  # probe result when the entry holds no static evaluation
_EVAL_BIAS = 8192


@register
class TableType(CoreStruct):
    """numba type of ``Table``."""


class Table(structref.StructRefProxy):
    """The transposition table (Python handle): ``keys`` and ``data``, one slot each.

    Shared by every search thread of an engine; build it with ``new_table``.
    """


structref.define_proxy(Table, TableType, ["keys", "data"])


@njit(cache=True)
def _wrap(keys: np.ndarray, data: np.ndarray) -> Table:
    """A table over the given arrays."""
    return Table(keys, data)


def allocate(megabytes: int) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed table arrays using at most ``megabytes`` MB (a power-of-two slot count)."""
    slots = max(2, (max(1, megabytes) * 1024 * 1024) // 16)
    slots = 1 << (slots.bit_length() - 1)
    return np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.int64)


def new_table(megabytes: int) -> tuple[Table, np.ndarray, np.ndarray]:
    """An empty table of at most ``megabytes`` MB, with its ``keys`` and ``data`` arrays."""
    keys, data = allocate(megabytes)
    return _wrap(keys, data), keys, data


@njit(cache=True, nogil=True, _nrt=False)
def score_to_tt(score: int, ply: int) -> int:
    """Make a mate score relative to the storing node."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True, _nrt=False)
def score_from_tt(score: int, ply: int) -> int:
    """Make a stored mate score relative to the root again."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True, _nrt=False)
def probe(table: Table, key: np.uint64, ply: int) -> tuple[bool, int, int, int, int, int]:
    """Look ``key`` up: ``(hit, move, score, depth, bound, static eval)``; a miss has move 0."""
    keys = table.keys
    base = np.int64(key & U64(keys.shape[0] - 2))
    for i in range(base, base + 2):
        data = table.data[i]
        if keys[i] ^ U64(data) == key and data != 0:
            stored = (data >> 50) & 0x3FFF
            return (
                True,
                data & 0xFFFF,
                score_from_tt(((data >> 16) & 0xFFFF) - 32768, ply),
                ((data >> 32) & 0xFF) - 1,
                (data >> 40) & 3,
                NO_EVAL if stored == 0 else stored - _EVAL_BIAS,
            )
    return False, 0, 0, 0, 0, NO_EVAL


@njit(cache=True, nogil=True, _nrt=False)
def store(
    table: Table,
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
    tt_keys = table.keys
    tt_data = table.data
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


@njit(cache=True, nogil=True, _nrt=False)
def hashfull(table: Table, age: int) -> int:
    """Permille of the first 1000 slots used by the current search."""
    tt_data = table.data
    n = min(1000, tt_data.shape[0])
    used = 0
    for i in range(n):
        if tt_data[i] != 0 and ((tt_data[i] >> 42) & 0xFF) == (age & 0xFF):
            used += 1
    return used * 1000 // n
