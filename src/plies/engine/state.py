"""The arrays a compiled search works in, owned by one ``Engine`` across searches."""

from __future__ import annotations

import numpy as np

from plies.core import tt
from plies.core.search import I_SIZE, MAX_PLY
from plies.core.types import MAX_MOVES

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
    """Transposition table, move-ordering memory and per-ply scratch buffers."""

    def __init__(self, hash_mb: int, table: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Allocate everything; the table gets ``hash_mb`` MB unless ``table`` is shared."""
        self.tt_keys, self.tt_data = tt.allocate(hash_mb) if table is None else table
        if table is None:
            self._touch_table()
        self.killers = np.zeros((MAX_PLY + 2, 2), dtype=np.int64)
        self.history = np.zeros((2, 64, 64), dtype=np.int64)
        self.counter = np.zeros((13, 64), dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 2, MAX_PLY + 2), dtype=np.int64)
        self.pv_len = np.zeros(MAX_PLY + 2, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.scores = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.quiets = np.zeros((MAX_PLY + 2, 64), dtype=np.int64)
        self.evals = np.zeros(MAX_PLY + 2, dtype=np.int64)
        self.probes = np.zeros((MAX_PLY + 2, tt.P_SIZE), dtype=np.int64)
        self.info = np.zeros(I_SIZE, dtype=np.int64)
        self.root_moves = np.zeros(MAX_MOVES, dtype=np.int64)

    def helper(self) -> SearchArrays:
        """Arrays for another search thread: its own scratch, this very table (never a copy)."""
        return SearchArrays(0, (self.tt_keys, self.tt_data))

    def resize_table(self, hash_mb: int) -> None:
        """Replace the transposition table with an empty one of ``hash_mb`` MB."""
        self.tt_keys, self.tt_data = tt.allocate(hash_mb)
        self._touch_table()

    def _touch_table(self) -> None:
        """Write the fresh table once, so the OS maps its pages now, not during a game.

        ``np.zeros`` maps pages lazily: the first clear of a 64 MB table took
        188 ms (page faults), charged to the first move of the first game
        (``ucinewgame`` runs on the clock); later clears take 2-10 ms.
        """
        self.tt_keys.fill(0)
        self.tt_data.fill(0)

    def clear(self) -> None:
        """Forget everything learned (new game); the table is cleared in place."""
        self.tt_keys.fill(0)
        self.tt_data.fill(0)
        self.clear_memory()

    def clear_memory(self) -> None:
        """Forget the move-ordering memory (killers, history, countermoves), not the table."""
        self.killers.fill(0)
        self.history.fill(0)
        self.counter.fill(0)

    def new_search(self) -> None:
        """Prepare for the next search: fresh killers, history kept but damped."""
        self.killers.fill(0)
        self.history //= 2
        self.pv_len.fill(0)

    def table_megabytes(self) -> float:
        """Size of the transposition table in MB."""
        return (self.tt_keys.nbytes + self.tt_data.nbytes) / (1024 * 1024)
