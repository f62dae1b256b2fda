"""Tablebase look-ups for a ``Board`` through python-chess's Syzygy prober.

The Python-level API (analysis, the board) uses python-chess's ``chess.syzygy``
rather than a second prober; the compiled one (``plies.core.syzygy``) is for the
search. ``open_tablebase`` reads a ``SyzygyPath``-style string (several
directories, ``:`` separated, ``;`` on Windows) and skips directories that do
not exist.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess.syzygy

    from plies.board.board import Board


def open_tablebase(path: str) -> chess.syzygy.Tablebase:
    """python-chess's tablebase over every existing directory of ``path``."""
    import chess.syzygy

    tablebase = chess.syzygy.Tablebase()
    for directory in path.split(os.pathsep):
        if directory.strip() and os.path.isdir(directory):
            tablebase.add_directory(directory)
    return tablebase


def probe_wdl(board: Board, tablebase: chess.syzygy.Tablebase) -> int | None:
    """WDL of ``board`` for the side to move (-2 loss ... 2 win), None if the tables lack it.

    As in python-chess, the position is taken as just after a capture or pawn
    move (the 50-move counter is not considered).
    """
    return tablebase.get_wdl(board.to_chess())


def probe_dtz(board: Board, tablebase: chess.syzygy.Tablebase) -> int | None:
    """DTZ of ``board`` (python-chess's sign and rounding), None if the tables lack it."""
    return tablebase.get_dtz(board.to_chess())
