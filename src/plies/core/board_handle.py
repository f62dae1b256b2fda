"""A position passed to compiled code as a plain integer: the board's per-move calls.

Handing numba a structref from Python costs an attribute lookup and a conversion on every
call, more than the move itself; a plain integer costs almost nothing. The board keeps its
``Position`` object alive and passes its address (``handle_of``); ``position_at`` turns the
address back into the position inside compiled code, holding a reference of its own for
as long as it is used. Only the board calls these, always with a live position's handle.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, typeof, types
from numba.core import cgutils
from numba.extending import intrinsic

from plies.core import makemove as _makemove
from plies.core import position as _position
from plies.core.position import Position, new_position

POSITION_TYPE = typeof(new_position([0] * 64, 0, 0, 64, 0, 1))
"""The compiled type of every position the board holds."""
_GREW = 1 << 20


@intrinsic
def _address(typingctx: Any, pos: Any) -> Any:
    """The address of a position's memory block, as an int64."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        st = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0])
        return builder.ptrtoint(st.meminfo, context.get_value_type(types.int64))

    return types.int64(pos), codegen


@intrinsic
def _at(typingctx: Any, address: Any) -> Any:
    """The position whose memory block is at ``address`` (a new reference to it)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        st = cgutils.create_struct_proxy(POSITION_TYPE)(context, builder)
        st.meminfo = builder.inttoptr(args[0], st.meminfo.type)
        value = st._getvalue()
        context.nrt.incref(builder, POSITION_TYPE, value)
        return value

    return POSITION_TYPE(types.int64), codegen


@njit(cache=True)
def handle_of(pos: Position) -> int:
    """The integer the per-move calls take for ``pos`` (valid while ``pos`` lives)."""
    return _address(pos)


@njit(cache=True, nogil=True)
def push_at(handle: int, m: int) -> int:
    """Play legal move integer ``m`` on the position of ``handle``; 1 << 20 if its undo
    stack was reallocated, else 0."""
    pos = _at(handle)
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, m)
    return _GREW if grew else 0


@njit(cache=True, nogil=True)
def pop_at(handle: int) -> None:
    """Take back the last move (a null move too) on the position of ``handle``."""
    pos = _at(handle)
    if _makemove.after_null(pos):
        _makemove.unmake_null(pos)
        if pos.side == 1:
            pos.fullmove -= 1
    else:
        _makemove.unmake_move(pos)
