"""The compiled objects a search works in, owned by one ``Engine`` across searches."""

from __future__ import annotations

import numpy as np

import plies.core as core


class SearchArrays:
    """Transposition table (shared), and one thread's search stack and info block."""

    def __init__(self, hash_mb: int) -> None:
        """Allocate everything; the table gets ``hash_mb`` megabytes."""
        self.table, self.tt_keys, self.tt_data = core.new_table(hash_mb)
        self._adopt(core.new_stack())
        self.info = core.new_info()

    def _adopt(self, arrays: core.StackArrays) -> None:
        """Use ``arrays`` as this thread's stack (the PV and root moves are read here)."""
        self.arrays = arrays
        self.stack = arrays.compiled()
        self.pv: np.ndarray = arrays.pv
        self.pv_len: np.ndarray = arrays.pv_len
        self.root_moves: np.ndarray = arrays.root_moves

    def helper(self) -> SearchArrays:
        """Objects for another search thread: its own stack and info, this table shared."""
        other = SearchArrays.__new__(SearchArrays)
        other.table, other.tt_keys, other.tt_data = self.table, self.tt_keys, self.tt_data
        other._adopt(self.arrays.copy())
        other.info = core.new_info()
        return other

    def resize_table(self, hash_mb: int) -> None:
        """Replace the transposition table with an empty one of ``hash_mb`` MB."""
        self.table, self.tt_keys, self.tt_data = core.new_table(hash_mb)

    def clear(self) -> None:
        """Forget everything learned (new game); the table is cleared in place."""
        self.tt_keys.fill(0)
        self.tt_data.fill(0)
        self.arrays.killers.fill(0)
        self.arrays.history.fill(0)
        self.arrays.counter.fill(0)

    def new_search(self) -> None:
        """Prepare for the next search: fresh killers, history kept but damped."""
        self.arrays.killers.fill(0)
        np.floor_divide(self.arrays.history, 2, out=self.arrays.history)
        self.pv_len.fill(0)

    def table_megabytes(self) -> float:
        """Size of the transposition table in MB."""
        return (self.tt_keys.nbytes + self.tt_data.nbytes) / (1024 * 1024)

    def stopped(self) -> bool:
        """Whether this thread's search was told to stop (or hit its node limit)."""
        return bool(core.info_counts(self.info)[2])
