"""A compiled position from a checked FEN, with the castling tables each set of rights needs
worked out once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import typeof

from plies.board.fen import ParsedFen
from plies.core.position import (
    _NO_NET,
    Position,
    _build,
    castling_tables,
)
from plies.core.tables import SLIDER_ATTACKS

_tables: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
_build_entry: Callable[..., Any] | None = None


def _castling(mailbox: tuple[int, ...], rooks: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The position's castling tables: a function of the rights' rooks and the kings, so
    positions that share them share one (read-only) set."""
    key = rooks
    if any(sq != 64 for sq in rooks):
        key = (*rooks, mailbox.index(6), mailbox.index(14))  # the kings' squares
    found = _tables.get(key)
    if found is None:
        found = _tables[key] = castling_tables(mailbox, rooks)
    return found


def build_position(parsed: ParsedFen, rights: int, ep: int, rooks: tuple[int, ...]) -> Position:
    """The compiled position of a validated FEN (castling ``rights`` with their ``rooks``)."""
    global _build_entry
    state = np.array([parsed.side, rights, ep, parsed.halfmove, parsed.fullmove], dtype=np.int64)
    args = (np.array(parsed.mailbox, dtype=np.int64), state, SLIDER_ATTACKS,
            _castling(parsed.mailbox, rooks), _NO_NET)  # fmt: skip
    if _build_entry is None:
        # Bound to these arguments' signature (callers in compiled code may add others).
        _build_entry = _build.compile(tuple(typeof(a) for a in args))  # type: ignore[no-untyped-call]
    return _build_entry(*args)  # type: ignore[no-any-return, arg-type]
