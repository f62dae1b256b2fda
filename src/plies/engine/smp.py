"""Lazy SMP: helper threads run the same search on their own arrays, sharing only the table.

Helpers never report; they fill the shared transposition table, which the
main thread's search reads. Odd helpers run one ply ahead to diversify.
"""

from __future__ import annotations

import threading

import plies.core as core
from plies.core import INF
from plies.engine.state import SearchArrays

HELPER_START_S = 0.05
"""Longest wait for a lazy-SMP helper thread to start running before the main search."""


def node_shares(nodes: int, threads: int) -> list[int]:
    """Split a node budget over ``threads`` (the main thread first gets the remainder)."""
    share = nodes // threads
    return [nodes - share * (threads - 1)] + [share] * (threads - 1)


def start_helpers(
    helpers: list[SearchArrays],
    node_limits: list[int],
    age: int,
    position: core.Position,
    root: list[int],
    max_depth: int,
) -> list[threading.Thread]:
    """Start the helpers on ``position``'s ``root`` moves; return their threads.

    Returns once each helper thread runs (or after ``HELPER_START_S``): on a
    loaded machine a short main search could otherwise end before a helper
    was ever scheduled.
    """
    workers = []
    started = []
    for k, helper in enumerate(helpers):
        helper.new_search()
        helper.reset_info(node_limits[k], age)
        helper.root_moves[: len(root)] = root
        running = threading.Event()
        thread = threading.Thread(
            target=_helper_search,
            args=(helper, core.copy_position(position), len(root), k % 2, max_depth, running),
            name=f"plies-helper-{k + 1}",
            daemon=True,
        )
        thread.start()
        workers.append(thread)
        started.append(running)
    for running in started:
        running.wait(HELPER_START_S)
    return workers


def stop_helpers(helpers: list[SearchArrays], workers: list[threading.Thread]) -> None:
    """Stop the helper threads and wait for them."""
    for helper in helpers:
        core.set_stop(helper.info, 1)
    for thread in workers:
        thread.join()


def _helper_search(
    a: SearchArrays, position: core.Position, n_root: int, offset: int, max_depth: int,
    running: threading.Event,
) -> None:
    """A helper's deepening loop; odd helpers run one ply ahead to diversify."""
    running.set()
    for depth in range(1, max_depth + 1):
        core.search_root(position, a.stack, a.table, a.info, n_root,
                         min(depth + offset, max_depth), -INF, INF)  # fmt: skip
        if a.stopped():
            return
