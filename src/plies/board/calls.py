"""The board's compiled calls, bound once to their compiled code.

A call through a numba dispatcher first works out the types of its arguments, and for a
structref (the core's ``Position``) that costs microseconds: more than the move it plays.
The board calls each function with one fixed signature, so it binds that signature's
compiled entry point once (loaded from the on-disk cache, or compiled on the first use) and
calls it directly: a push or a pop is then one step into the core.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import typeof, types

from plies.core import board_entry as _entry
from plies.core import board_fen as _fen
from plies.core import board_handle as _handle
from plies.core import copy_position, position_arrays
from plies.core.encoding import MAX_MOVES

Entry = Callable[..., Any]


class Calls:
    """The compiled entry points the board uses, each bound to the board's one signature."""

    def __init__(self) -> None:
        """Bind every entry point for the board's positions' type."""
        p = _handle.POSITION_TYPE
        i64 = types.int64
        fields = typeof(np.zeros(_fen.FIELDS, dtype=np.int64))  # type: ignore[no-untyped-call]
        moves = typeof(np.zeros(MAX_MOVES, dtype=np.int64))  # type: ignore[no-untyped-call]
        text = typeof(np.zeros(TEXT_BYTES, dtype=np.uint8))  # type: ignore[no-untyped-call]
        self.push_named: Entry = _handle.push_named_at.compile((i64, i64))
        """``(handle, name) -> code | GREW``, 0 when no legal move has that name."""
        self.push_code: Entry = _entry.push_code.compile((p, i64))
        """``(pos, code) -> GREW or 0``: play a move of the position's own legal list."""
        self.handle_of: Entry = _handle.handle_of.compile((p,))
        """``(pos) -> handle``: the integer the two calls below take for ``pos``."""
        self.push_at: Entry = _handle.push_at.compile((i64, i64))
        """``(handle, code) -> GREW or 0``: play a move of the position's own legal list."""
        self.pop_at: Entry = _handle.pop_at.compile((i64,))
        """``(handle)``: take back the last move (a null move too)."""
        self.push_pass: Entry = _entry.push_pass.compile((p,))
        """``(pos) -> GREW or 0``: play a null move."""
        self.pop_move: Entry = _entry.pop_move.compile((p,))
        """``(pos)``: take back the last move (a null move too)."""
        self.legal: Entry = _handle.legal_at.compile((i64, moves))
        """``(handle, out) -> count``: the legal moves into ``out``."""
        self.status: Entry = _handle.status_at.compile((i64,))
        """``(handle) -> bits``: check, no moves, dead position, move counts, repetitions."""
        self.check_after: Entry = _handle.check_after_at.compile((i64, i64))
        """``(handle, code) -> 0, 1 (check) or 2 (mate) | GREW``."""
        self.san: Entry = _handle.san_at.compile((i64, i64))
        """``(handle, code) -> SAN bytes, 7 bits each | SAN_GREW``: the move's SAN."""
        self.read_san: Entry = _handle.read_san_at.compile((i64, types.unicode_type))
        """``(handle, san) -> code``, 0 none, -1 several, ``NOT_READ`` not a piece or pawn
        move in SAN."""
        self.illegal: Entry = _handle.illegal_at.compile((i64,))
        """``(handle) -> bool``: whether the side not to move is in check."""
        self.in_check: Entry = _entry.side_in_check.compile((p,))
        """``(pos) -> bool``: whether the side to move is in check."""
        self.placement: Entry = _handle.placement_at.compile((i64, text))
        """``(handle, out) -> length``: the FEN's placement field into ``out``."""
        self.state: Entry = _handle.state_at.compile((i64,))
        """``(handle) -> (side, castling, ep, halfmove, fullmove, ply)``."""
        self.arrays: Entry = position_arrays.compile((p,))
        """``(pos) -> (pieces, squares, keys)``: live views of the position's arrays."""
        self.copy: Entry = copy_position.compile((p,))
        """``(pos) -> Position``: an independent copy, full undo stack."""
        self.compact_copy: Entry = _entry.compact_copy.compile((p,))
        """``(pos) -> Position``: an independent copy sized to its history."""
        self.read_fen: Entry = _fen.read_fen.compile((types.unicode_type, fields))
        """``(fen, fields) -> bool``: a plainly written standard FEN into ``fields``."""
        self.build_board: Entry = _fen.build_board.compile((i64, fields))
        """``(template handle, fields) -> (pos, handle, info)``: the position read (info: the
        side not to move in check, bit 0; the side to move, bit 1; castling bits above)."""
        self.fen_text: Entry = _fen.fen_text.compile((i64, text))
        """``(handle, out) -> length | 1 << 8 if an en-passant square was written``."""


TEXT_BYTES = _fen.FEN_BYTES
"""Room for the longest text a compiled call writes (a FEN)."""
_local = threading.local()


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's move, text and FEN-field buffers for the compiled calls (a thread's
    calls run one at a time, so one set per thread is never shared by two calls at once)."""
    try:
        return _local.buffers  # type: ignore[no-any-return]
    except AttributeError:
        _local.buffers = (np.zeros(MAX_MOVES, dtype=np.int64), np.zeros(TEXT_BYTES, np.uint8),
                          np.zeros(_fen.FIELDS, dtype=np.int64))  # fmt: skip
        return _local.buffers  # type: ignore[no-any-return]


_bound: Calls | None = None


def calls() -> Calls:
    """The bound entry points (bound on the first call)."""
    global _bound
    if _bound is None:
        _bound = Calls()
    return _bound


GREW = _entry.GREW
"""Bit of a push's result that says the undo stack was reallocated."""
CHECK, NO_MOVES, DEAD = _entry.CHECK, _entry.NO_MOVES, _entry.DEAD
FIFTY, SEVENTY_FIVE = _entry.FIFTY, _entry.SEVENTY_FIVE
THREEFOLD, FIVEFOLD = _entry.THREEFOLD, _entry.FIVEFOLD
