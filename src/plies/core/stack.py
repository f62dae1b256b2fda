"""The search stack: one search thread's memory (move ordering, PV, per-ply buffers).

``SearchStack`` is a numba structref over arrays the Python layer also holds
(``StackArrays``), so the engine reads the principal variation and writes the
root moves directly, while compiled code takes the whole stack as one argument.

    killers    int64[MAX_PLY + 2, 2]   two quiet moves that refuted each ply
    history    int64[2, 64, 64]        quiet-move success by colour, from, to
    counter    int64[16, 64]           the refutation of the previous move (piece, to)
    conthist   int16[16 * 64, 16 * 64] quiet-move success after a move one or two plies
                                       earlier (continuation history), by that move's
                                       (piece, to) and this move's (piece, to)
    played     int64[MAX_PLY + 2]      (piece, to) index of the move made at each ply
                                       (0 for a null move)
    excluded   int64[MAX_PLY + 2]      the move a singular-extension search at each ply
                                       leaves out (0: none)
    pv         int64[MAX_PLY + 2, MAX_PLY + 2]  triangular principal-variation table
    pv_len     int64[MAX_PLY + 2]      end of each ply's line in ``pv``
    moves      int64[MAX_PLY + 2, MAX_MOVES]  each ply's move list
    scores     int64[MAX_PLY + 2, MAX_MOVES]  each ply's ordering scores
    quiets     int64[MAX_PLY + 2, 64]  the quiet moves tried at each ply
    evals      int64[MAX_PLY + 2]      static evaluation at each ply
    root_moves int64[MAX_MOVES]        the root's moves, best first after a search
    params     int64[len(PARAMS)]      the search's tunable numbers (``plies.params``)
    lmr        int64[64, 64]           late-move reduction by depth and move number,
                                       computed from two of them
    tb         Tables                  the thread's Syzygy tables and scratch
                                       (``plies.syzygy.tables``; none by default)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.experimental import structref

from plies.core.encoding import MAX_MOVES, PIECE_SLOTS
from plies.jitstruct import CoreStruct, register
from plies.params import LMR_BASE, LMR_DIVISOR, default_values
from plies.syzygy.tables import Tables, no_tables

MAX_PLY = 128
"""Deepest ply the search reaches (buffers have two plies of slack)."""

QUIETS_PER_PLY = 64

STACK_FIELDS = (
    "killers", "history", "counter", "conthist", "played", "excluded", "pv", "pv_len",
    "moves", "scores", "quiets", "evals", "root_moves", "params", "lmr", "tb",
)  # fmt: skip


@register
class SearchStackType(CoreStruct):
    """numba type of ``SearchStack``."""


class SearchStack(structref.StructRefProxy):
    """One search thread's memory (Python handle); build it with ``new_stack``."""


structref.define_proxy(SearchStack, SearchStackType, list(STACK_FIELDS))


@njit(cache=True)
def _wrap(arrays: tuple[np.ndarray, ...], tb: Tables) -> SearchStack:
    """A stack over the given arrays (``StackArrays``'s, in field order)."""
    (killers, history, counter, conthist, played, excluded, pv, pv_len, moves, scores, quiets,
     evals, root_moves, params, lmr) = arrays  # fmt: skip
    return SearchStack(killers, history, counter, conthist, played, excluded, pv,
                       pv_len, moves, scores, quiets, evals, root_moves, params, lmr,
                       tb)  # fmt: skip


def lmr_table(base: int, divisor: int) -> np.ndarray:
    """Late-move reductions by depth and move number: ``base/100 + ln d ln m / (divisor/100)``
    plies, rounded down (the log-log shape of most engines)."""
    table = np.zeros((64, 64), dtype=np.int64)
    for d in range(1, 64):
        for m in range(1, 64):
            table[d, m] = int(base / 100 + math.log(d) * math.log(m) / (divisor / 100))
    return table


@dataclass(frozen=True)
class StackArrays:
    """The arrays of one ``SearchStack``, as the Python layer sees them (same memory)."""

    killers: np.ndarray
    history: np.ndarray
    counter: np.ndarray
    conthist: np.ndarray
    played: np.ndarray
    excluded: np.ndarray
    pv: np.ndarray
    pv_len: np.ndarray
    moves: np.ndarray
    scores: np.ndarray
    quiets: np.ndarray
    evals: np.ndarray
    root_moves: np.ndarray
    params: np.ndarray
    lmr: np.ndarray

    def copy(self) -> StackArrays:
        """Independent copies of every array (another thread's stack)."""
        return StackArrays(*(np.copy(getattr(self, name)) for name in STACK_FIELDS[:-1]))

    def compiled(self, tb: Tables | None = None) -> SearchStack:
        """The compiled stack over these arrays, probing ``tb`` (None: no tables)."""
        probe = no_tables()[0] if tb is None else tb
        return _wrap(tuple(getattr(self, name) for name in STACK_FIELDS[:-1]), probe)

    def set_params(self, values: Sequence[int]) -> None:
        """Search with ``values`` (slot order, checked by ``plies.params``) from the next
        search on; written in place, so the compiled stack sees them."""
        self.params[:] = values
        self.lmr[:] = lmr_table(int(self.params[LMR_BASE]), int(self.params[LMR_DIVISOR]))


def new_stack() -> StackArrays:
    """Zeroed arrays for one search thread, with the search's default numbers."""
    plies = MAX_PLY + 2
    defaults = default_values()
    return StackArrays(
        killers=np.zeros((plies, 2), dtype=np.int64),
        history=np.zeros((2, 64, 64), dtype=np.int64),
        counter=np.zeros((PIECE_SLOTS, 64), dtype=np.int64),
        conthist=np.zeros((PIECE_SLOTS * 64, PIECE_SLOTS * 64), dtype=np.int16),
        played=np.zeros(plies, dtype=np.int64),
        excluded=np.zeros(plies, dtype=np.int64),
        pv=np.zeros((plies, plies), dtype=np.int64),
        pv_len=np.zeros(plies, dtype=np.int64),
        moves=np.zeros((plies, MAX_MOVES), dtype=np.int64),
        scores=np.zeros((plies, MAX_MOVES), dtype=np.int64),
        quiets=np.zeros((plies, QUIETS_PER_PLY), dtype=np.int64),
        evals=np.zeros(plies, dtype=np.int64),
        root_moves=np.zeros(MAX_MOVES, dtype=np.int64),
        params=np.array(defaults, dtype=np.int64),
        lmr=lmr_table(defaults[LMR_BASE], defaults[LMR_DIVISOR]),
    )
