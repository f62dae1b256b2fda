"""Probes from several threads, each with its own scratch, give the single-thread answers."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.tb.positions import random_position

from plies.core.syzygy import new_scratch, probe_wdl
from plies.core.syzygy_dtz import new_dtz_scratch, probe_dtz
from plies.tb import Tablebase, board_arrays

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"


def test_threads_with_own_scratch_agree() -> None:
    """Four threads probe the same 600 positions (WDL and DTZ) concurrently, same answers."""
    tb = Tablebase(str(DATA))
    a = tb.arrays()
    rng = random.Random(8)
    names = ["KQvKR", "KPvKP", "KQvKP", "KPvK"]
    positions = [
        board_arrays(random_position(rng.choice(names), rng, swap=rng.random() < 0.5))
        for _ in range(600)
    ]

    def run(_: int) -> list[tuple[int, int, int, int]]:
        """Probe every position with this thread's scratch."""
        stack, moves = new_scratch()
        dboards, dmoves = new_dtz_scratch()
        out = []
        for bbs, side, ep in positions:
            wdl = probe_wdl(*a, bbs, side, ep, stack, moves)
            dtz = probe_dtz(*a, bbs, side, ep, stack, moves, dboards, dmoves)
            out.append((int(wdl[0]), int(wdl[1]), int(dtz[0]), int(dtz[1])))
        return out

    alone = run(0)
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(run, range(4)))
    assert all(result == alone for result in together)
    assert sum(ok for _, ok, _, _ in alone) > 500
