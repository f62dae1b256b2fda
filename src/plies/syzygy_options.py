"""Defaults and ranges of the engine's Syzygy options, importable without the engine.

The UCI loop declares its options (``uciok``) before the compiled engine loads, so
the numbers live here, once, for both.
"""

DEFAULT_PROBE_DEPTH = 1
"""``SyzygyProbeDepth``: the search probes at this remaining depth or more (Stockfish's 1)."""
MAX_PROBE_DEPTH = 100
MAX_PROBE_LIMIT = 7
"""``SyzygyProbeLimit``'s default and maximum: seven men, the largest published tables."""
