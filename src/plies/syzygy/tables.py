"""The one compiled value every probe takes: ``Tables``, the linked tables and a thread's scratch.

Fields (numba structref, one argument however many arrays it holds):

    addresses int64[n, 2]    each table file's address and length (the bytes are read
                             through these; whoever built the value keeps the mappings
                             alive: ``plies.syzygy.tablebase.Tablebase``)
    keys      int64[k]       sorted lookup keys, ``material_key * 2 + kind`` (kind 0: WDL,
                             1: DTZ)
    entries   int64[k, 2]    beside ``keys``: the table row and whether the key is the
                             table's own (1) or its colour-mirrored key (0)
    rows      int64[t, TABLE_WIDTH]   one row per table (``plies.syzygy.format``)
    pairs     int64[p, PAIRS_WIDTH]   one row per compressed block set
    symlen    int64[...]     every block set's symbol lengths end to end
    base      uint64[...]    every block set's canonical-code bases end to end
    moves     int64[MOVE_ROWS + 1, MAX_MOVES]   scratch: one move list per capture
                             ply of a WDL probe, one per level of a DTZ probe's
                             look-ahead, and (last row) the index encoder's squares
    limits    int64[4]       men (0: the search never probes), least depth, 1 if the
                             fifty-move rule counts, and the probes answered (tbhits)

The tables are shared; ``moves`` and ``limits`` belong to one thread, so each
search thread (and the root) gets its own value over the same tables
(``share``). ``no_tables()`` is the value used until tables are loaded.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.experimental import structref

from plies.core.encoding import MAX_MOVES
from plies.jitstruct import CoreStruct, register
from plies.syzygy.format import MAX_MEN, PAIRS_WIDTH, TABLE_WIDTH

TB_MEN, TB_DEPTH, TB_RULE50, TB_HITS = 0, 1, 2, 3
"""Indices into ``Tables.limits``."""

MAX_PROBE_MEN = MAX_MEN + 1
"""Resolving captures lets a probe start one man above the largest table."""
PROBE_PLIES = MAX_PROBE_MEN + 1
"""Move rows of a WDL probe: the root, then one per capture (down to two men)."""
DTZ_LEVELS = 4
"""Move rows of a DTZ probe: the root, its moves, their moves, and room for one more."""
MOVE_ROWS = PROBE_PLIES + DTZ_LEVELS
"""Scratch move rows; row ``MOVE_ROWS`` holds the index encoder's squares."""
PROBE_ROOM = MOVE_ROWS + 2
"""Free plies a position's undo stack needs for any probe (every level of both)."""

TABLES_FIELDS = (
    "addresses", "keys", "entries", "rows", "pairs", "symlen", "base", "moves", "limits",
)  # fmt: skip


@register
class TablesType(CoreStruct):
    """numba type of ``Tables``."""


class Tables(structref.StructRefProxy):
    """Linked Syzygy tables with one thread's scratch (Python handle); see ``new_tables``.

    A handle made by ``plies.syzygy.tablebase.Tablebase`` keeps the table files it
    reads in ``owner``, so the mappings outlive every probe through it.
    """


structref.define_proxy(Tables, TablesType, list(TABLES_FIELDS))


@njit(cache=True)
def new_scratch() -> tuple[np.ndarray, np.ndarray]:
    """A thread's ``moves`` and ``limits`` (all 0: no probing by the search)."""
    return (np.zeros((MOVE_ROWS + 1, MAX_MOVES), dtype=np.int64),
            np.zeros(4, dtype=np.int64))  # fmt: skip


@njit(cache=True)
def new_tables(
    addresses: np.ndarray, keys: np.ndarray, entries: np.ndarray, rows: np.ndarray,
    pairs: np.ndarray, symlen: np.ndarray, base: np.ndarray,
) -> Tables:  # fmt: skip
    """Tables over linked arrays (``plies.syzygy.tablebase``) with scratch of their own."""
    moves, limits = new_scratch()
    return Tables(addresses, keys, entries, rows, pairs, symlen, base, moves, limits)


@njit(cache=True)
def share(tables: Tables, moves: np.ndarray, limits: np.ndarray) -> Tables:
    """The same tables with another thread's scratch."""
    return Tables(tables.addresses, tables.keys, tables.entries, tables.rows, tables.pairs,
                  tables.symlen, tables.base, moves, limits)  # fmt: skip


@njit(cache=True)
def _empty(moves: np.ndarray, limits: np.ndarray) -> Tables:
    """Tables holding no table at all (every probe fails)."""
    return Tables(np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64),
                  np.zeros((0, 2), dtype=np.int64), np.zeros((1, TABLE_WIDTH), dtype=np.int64),
                  np.zeros((0, PAIRS_WIDTH), dtype=np.int64), np.zeros(0, dtype=np.int64),
                  np.zeros(0, dtype=np.uint64), moves, limits)  # fmt: skip


def no_tables() -> tuple[Tables, np.ndarray]:
    """Tables the search never probes (``limits[TB_MEN]`` is 0), and their limits array."""
    moves, limits = new_scratch()
    return _empty(moves, limits), limits
