"""The search's limits and counters: one small block shared with the controlling thread.

``SearchInfo`` is a numba structref of int64 fields:

    nodes         nodes searched so far
    seldepth      deepest ply reached
    stop          non-zero: finish now (set by the engine, a timer, or the node limit)
    node_limit    stop after this many nodes (0: no limit)
    age           the search generation, stamped on table entries
    root_updated  a root move beat alpha in the current iteration
    best_nodes    nodes spent under the best move of the last root search
    root_nodes    nodes spent by the last root search (their ratio says how
                  settled the best move is: see ``plies.engine.timeman``)
    root_ply      the root position's ply (a node's distance from the root is
                  ``pos.ply - root_ply``)

The engine's thread sets ``stop`` with ``set_stop`` while the search runs in a
``nogil`` thread, which polls it at every node.
"""

from __future__ import annotations

from typing import NamedTuple

from numba import njit
from numba.experimental import structref

from plies.jitstruct import CoreStruct, register

INFO_FIELDS = (
    "nodes", "seldepth", "stop", "node_limit", "age", "root_updated", "best_nodes", "root_nodes",
    "root_ply",
)


@register
class SearchInfoType(CoreStruct):
    """numba type of ``SearchInfo``."""


class SearchInfo(structref.StructRefProxy):
    """Limits and counters of one search thread (Python handle); see ``new_info``."""


structref.define_proxy(SearchInfo, SearchInfoType, list(INFO_FIELDS))


@njit(cache=True)
def new_info() -> SearchInfo:
    """A block with every field zero."""
    zero = 0
    return SearchInfo(zero, zero, zero, zero, zero, zero, zero, zero, zero)


@njit(cache=True)
def start_info(info: SearchInfo, node_limit: int, age: int) -> None:
    """Reset the counters for a new search (``stop`` is left alone)."""
    info.nodes = 0
    info.seldepth = 0
    info.root_updated = 0
    info.best_nodes = 0
    info.root_nodes = 0
    info.node_limit = node_limit
    info.age = age


@njit(cache=True)
def set_stop(info: SearchInfo, stop: int) -> None:
    """Ask the search to stop (1) or let it run (0)."""
    info.stop = stop


class InfoCounts(NamedTuple):
    """What ``info_counts`` returns, by name (for the Python layer)."""

    nodes: int
    seldepth: int
    stop: int
    root_updated: int
    node_limit: int
    best_nodes: int
    root_nodes: int


@njit(cache=True)
def info_counts(info: SearchInfo) -> tuple[int, int, int, int, int, int, int]:
    """``(nodes, seldepth, stop, root_updated, node_limit, best_nodes, root_nodes)``
    (see ``InfoCounts``)."""
    return (
        info.nodes, info.seldepth, info.stop, info.root_updated, info.node_limit,
        info.best_nodes, info.root_nodes,
    )  # fmt: skip
