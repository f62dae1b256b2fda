"""Tablebase look-ups for a plies ``Board`` (what ``plies analyse`` shows)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.syzygy.data import DATA

from plies.board import Board
from plies.syzygy.tablebase import Tablebase


def test_board_probes(tmp_path: Path) -> None:
    """A won, a drawn and an unknown position; missing directories in the path are skipped."""
    tb = Tablebase(os.pathsep.join([str(tmp_path / "absent"), str(DATA)]))
    assert len(tb.problems) == 1 and "absent" in tb.problems[0]
    won = Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    assert tb.probe_wdl(won) == 2
    dtz = tb.probe_dtz(won)
    assert dtz is not None and 0 < dtz <= 100
    assert tb.probe_wdl(Board("8/8/8/4k3/8/8/8/K7 b - - 0 1")) == 0
    assert tb.probe_wdl(Board("8/8/8/4k3/8/8/8/KRRR4 w - - 0 1")) is None  # 5 men
    assert tb.probe_dtz(Board()) is None
