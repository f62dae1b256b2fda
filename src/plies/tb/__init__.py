"""Syzygy endgame tablebases: find and check table files, probe them compiled.

``Tablebase(path)`` opens every ``.rtbw`` / ``.rtbz`` file in the directories of
a ``SyzygyPath`` string and skips (and describes in ``problems``) anything it
cannot use. ``Tablebase.arrays()`` gives the arguments of the compiled probes in
``plies.core.syzygy`` for a search to call directly.
"""

from __future__ import annotations

from plies.tb.files import TableError, read_table
from plies.tb.tablebase import NO_SQUARE, ProbeArrays, Tablebase, board_arrays, split_path

__all__ = [
    "NO_SQUARE",
    "ProbeArrays",
    "TableError",
    "Tablebase",
    "board_arrays",
    "read_table",
    "split_path",
]
