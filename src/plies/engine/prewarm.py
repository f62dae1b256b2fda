"""Compile the engine on a cold cache in phases, two parts at a time, in this and a worker process.

numba compiles one function at a time in a process, and a compiled caller needs
its callees compiled first. So the first compile (the install's, ``plies.engine.ahead``,
or a first run's when the install did not compile ahead or a core source changed)
follows ``PHASES``: in each, the first job runs in this process while a worker
process runs the other, each writing into the shared cache (``plies.jitcache``:
the same files for every process running these sources); the next phase's jobs
load what they need from it. The search itself, the largest part, compiles last,
beside perft and the engine's small entry points.

Workers are a pure speed-up: if one cannot start or fails, the functions it was
to compile are compiled here when something needs them, as without workers.
With ``PLIES_NO_COMPILE_WORKERS=1`` every job runs here, one after the other.
On a warm cache nothing runs.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plies.core as core
from plies.board import Board, Move

WORKER_TIMEOUT_S = 900.0
"""Longest wait for a worker (far beyond a compile on a slow, loaded machine)."""
ENV_OFF = "PLIES_NO_COMPILE_WORKERS"
"""Set to 1 to compile everything in this process (no worker processes)."""


def _typeof(value: object) -> Any:
    """numba's type of ``value`` (imported late: this module loads before numba is needed)."""
    import numba

    typeof: Callable[[object], Any] = numba.typeof
    return typeof(value)


def _compile_moves() -> None:
    """The board's set-up and legal moves, making and unmaking them, the check test."""
    from plies.core.position import in_check

    board = Board()
    board.push(board.legal_moves[0])
    board.pop()
    in_check.compile((_typeof(board.core_position()),))


def _compile_evaluation() -> None:
    """The classical evaluation and the net's, for the position type the search passes, and
    the tablebase decoder (the probe's half that needs no move generator)."""
    import numba

    from plies.core import nnue, static_eval
    from plies.syzygy.decode import probe_table
    from plies.syzygy.tables import no_tables

    position = _typeof(Board().core_position())
    core.evaluate_position.compile((position,))
    nnue.output.compile((position,))
    static_eval.pure.compile((position,))
    i64 = numba.int64
    probe_table.compile((_typeof(no_tables()[0]), numba.uint64[::1], i64, i64, i64))


def _search_types() -> tuple[Any, Any, Any, Any]:
    """The numba types of a position, search stack, hash table and info block."""
    from plies.engine.state import SearchArrays

    arrays = SearchArrays(1)
    return (_typeof(Board().core_position()), _typeof(arrays.stack), _typeof(arrays.table),
            _typeof(arrays.info))  # fmt: skip


def _compile_tables() -> None:
    """The search's tablebase probe and its use in a node (compiled even without tables),
    and the node's smaller steps: draws, the null move, move ordering, the history update."""
    import numba

    from plies.core import draws, makemove, movepick, search

    position, stack, table, info = _search_types()
    i64 = numba.int64
    search._tb_cut.compile((stack, table, info, position, numba.uint64, i64, i64))
    draws.is_draw.compile((position,))
    makemove.make_null.compile((position,))
    makemove.unmake_null.compile((position,))
    movepick.score_moves.compile((position, stack, i64, i64, i64, i64))
    movepick.reward_quiet.compile((position, stack, i64, i64, i64, i64, i64, i64))


def _compile_quiescence() -> None:
    """The quiescence search, with the exchange evaluation and the table's probe and store
    inside."""
    import numba

    from plies.core import search, see

    position, stack, table, info = _search_types()
    i64 = numba.int64
    see.see_ge.compile((position, i64, i64))
    search._qsearch.compile((position, stack, table, info, i64, i64, i64, i64))


def _compile_search() -> None:
    """The search itself, for the arguments the engine calls it with."""
    import numba

    position, stack, table, info = _search_types()
    i64 = numba.int64
    core.search_root.compile((position, stack, table, info, i64, i64, i64, i64))


def compile_entry_points(board: Board, move: Move, table: Any, net: Any | None) -> None:
    """The engine's entry points besides the search: the evaluation (with ``net``, if any),
    the net's set-up and evaluation (so UseNet costs no compile), and the table's reply to
    ``move`` in ``table``.

    Found missing by comparing dispatcher signatures before and after games: the table
    probe from Python for the ponder move is reached only later in a game.
    """
    from plies.core.static_eval import net_static
    from plies.engine.reporting import hash_reply

    pos = board.core_position()
    if net is not None:
        core.attach_net(pos, net)
    core.static_evaluate(pos)
    spare = board.core_position()  # a copy already
    core.attach_net(spare, None)
    net_static(spare, 0)  # a pure or residual net's evaluation
    core.net_output(spare)  # and a residual net's correction alone
    hash_reply(table, board, move)


def _compile_perft_and_entry_points() -> None:
    """Perft (its move counter for the last ply), the search's bookkeeping called from
    Python, and the other entry points."""
    from plies.board import perft
    from plies.engine.nets import NetChoice, default_net_file
    from plies.engine.state import SearchArrays

    board = Board()
    perft(board, 2)
    arrays = SearchArrays(1)
    arrays.reset_info(0, 0)
    arrays.counts()
    core.hashfull(arrays.table, 0)
    compile_entry_points(board, board.legal_moves[0], arrays.table,
                         NetChoice(default_net_file()).net)  # fmt: skip


JOBS: dict[str, Callable[[], None]] = {
    "moves": _compile_moves,
    "evaluation": _compile_evaluation,
    "tables": _compile_tables,
    "quiescence": _compile_quiescence,
    "search": _compile_search,
    "perft": _compile_perft_and_entry_points,
}
"""What a phase can compile, by name (``python -m plies.engine.prewarm NAME`` in a worker)."""


@dataclass(frozen=True)
class Phase:
    """Jobs that need only earlier phases' work: the first runs here, the rest in workers."""

    label: str
    """What the phase compiles, for a progress line."""
    jobs: tuple[str, ...]
    """Names in ``JOBS``: the first (the longest) runs in this process, the others in workers."""


PHASES = (
    Phase("move generation and evaluation", ("moves", "evaluation")),
    Phase("the tablebase probe and quiescence search", ("tables", "quiescence")),
    Phase("the search and perft", ("search", "perft")),
)
"""The cold compile in order; two jobs a phase (two cores kept busy, the longer one here)."""


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
    """Start one worker process per job (none if workers are off)."""
    if os.environ.get(ENV_OFF):
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


def run_phase(phase: Phase) -> None:
    """Run the phase's first job here and the others in workers (all here if workers are
    off); return when all have finished."""
    here, elsewhere = phase.jobs[0], phase.jobs[1:]
    workers = start_workers(elsewhere)
    try:
        JOBS[here]()
        if os.environ.get(ENV_OFF):
            for job in elsewhere:
                JOBS[job]()
    finally:
        wait_for(workers)


def compile_in_phases(on_phase: Callable[[int, Phase], None] | None = None) -> None:
    """Run every phase in order; ``on_phase(number, phase)`` is told as each begins (from 1)."""
    for number, phase in enumerate(PHASES, 1):
        if on_phase is not None:
            on_phase(number, phase)
        run_phase(phase)


def main(argv: list[str]) -> int:
    """Worker entry point: compile the named job into the cache; exit status 0 on success."""
    if len(argv) != 1 or argv[0] not in JOBS:
        print(f"usage: python -m plies.engine.prewarm {{{','.join(JOBS)}}}", file=sys.stderr)
        return 2
    JOBS[argv[0]]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
