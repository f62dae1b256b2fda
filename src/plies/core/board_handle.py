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

from plies.core import board_entry as _entry
from plies.core import makemove as _makemove
from plies.core import movegen as _movegen
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


@njit(cache=True, nogil=True)
def legal_at(handle: int, out: np.ndarray) -> int:
    """Write the legal moves of the position of ``handle`` into ``out``; their number."""
    return _movegen.gen_moves(_at(handle), out, np.bool_(False))


@njit(cache=True, nogil=True)
def status_at(handle: int) -> int:
    """``board_entry.game_status`` of the position of ``handle``."""
    return _entry.game_status(_at(handle))


@njit(cache=True, nogil=True)
def state_at(handle: int) -> tuple[int, int, int, int, int, int]:
    """``(side, castling, ep, halfmove, fullmove, ply)`` of the position of ``handle``."""
    pos = _at(handle)
    return pos.side, pos.castling, pos.ep, pos.halfmove, pos.fullmove, pos.ply


@njit(cache=True, nogil=True)
def check_after_at(handle: int, m: int) -> int:
    """``board_entry.check_after`` on the position of ``handle``."""
    return _entry.check_after(_at(handle), m)


@njit(cache=True, nogil=True)
def push_named_at(handle: int, named: int) -> int:
    """``board_entry.push_named`` on the position of ``handle``."""
    return _entry.push_named(_at(handle), named)


@njit(cache=True, nogil=True)
def illegal_at(handle: int) -> bool:
    """Whether the side not to move is in check on the position of ``handle``."""
    return _position.opponent_in_check(_at(handle))


SAN_GREW = 1 << 62
"""Bit of ``san_at``'s result set when the undo stack was reallocated."""


@njit(cache=True, nogil=True)
def san_at(handle: int, m: int) -> int:
    """The SAN of legal move ``m`` on the position of ``handle``, ``+`` or ``#`` included,
    as one integer: its ASCII bytes (at most 7: ``Qa1xb2+``, ``exd8=Q#``) 7 bits each, the
    first lowest, ``| SAN_GREW`` if the undo stack was reallocated. An integer, not text
    in a buffer: the board keeps each SAN's string by it, so writing one is a look-up."""
    pos = _at(handle)
    out = np.zeros(8, dtype=np.uint8)
    n = _entry.san_body(pos, m, out)
    given = _entry.check_after(pos, m)
    grew = given & _GREW
    given &= ~_GREW
    packed = 0
    for i in range(n):
        packed |= np.int64(out[i]) << (7 * i)
    if given:
        packed |= (35 if given == 2 else 43) << (7 * n)  # "#" or "+"
    return packed | SAN_GREW if grew else packed


@njit(cache=True, nogil=True)
def placement_at(handle: int, out: np.ndarray) -> int:
    """``board_entry.placement_text`` on the position of ``handle``."""
    return _entry.placement_text(_at(handle), out)


@njit(cache=True, nogil=True)
def read_san_at(handle: int, text: str) -> int:
    """``board_entry.read_san`` on the position of ``handle``."""
    return _entry.read_san(_at(handle), text)
