"""First-use compilation of the chess core, done once in the background and reported honestly.

The first run of plies compiles the chess core and search with numba (about a minute;
later starts load the cache in a second). The server starts at once and compiles in a
thread; pages and tests ask ``/api/status`` (or read the websocket's status messages)
and wait for ``ready`` instead of guessing with sleeps.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from plies.compile_notice import quiet, watching_compiles

COMPILING = "compiling"
READY = "ready"
FAILED = "failed"
_log = logging.getLogger(__name__)


def _exercise_chess() -> None:
    """Compile everything a chess session touches: moves, SAN, checks, outcome, search."""
    from plies.board import Board
    from plies.engine import Engine, Limit

    board = Board()
    for move in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(move)
    board.san(board.legal_moves[0])
    board.is_check()
    board.outcome(claim_draw=True)
    board.to_chess()
    engine = Engine(hash_mb=1)
    with quiet():  # the server says itself whether it compiles
        engine.warm_up()  # on a first run, the phased compile (two processes at a time)
    engine.search(board, Limit(depth=3))
    engine.evaluate(board)


def _exercise_paths() -> None:
    """Run every offered path search once on a tiny grid (compiles any compiled kernels)."""
    from plies.pathfinding import Grid, GridProblem, run_algorithm
    from plies.web.paths import OFFERED

    for name in OFFERED:
        grid = Grid.from_rows(["...", ".#.", "..."], diagonal=name == "jps")
        run_algorithm(name, GridProblem(grid, (0, 0), (2, 2)))


class EngineReadiness:
    """Compiles the chess engine in a thread and tells anyone who asks how far it is."""

    def __init__(self) -> None:
        """Create the tracker; nothing happens until :meth:`start`."""
        self.state = COMPILING
        self.message = "compiling the chess engine (first run only, about a minute)..."
        self._started = time.monotonic()
        self._finished: float | None = None
        self._done = threading.Event()
        self.compiling = threading.Event()
        """Set once numba compiles (not merely loads) the engine: a first run."""
        self.decided = threading.Event()
        """Set once it is known whether the engine compiles (a compile began, or it loaded)."""
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start compiling in a daemon thread (once)."""
        if self._thread is not None:
            return
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="plies-warmup", daemon=True)
        self._thread.start()

    def _began_compiling(self) -> None:
        """numba began compiling the engine in the warm-up thread."""
        self.compiling.set()
        self.decided.set()

    def _run(self) -> None:
        """Compile, then record the outcome."""
        try:
            with watching_compiles(self._began_compiling):
                _exercise_chess()
        except Exception as exc:  # reported to every client, never raised into the server
            self.state = FAILED
            self.message = f"the chess engine failed to start: {exc}"
        else:
            self.state = READY
            self.message = "engine ready"
        self._finished = time.monotonic()
        self._done.set()
        self.decided.set()
        # Path searches do not wait for this; it only spares the first user a compile.
        try:
            _exercise_paths()
        except Exception:  # a failure here shows up, clearly, in the first real search
            _log.exception("warming up the path searches failed")

    @property
    def ready(self) -> bool:
        """Whether the engine can be used now."""
        return self.state == READY

    def wait(self, timeout: float | None = None) -> bool:
        """Block until compilation has finished (well or not); True if it has."""
        return self._done.wait(timeout)

    def snapshot(self) -> dict[str, Any]:
        """The state as JSON: ``engine`` (compiling/ready/failed), ``message``, ``seconds``."""
        end = self._finished if self._finished is not None else time.monotonic()
        return {
            "engine": self.state,
            "message": self.message,
            "seconds": round(end - self._started, 1),
        }
