"""The compiled objects a search works in, owned by one ``Engine`` across searches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import plies.core as core

if TYPE_CHECKING:
    from plies.syzygy.tablebase import Linked, Tablebase

_MEMINFO = "/proc/meminfo"


def available_megabytes() -> int | None:
    """Memory the OS can still give (Linux ``MemAvailable``), in MB; None where unknown."""
    try:
        with open(_MEMINFO, encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class SearchArrays:
    """Transposition table (shared), and one thread's search stack and info block."""

    def __init__(self, hash_mb: int, table: SearchArrays | None = None) -> None:
        """Allocate everything; the table gets ``hash_mb`` MB unless ``table``'s is shared."""
        if table is None:
            self.table, self.tt_keys, self.tt_data = core.new_table(hash_mb)
            self._touch_table()
        else:
            self.table, self.tt_keys, self.tt_data = table.table, table.tt_keys, table.tt_data
        self.arrays = core.new_stack()
        self.stack = self.arrays.compiled()
        self.pv: np.ndarray = self.arrays.pv
        self.pv_len: np.ndarray = self.arrays.pv_len
        self.root_moves: np.ndarray = self.arrays.root_moves
        self.info = core.new_info()
        self.tb_limits = np.zeros(4, dtype=np.int64)
        """This thread's probe limits and tbhits (``plies.syzygy.tables``); all 0: no tables."""
        self._tb_source: Linked | None = None

    def attach_tables(self, tablebase: Tablebase | None, limits: list[int]) -> None:
        """Search probing ``tablebase`` (None: none) under ``limits`` (men, depth, rule50).

        The stack is rebuilt only when the tables change; the limits are written in
        place (this thread's probe reads this very array) and its hit count restarts.
        The linked tables are kept here: the stack reads their files by address.
        """
        source = None if tablebase is None else tablebase.linked()
        if source is not self._tb_source:
            probe = None if tablebase is None else tablebase.compiled(limits=self.tb_limits)
            self.stack = self.arrays.compiled(probe)
            self._tb_source = source
        self.tb_limits[:] = [*limits, 0] if tablebase is not None else 0

    def helper(self) -> SearchArrays:
        """Objects for another search thread: its own stack and info, this very table, the
        same search parameters."""
        other = SearchArrays(0, self)
        other.arrays.set_params(self.arrays.params.tolist())
        return other

    def resize_table(self, hash_mb: int) -> None:
        """Replace the transposition table with an empty one of ``hash_mb`` MB."""
        self.table, self.tt_keys, self.tt_data = core.new_table(hash_mb)
        self._touch_table()

    def _touch_table(self) -> None:
        """Write the fresh table once, so the OS maps its pages now, not during a game.

        ``np.zeros`` maps pages lazily: the first clear of a large table pays
        every page fault, which would be charged to the first move of the first
        game (``ucinewgame`` runs on the clock); later clears are cheap.
        """
        self.tt_keys.fill(0)
        self.tt_data.fill(0)

    def clear(self) -> None:
        """Forget everything learned (new game); the table is cleared in place."""
        self.tt_keys.fill(0)
        self.tt_data.fill(0)
        self.clear_memory()

    def clear_memory(self) -> None:
        """Forget the move-ordering memory (killers, histories, countermoves), not the table."""
        self.arrays.killers.fill(0)
        self.arrays.history.fill(0)
        self.arrays.counter.fill(0)
        self.arrays.conthist.fill(0)

    def new_search(self) -> None:
        """Prepare for the next search: fresh killers, history kept but damped."""
        self.arrays.killers.fill(0)
        np.floor_divide(self.arrays.history, 2, out=self.arrays.history)
        self.pv_len.fill(0)

    def table_megabytes(self) -> float:
        """Size of the transposition table in MB."""
        return (self.tt_keys.nbytes + self.tt_data.nbytes) / (1024 * 1024)

    def reset_info(self, node_limit: int, age: int) -> None:
        """Zero the counters and the stop flag; set the node limit and the table age."""
        core.start_info(self.info, node_limit, age)
        core.set_stop(self.info, 0)

    def counts(self) -> core.InfoCounts:
        """This thread's counters: nodes, seldepth, stop flag, root update, node limit."""
        return core.InfoCounts(*core.info_counts(self.info))

    def stopped(self) -> bool:
        """Whether this thread's search was told to stop (or hit its node limit)."""
        return bool(self.counts().stop)
