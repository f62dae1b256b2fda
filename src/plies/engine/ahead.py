"""Compile everything a first run needs, ahead of it: ``python -m plies.engine.ahead``.

The install runs it (``setup.py``), so that the first ``plies play`` or ``plies uci``
loads the board's, perft's and the engine's compiled code from the on-disk cache
(``plies.jitcache``) instead of waiting for numba. It compiles what the engine's
warm-up compiles (with its compile workers, ``plies.engine.prewarm``) and perft.
"""

from __future__ import annotations

import os
import sys


def compile_all() -> None:
    """The board's moves, perft and the engine's warm-up, compiled (or loaded) into the cache."""
    from plies.board import Board, perft
    from plies.engine.engine import Engine

    perft(Board(), 2)
    Engine(hash_mb=1).warm_up()


def main() -> int:
    """Entry point: compile everything; exit status 0 on success."""
    if "scipy" not in sys.modules and not os.environ.get("PLIES_ALLOW_SCIPY"):
        sys.modules["scipy"] = None  # type: ignore[assignment]  # as the CLI: no BLAS probe
    compile_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
