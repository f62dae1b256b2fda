"""The UCI side of Syzygy tablebases: the ``Syzygy*`` options, named as Stockfish names them.

``setoption name SyzygyPath value /path/to/syzygy`` loads every table found in
the directories (``:`` separated, ``;`` on Windows) and is answered with one
``info string`` saying what was found and one per file or directory that
could not be used; the engine goes on with the rest. See
``plies.engine.tablebases`` for what the engine does with them.
"""

from __future__ import annotations

from plies.syzygy_options import DEFAULT_PROBE_DEPTH, MAX_PROBE_DEPTH, MAX_PROBE_LIMIT
from plies.uci.options import UciOption

SYZYGY_OPTIONS: tuple[UciOption, ...] = (
    UciOption("SyzygyPath", "string", ""),
    UciOption("SyzygyProbeDepth", "spin", DEFAULT_PROBE_DEPTH, 1, MAX_PROBE_DEPTH),
    UciOption("Syzygy50MoveRule", "check", True),
    UciOption("SyzygyProbeLimit", "spin", MAX_PROBE_LIMIT, 0, MAX_PROBE_LIMIT),
)
"""The tablebase options declared to GUIs."""
