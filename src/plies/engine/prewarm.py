"""Compile the engine's independent parts in worker processes on a first run.

numba compiles one function at a time in a process. When the engine still has to
compile (a copy installed without compiling ahead, see ``plies.engine.ahead``, or
after an edit to the core), its
warm-up runs two worker processes that compile independent parts below the search
(the classical evaluation and the tablebase probe; the net, exchange evaluation and
move counter) into the
shared cache (``plies.jitcache``: the same files for every process running these
sources) while this process compiles the board's part; the search then loads those
parts instead of compiling them. The search itself, the largest part, compiles last.

Workers are a pure speed-up: if one cannot start or fails, the functions it was
to compile are compiled here when the search needs them, as without workers.
On a warm cache none are started.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import plies.core as core
from plies.board import Board

WORKER_TIMEOUT_S = 900.0
"""Longest wait for a worker (far beyond a compile on a slow, loaded machine)."""
ENV_OFF = "PLIES_NO_COMPILE_WORKERS"
"""Set to 1 to compile everything in this process (no worker processes)."""


def _position_type() -> Any:
    """The numba type of a compiled position (building one compiles the board's set-up)."""
    import numba

    typeof: Callable[[object], Any] = numba.typeof
    return typeof(Board().core_position())


def _compile_evaluation_and_tables() -> None:
    """The classical evaluation and the search's tablebase probe, for the signatures the
    search calls them with (the probe is compiled even without tables: about as large)."""
    import numba

    from plies.syzygy.probe import probe_wdl
    from plies.syzygy.tables import no_tables

    typeof: Callable[[object], Any] = numba.typeof
    position = _position_type()
    core.evaluate_position.compile((position,))
    probe_wdl.compile((typeof(no_tables()[0]), position))


def _compile_net_and_counting() -> None:
    """The net's evaluations, exchange evaluation and the legal-move counter the search calls."""
    import numba

    from plies.core import nnue, see, static_eval

    position = _position_type()
    nnue.output.compile((position,))
    static_eval.pure.compile((position,))
    see.see_ge.compile((position, numba.int64, numba.int64))
    core.count_moves.compile((position, numba.int64[::1]))


JOBS: dict[str, Callable[[], None]] = {
    "evaluation-and-tables": _compile_evaluation_and_tables,
    "net-and-counting": _compile_net_and_counting,
}
"""What a worker can compile, by name."""

SEARCH_JOBS = ("evaluation-and-tables", "net-and-counting")
"""Independent parts below the search, each compiled by one worker while this
process compiles the board's part (two workers: the search waits for the
slower, so more of them would only share the same cores)."""


def search_jobs() -> tuple[str, ...]:
    """The jobs that compile parts of the search in workers on a cold cache."""
    return SEARCH_JOBS


def cache_is_cold() -> bool:
    """Whether the search has no compiled copy for these sources in the cache.

    False when numba does not cache at all (nothing a worker could hand over).
    """
    dispatcher: Any = core.search_root
    try:
        # An index for other sources loads as empty (``plies.jitcache`` stamps).
        return not dispatcher._cache._cache_file._load_index()
    except Exception:  # caching disabled, an unreadable index, or numba's internals changed
        return False


def _worker_environment() -> dict[str, str]:
    """This process's environment, with this very ``plies`` first on the import path."""
    env = dict(os.environ)
    source = str(Path(__file__).resolve().parents[2])
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = source if not path else os.pathsep.join([source, path])
    return env


def start_workers(jobs: tuple[str, ...]) -> list[subprocess.Popen[bytes]]:
    """Start one worker process per job; none if the cache is warm or workers are off."""
    if os.environ.get(ENV_OFF) or not cache_is_cold():
        return []
    env = _worker_environment()
    workers = []
    for job in jobs:
        command = [sys.executable, "-m", "plies.engine.prewarm", job]
        with contextlib.suppress(OSError):  # no worker: this process compiles it later
            workers.append(
                subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )  # fmt: skip
    return workers


def wait_for(workers: list[subprocess.Popen[bytes]]) -> None:
    """Wait until every worker has finished (a stuck one is ended after the timeout)."""
    for worker in workers:
        try:
            worker.wait(timeout=WORKER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@contextlib.contextmanager
def in_workers(jobs: tuple[str, ...]) -> Iterator[None]:
    """Run ``jobs`` in worker processes while the block runs; wait for them at its end."""
    workers = start_workers(jobs)
    try:
        yield
    finally:
        wait_for(workers)


def main(argv: list[str]) -> int:
    """Worker entry point: compile the named job into the cache; exit status 0 on success."""
    if len(argv) != 1 or argv[0] not in JOBS:
        print(f"usage: python -m plies.engine.prewarm {{{','.join(JOBS)}}}", file=sys.stderr)
        return 2
    if "scipy" not in sys.modules and not os.environ.get("PLIES_ALLOW_SCIPY"):
        sys.modules["scipy"] = None  # type: ignore[assignment]  # as the CLI: no BLAS probe
    JOBS[argv[0]]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
