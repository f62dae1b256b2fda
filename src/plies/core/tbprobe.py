"""What a search thread needs to probe Syzygy WDL tables: one structref, ``TbProbe``.

Fields (the first seven are ``plies.tb.ProbeArrays``, in its order):

    files, keys, entries, tables, pairs, symlen, base   the linked tables
    addresses int64[n, 2]      each file's address and length: the search's way
                               to the bytes (``files`` keeps the mappings alive)
    boards   uint64[PROBE_PLIES, 16]   the prober's scratch (``new_scratch``)
    moves    int64[PROBE_PLIES + 1, MAX_CAPTURES]
    limits   int64[4]   men (0: never probe), least depth, 1 if the fifty-move rule
                        counts, and the probes answered (the thread's tbhits)

The search stack holds one (``SearchStack.tb``); ``no_tables()`` is the one used
until tables are loaded, with ``limits[0] == 0`` so the search never probes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.experimental import structref
from numba.typed import List

from plies.core.structs import CoreStruct, register
from plies.core.syzygy import PAIRS_WIDTH, TABLE_WIDTH, new_scratch, probe_wdl

TB_MEN, TB_DEPTH, TB_RULE50, TB_HITS = 0, 1, 2, 3
"""Indices into ``TbProbe.limits``."""

TB_FIELDS = (
    "files", "keys", "entries", "tables", "pairs", "symlen", "base", "boards", "moves", "limits",
    "addresses",
)  # fmt: skip

_FILE = types.Array(types.uint8, 1, "C", readonly=True)


@register
class TbProbeType(CoreStruct):
    """numba type of ``TbProbe``."""


class TbProbe(structref.StructRefProxy):
    """One thread's tablebase probing state (Python handle); see ``new_tbprobe``."""


structref.define_proxy(TbProbe, TbProbeType, list(TB_FIELDS))


@njit(cache=True)
def new_tbprobe(
    files, keys: np.ndarray, entries: np.ndarray, tables: np.ndarray, pairs: np.ndarray,
    symlen: np.ndarray, base: np.ndarray, boards: np.ndarray, moves: np.ndarray,
    limits: np.ndarray, addresses: np.ndarray,
) -> TbProbe:  # fmt: skip
    """A probe over linked tables, a scratch pair, a limits array and the files' addresses."""
    return TbProbe(files, keys, entries, tables, pairs, symlen, base, boards, moves, limits,
                   addresses)  # fmt: skip


@njit(cache=True)
def _empty(boards: np.ndarray, moves: np.ndarray, limits: np.ndarray) -> TbProbe:
    """A probe over no tables at all (its ``limits[TB_MEN]`` is 0)."""
    files = List.empty_list(_FILE)
    return TbProbe(files, np.zeros(0, dtype=np.int64), np.zeros((0, 2), dtype=np.int64),
                   np.zeros((1, TABLE_WIDTH), dtype=np.int64),
                   np.zeros((0, PAIRS_WIDTH), dtype=np.int64), np.zeros(0, dtype=np.int64),
                   np.zeros(0, dtype=np.uint64), boards, moves, limits,
                   np.zeros((0, 2), dtype=np.int64))  # fmt: skip


def no_tables() -> tuple[TbProbe, np.ndarray]:
    """A probe that never probes, and its limits array."""
    limits = np.zeros(4, dtype=np.int64)
    return _empty(*new_scratch(), limits), limits


@njit(cache=True, nogil=True)
def probe_search(tb: TbProbe, pieces: np.ndarray, side: int, ep: int) -> tuple[int, bool]:
    """WDL (-2..2) of a search position and whether the tables knew it."""
    wdl, ok = probe_wdl(tb.addresses, tb.keys, tb.entries, tb.tables, tb.pairs, tb.symlen, tb.base,
                        pieces, side, ep, tb.boards, tb.moves)  # fmt: skip
    return wdl, ok != 0

