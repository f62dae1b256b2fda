"""Which compiled functions a cold start compiles, in which stage, and what each costs.

Listens to numba's ``numba:compile`` events and prints, per stage (first
legal-move list, perft, the engine's warm-up), every function compiled in this
process with its wall and CPU seconds (nested compiles indented under the
function that triggered them; a function's figures include its nested ones).
Run it with an empty cache to see a first run:

    NUMBA_CACHE_DIR=$(mktemp -d) python tools/compile_profile.py [perft] [engine]

Add ``PLIES_NO_COMPILE_WORKERS=1`` to compile everything in this process (the
engine's warm-up otherwise compiles parts in worker processes, whose compiles
do not show here). numba's own helpers (``numba.*``) are left out unless
``--all`` is given.
"""

from __future__ import annotations

import resource
import sys
import time

import numba.core.event as event

sys.modules["scipy"] = None  # type: ignore[assignment]  # as the CLI: no BLAS probe


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Recorder(event.Listener):
    """Collects (depth, function, wall, CPU) for every compile event."""

    def __init__(self) -> None:
        """Start with nothing recorded."""
        self.open: list[tuple[float, float]] = []
        self.records: list[tuple[int, str, float, float]] = []

    def on_start(self, ev: event.Event) -> None:
        """A compile begins: note the clocks."""
        self.open.append((time.perf_counter(), cpu_seconds()))

    def on_end(self, ev: event.Event) -> None:
        """A compile ends: record what it cost."""
        wall, cpu = self.open.pop()
        func = ev.data["dispatcher"].py_func
        name = f"{func.__module__}.{func.__qualname__}"
        self.records.append((len(self.open), name, time.perf_counter() - wall, cpu_seconds() - cpu))


def main() -> int:
    """Run the stages named on the command line and print what each compiled."""
    stages = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_all = "--all" in sys.argv
    recorder = Recorder()
    event.register("numba:compile", recorder)
    clock = [time.perf_counter(), cpu_seconds()]

    def report(stage: str) -> None:
        """Print the stage's totals and its compiles (in the order they finished)."""
        wall, cpu = time.perf_counter() - clock[0], cpu_seconds() - clock[1]
        print(f"== {stage}: wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)
        for depth, name, w, c in recorder.records:
            if show_all or not name.startswith("numba."):
                print(f"   {'  ' * depth}{name}  wall {w:.2f} s  CPU {c:.2f} s")
        recorder.records.clear()
        clock[:] = [time.perf_counter(), cpu_seconds()]

    from plies.board import Board, perft

    board = Board()
    board.legal_moves  # noqa: B018  # the first legal-move list compiles the generator
    report("first legal-move list")
    if "perft" in stages:
        perft(board, 3)
        report("perft")
    if "engine" in stages:
        from plies.engine import Engine

        Engine(16).warm_up()
        report("engine warm-up")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
