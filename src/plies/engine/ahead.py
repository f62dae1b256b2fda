"""Compile everything a first run needs, ahead of it: ``python -m plies.engine.ahead``.

The install runs it (``setup.py``), so that the first ``plies play`` or ``plies uci``
loads the board's, perft's and the engine's compiled code from the on-disk cache
(``plies.jitcache``) instead of waiting for numba. It compiles in the phases of
``plies.engine.prewarm`` (two parts at a time, one in a worker process), then
checks that the engine's warm-up and perft load everything from the cache.
Progress goes to stderr, one line a phase (``pip install -v`` shows it).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from plies.compile_notice import FIRST_RUN_COMPILE_S


def step(number: int, total: int, label: str) -> str:
    """One step's progress line: ``compiling <label> (<number>/<total>)...``."""
    return f"compiling {label} ({number}/{total})..."


def compile_all(out: TextIO | None = None) -> None:
    """The board's moves, perft and the engine's warm-up, compiled (or loaded) into the cache,
    a line per phase on ``out`` (none if None)."""
    from plies.board import Board, perft
    from plies.engine import prewarm
    from plies.engine.engine import Engine

    def say(text: str) -> None:
        """One line of progress, if anyone listens."""
        if out is not None:
            print(f"plies: {text}", file=out, flush=True)

    started = time.perf_counter()
    total = len(prewarm.PHASES) + 1
    cold = prewarm.cache_is_cold()
    if cold:
        say(f"compiling the chess engine ahead of its first run ({total} steps, about "
            f"{FIRST_RUN_COMPILE_S} s on 2 cores)")  # fmt: skip
        prewarm.compile_in_phases(lambda number, phase: say(step(number, total, phase.label)))
        say(step(total, total, "the remaining entry points"))
    else:
        say("the chess engine is compiled already; checking that it loads...")
    perft(Board(), 2)
    Engine(hash_mb=1).warm_up()
    say(f"{'compiled' if cold else 'loaded'} in {time.perf_counter() - started:.0f} s")


def main() -> int:
    """Entry point: compile everything; exit status 0 on success."""
    compile_all(sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
