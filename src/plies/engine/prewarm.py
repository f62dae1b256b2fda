"""Compile the engine's independent parts in worker processes on a first run.

numba compiles one function at a time in a process, and every compiled entry
point of the core is optimised on its own. On a cold cache (the first run after
installing, or after any change to the core) the engine's warm-up therefore
runs worker processes that each compile one large, independent part into the
shared on-disk cache (``NUMBA_CACHE_DIR``, the same directory for every process
running these sources, see ``plies.core.cachedir``) while this process compiles
the board's part. When the search is compiled afterwards, numba loads those
parts from the cache instead of compiling them again.

Measured on the development machine (2 cores, numba 0.68, CPU seconds on the
cold path, shared load): the static evaluation is about 11 s of compiling and
the legal-move counter (used by the search's fifty-move rule and by perft) about
11 s; the search above them about 16 s; the board's own functions about 12 s.

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

import numpy as np

import plies.core as core
from plies.board import Board

WORKER_TIMEOUT_S = 900.0
"""Longest wait for a worker (far beyond a compile on a slow, loaded machine)."""
ENV_OFF = "PLIES_NO_COMPILE_WORKERS"
"""Set to 1 to compile everything in this process (no worker processes)."""


def _compile_evaluation() -> None:
    """The static evaluation, for the signature the search calls it with."""
    core.evaluate_position(Board().core_position())


def _compile_counting() -> None:
    """The legal-move counter, for the signature the search and perft call it with."""
    core.count_moves(Board().core_position(), np.zeros(core.MAX_MOVES, dtype=np.int64))


JOBS: dict[str, Callable[[], None]] = {
    "evaluation": _compile_evaluation,
    "counting": _compile_counting,
}
"""What a worker can compile, by name; each is independent of the others."""

_COMPILES: dict[str, Any] = {"evaluation": core.evaluate_position, "counting": core.count_moves}
"""The compiled function each job compiles."""


def search_jobs() -> tuple[str, ...]:
    """The jobs whose function the search calls directly (imports into ``plies.core.search``).

    A job the search does not need would only take a core from the compile it waits for.
    """
    from plies.core import search

    called = {id(value) for value in vars(search).values()}
    return tuple(name for name, function in _COMPILES.items() if id(function) in called)


def cache_is_cold() -> bool:
    """Whether the search has never been compiled into the cache (its index file is missing).

    False when numba does not cache at all (nothing a worker could hand over).
    """
    dispatcher: Any = core.search_root
    try:
        index = dispatcher._cache._cache_file._index_path
    except AttributeError:  # caching disabled, or numba's internals changed
        return False
    return not os.path.exists(index)


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
