"""Syzygy endgame tablebases: find and check table files, probe them compiled.

``Tablebase(path)`` opens every ``.rtbw`` / ``.rtbz`` file in the directories of
a ``SyzygyPath`` string and skips (and describes in ``problems``) anything it
cannot use. Its ``probe_wdl`` / ``probe_dtz`` take a python-chess board; the
``*_bitboards`` variants take plies' 16-slot bitboard array.

A compiled search calls the probes in ``plies.core`` directly::

    a = tablebase.arrays()                 # once, after loading (ProbeArrays)
    stack, moves = new_scratch()           # once per search thread
    dboards, dmoves = new_dtz_scratch()    # once per thread, for DTZ at the root

    # in compiled code, when pos.castling == 0 and the men count <= tablebase.max_men
    wdl, ok = probe_wdl(a.files, a.keys, a.entries, a.tables, a.pairs, a.symlen, a.base,
                        pos.pieces, pos.side, pos.ep, stack, moves)
    dtz, ok = probe_dtz(a.files, a.keys, a.entries, a.tables, a.pairs, a.symlen, a.base,
                        pos.pieces, pos.side, pos.ep, stack, moves, dboards, dmoves)

``probe_wdl`` and ``new_scratch`` live in ``plies.core.syzygy``, ``probe_dtz`` and
``new_dtz_scratch`` in ``plies.core.syzygy_dtz``, beside ``probe_root_dtz`` (every
legal root move with its DTZ counted from the root, for ranking root moves).
``ok`` is 0 when the position cannot be answered (a table missing or unreadable,
more than eight men); the values are python-chess's (WDL -2..2 as if the
fifty-move counter were zero).
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
