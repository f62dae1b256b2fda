"""Probes from several threads, each with its own ``Tables`` scratch, give the single-thread
answers."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tests.syzygy.data import DATA
from tests.syzygy.positions import random_position

from plies.core.encoding import NO_SQUARE
from plies.core.position import new_position
from plies.syzygy.dtz import probe_dtz
from plies.syzygy.probe import probe_wdl, set_position
from plies.syzygy.tablebase import Tablebase, board_arrays


def test_threads_with_own_scratch_agree() -> None:
    """Four threads probe the same 600 positions (WDL and DTZ) concurrently, same answers."""
    tb = Tablebase(str(DATA))
    rng = random.Random(8)
    names = ["KQvKR", "KPvKP", "KQvKP", "KPvK"]
    positions = [
        board_arrays(random_position(rng.choice(names), rng, swap=rng.random() < 0.5))
        for _ in range(600)
    ]

    def run(_: int) -> list[tuple[int, int, int, int]]:
        """Probe every position with this thread's own tables value and position."""
        tables = tb.compiled(limits=np.zeros(4, dtype=np.int64))
        pos = new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1)
        out = []
        for bbs, side, ep in positions:
            set_position(pos, bbs, side, ep)
            wdl = probe_wdl(tables, pos)
            dtz = probe_dtz(tables, pos)
            out.append((int(wdl[0]), int(wdl[1]), int(dtz[0]), int(dtz[1])))
        return out

    alone = run(0)
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(run, range(4)))
    assert all(result == alone for result in together)
    assert sum(ok for _, ok, _, _ in alone) > 500
