"""A cheap clock for compiled code: the processor's cycle counter.

Reading Python's clock from compiled code (``numba.objmode``) costs about a
microsecond, as much as a short grid search; the cycle counter costs a few
nanoseconds.  ``GridSearcher`` measures the counter's rate once per process
to turn cycles into seconds.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _cycles(typingctx):  # type: ignore[no-untyped-def]
    """The processor's cycle counter (``llvm.readcyclecounter``; 0 where there is none)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        """Emit the counter read."""
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return types.int64(), codegen


@njit(cache=True)
def clock():  # type: ignore[no-untyped-def]
    """Cycle count as a float: ~10 ns to read, against ~1 us for Python's clock from
    compiled code; ``GridSearcher.batch`` turns cycles into seconds."""
    return float(_cycles())


@njit(cache=True)
def cycles_now():  # type: ignore[no-untyped-def]
    """The cycle counter, for Python to measure its rate."""
    return _cycles()
