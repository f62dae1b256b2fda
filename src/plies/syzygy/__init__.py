"""Syzygy endgame tablebases: the file format, the compiled WDL and DTZ probes, root filtering.

The modules, from the bytes up:

    format      the index tables, the row layout of a table, ``binomial``
    files       ``read_table``: one file's header into rows (checked, so the
                compiled reads stay inside the file)
    tables      ``Tables``: the linked tables and one thread's scratch, the one
                value every compiled probe takes
    decode      byte readers, Huffman decoding, the index encoding: one table's value
    probe       WDL with captures and en passant resolved, on the core's ``Position``
    dtz         DTZ, and every root move ranked by DTZ or WDL
    tablebase   ``Tablebase``: the tables of a ``SyzygyPath``, probed from Python
    root        the engine's use: the ``Syzygy*`` options, root filtering, tbhits

The compiled modules (``format`` to ``dtz``) sit beside the core: they import
only core modules below the search, and the core's search probes through them
(``tests/test_layout.py`` keeps that so). The probes run on the core's own
position, move generator and move encoding. A compiled caller::

    tables = tablebase.compiled()           # once per thread: its own scratch
    wdl, ok = probe_wdl(tables, pos)        # pos: the core's Position, no castling
    dtz, ok = probe_dtz(tables, pos)

``ok`` is 0 when the position cannot be answered (a table missing or unreadable,
too many men); the values are python-chess's (WDL -2..2 as if the fifty-move
counter were zero).
"""

from __future__ import annotations

# The compiled core first: its search imports this package's probe, and the cache
# locator it installs must be in place before any compiled function here is defined.
import plies.core  # noqa: F401
