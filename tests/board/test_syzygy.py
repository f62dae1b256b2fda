"""Board tablebase look-ups through python-chess's prober."""

from __future__ import annotations

import os
from pathlib import Path

from plies.board import Board
from plies.board.syzygy import open_tablebase, probe_dtz, probe_wdl

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"


def test_board_probes(tmp_path: Path) -> None:
    """A won, a drawn and an unknown position; missing directories in the path are skipped."""
    tb = open_tablebase(os.pathsep.join([str(tmp_path / "absent"), str(DATA)]))
    won = Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    assert probe_wdl(won, tb) == 2
    dtz = probe_dtz(won, tb)
    assert dtz is not None and 0 < dtz <= 100
    assert probe_wdl(Board("8/8/8/4k3/8/8/8/K7 b - - 0 1"), tb) == 0
    assert probe_wdl(Board("8/8/8/4k3/8/8/8/KRR5 w - - 0 1"), tb) is None
    assert probe_dtz(Board(), tb) is None
