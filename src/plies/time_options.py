"""Defaults and ranges of the engine's time options, importable without the engine.

The UCI loop declares its options (``uciok``) before the compiled engine loads, so
the numbers live here, once, for both.
"""

DEFAULT_MOVE_OVERHEAD_MS = 10
"""Milliseconds lost per move outside the engine (the pipe, the GUI), as Stockfish."""
MAX_MOVE_OVERHEAD_MS = 5000

DEFAULT_SLOW_MOVER = 100
"""Percent of the planned time per move to aim at ("Slow Mover", as older Stockfish)."""
MIN_SLOW_MOVER = 10
MAX_SLOW_MOVER = 1000
