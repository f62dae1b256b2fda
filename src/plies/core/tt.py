"""Transposition table: two-entry buckets of packed 64-bit records.

Slot ``i`` is the row ``slots[i] = (zobrist ^ data, data)`` (the data word
held as its uint64 bit pattern), so a slot torn by two writers (the lazy-SMP
helpers) fails verification instead of returning another position's data. A
bucket's two slots are 32 adjacent bytes, one cache line (with separate key and
data arrays a probe touched two lines). The data word::

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
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.experimental import structref
from numba.extending import intrinsic

from plies.core.bits import U64
from plies.jitstruct import CoreStruct, register

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
    """The transposition table (Python handle): ``slots``, one (check, data) row per slot.

    Shared by every search thread of an engine; build it with ``new_table``.
    """


structref.define_proxy(Table, TableType, ["slots"])


@njit(cache=True)
def _wrap(slots: np.ndarray) -> Table:
    """A table over the given slot array."""
    return Table(slots)


def allocate(megabytes: int) -> np.ndarray:
    """Zeroed ``(slots, 2)`` uint64 rows using at most ``megabytes`` MB (a power-of-two count)."""
    slots = max(2, (max(1, megabytes) * 1024 * 1024) // 16)
    slots = 1 << (slots.bit_length() - 1)
    return np.zeros((slots, 2), dtype=np.uint64)


def new_table(megabytes: int) -> tuple[Table, np.ndarray, np.ndarray]:
    """An empty table of at most ``megabytes`` MB, with views of its key and data columns.

    The views (uint64 checks, int64 data words) let the Python layer clear and
    measure the table; together they cover its memory.
    """
    slots = allocate(megabytes)
    return _wrap(slots), slots[:, 0], slots[:, 1].view(np.int64)


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


@intrinsic
def _prefetch_row(typingctx, rows, index):  # type: ignore[no-untyped-def]
    """Hint the CPU to load row ``index`` of a C-contiguous 2-D array into the cache."""
    sig = types.void(rows, index)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        """Emit ``llvm.prefetch`` (read, keep in all cache levels, data) of the row's address."""
        aryty, idxty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        row = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer2(
            context, builder, ary.data, cgutils.unpack_tuple(builder, ary.shape),
            cgutils.unpack_tuple(builder, ary.strides), aryty.layout, [row, zero],
        )  # fmt: skip
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def prefetch(table: Table, key: np.uint64) -> None:
    """Start loading ``key``'s bucket, so a probe soon after finds it in the cache.

    Meant for right after ``make_move``: the child's probe then waits less for memory.
    """
    slots = table.slots
    _prefetch_row(slots, np.int64(key & U64(slots.shape[0] - 2)))


@njit(cache=True, nogil=True, _nrt=False)
def probe(table: Table, key: np.uint64, ply: int) -> tuple[bool, int, int, int, int, int]:
    """Look ``key`` up: ``(hit, move, score, depth, bound, static eval)``; a miss has move 0."""
    slots = table.slots
    base = np.int64(key & U64(slots.shape[0] - 2))
    for i in range(base, base + 2):
        data = np.int64(slots[i, 1])
        if slots[i, 0] ^ U64(data) == key and data != 0:
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
    move: int,
    score: int,
    depth: int,
    bound: int,
    age: int,
    static: int,
) -> None:
    """Record a search result (and static eval), keeping the old best move if none is given.

    ``score`` is as stored: a mate score made relative to this node by ``score_to_tt``.
    """
    slots = table.slots
    base = np.int64(key & U64(slots.shape[0] - 2))
    slot = base + 1
    for i in range(base, base + 2):
        if slots[i, 0] ^ slots[i, 1] == key:
            slot = i
            if move == 0:
                move = np.int64(slots[i, 1]) & 0xFFFF
            break
    else:
        old = np.int64(slots[base, 1])
        old_depth = ((old >> 32) & 0xFF) - 1
        old_age = (old >> 42) & 0xFF
        if old == 0 or old_age != age or depth >= old_depth:
            # The deep slot's occupant moves to the always-replace slot.
            slots[base + 1, 0] = slots[base, 0]
            slots[base + 1, 1] = slots[base, 1]
            slot = base
    depth = max(-1, min(depth, 250))
    stored = 0
    if -_EVAL_BIAS < static < _EVAL_BIAS:
        stored = static + _EVAL_BIAS
    data = (
        (move & 0xFFFF)
        | ((score + 32768) << 16)
        | ((depth + 1) << 32)
        | (bound << 40)
        | ((age & 0xFF) << 42)
        | (stored << 50)
    )
    slots[slot, 0] = key ^ U64(data)
    slots[slot, 1] = U64(data)


@njit(cache=True, nogil=True, _nrt=False)
def hashfull(table: Table, age: int) -> int:
    """Permille of the first 1000 slots used by the current search."""
    slots = table.slots
    n = min(1000, slots.shape[0])
    used = 0
    for i in range(n):
        data = np.int64(slots[i, 1])
        if data != 0 and ((data >> 42) & 0xFF) == (age & 0xFF):
            used += 1
    return used * 1000 // n
