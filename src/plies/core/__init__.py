"""The compiled chess core: plain numba functions over four compiled types.

The learnt evaluation rides on the position: a net read by ``load_net``
(``netfile``) and given to a position by ``attach_net`` has its accumulators kept
move by move (``nnue``), and ``static_eval`` decides, from the position, which
evaluation the search uses (``static_evaluate`` reports it to Python).

Nothing here is called per search node from Python: the Python layers
(``plies.board``, ``plies.engine``, the UCI ``eval`` command) call in a few
times per user action, and only through the names exported here.

The types (each one argument of the compiled functions)
    ``Position`` (``position``): bitboards, mailbox, side/castling/en passant/
    clocks, the undo stack and the key history; ``SearchStack`` (``stack``): one
    search thread's move-ordering memory, PV and per-ply buffers; ``Table``
    (``tt``): the transposition table all threads share; ``SearchInfo``
    (``info``): node counters, the node limit and the stop flag.

Why numba structrefs
    A structref passes as one pointer, so a recursive call costs a few
    nanoseconds where the same arrays passed loose (each reference counted at
    every call) or in a namedtuple cost ten times as much. Structrefs cache
    (``cache=True``), recurse, and run in parallel ``nogil`` threads. Their
    fields are named, so ``moves`` and ``scores`` (same shape, same dtype) can
    no longer be swapped by position. Rules that keep them cheap: one structref
    type per concept with fields of one fixed type (``jitstruct.CoreStruct`` drops
    literal types, which would make new types), instances built by our own
    cached functions (numba's Python-side constructor is compiled anew in every
    process), and the Python layer keeps its own references to the arrays
    inside (``StackArrays``, the table's arrays, ``position_arrays``) instead of
    going through per-field getters. A field must not be named ``st``:
    structref's generated constructor uses it.

The compiled cache is keyed per file on the file and every ``plies`` module it
imports (``plies.jitcache``): a cached caller embeds its callees' code, so an
edit recompiles exactly the files that can contain it. The locator is installed
before any compiled function is defined.
"""

from __future__ import annotations

# The cache locator must be installed before any compiled function is defined,
# so the public names below are imported after ``install()`` runs.
# ruff: noqa: E402
from plies.blas import answer_blas_probe
from plies.jitcache import install

answer_blas_probe()
install()

# No exported name equals a submodule's (``perft_nodes``, not ``perft``): a function
# bound over its module's name hides the module from ``from plies.core import perft``.
import importlib
from typing import TYPE_CHECKING, Any

import numpy as np

# Each public name, its module and its name there. A name's module is imported on first
# use, so a program that needs only the board does not load the search, the net and the
# tablebase code (each compiled module costs load time in every process that imports it).
_HOME: dict[str, tuple[str, str]] = {
    "MAX_MOVES": ("encoding", "MAX_MOVES"),
    "in_check": ("entry", "in_check"),
    "opponent_in_check": ("entry", "opponent_in_check"),
    "unmake_move": ("entry", "unmake_move"),
    "evaluate_position": ("evaluate", "evaluate"),
    "InfoCounts": ("info", "InfoCounts"),
    "SearchInfo": ("info", "SearchInfo"),
    "info_counts": ("info", "info_counts"),
    "new_info": ("info", "new_info"),
    "set_stop": ("info", "set_stop"),
    "start_info": ("info", "start_info"),
    "key_after": ("makemove", "key_after"),
    "pop_null": ("makemove", "pop_null"),
    "push_move": ("makemove", "push_move"),
    "push_null": ("makemove", "push_null"),
    "count_moves": ("movegen", "count_moves"),
    "legal_prefix": ("movegen", "legal_prefix"),
    "Net": ("netfile", "Net"),
    "default_net_path": ("netfile", "default_net_path"),
    "load_net": ("netfile", "load_net"),
    "net_output": ("nnue", "net_output"),
    "perft_divide": ("perft", "divide"),
    "perft_nodes": ("perft", "perft"),
    "Position": ("position", "Position"),
    "copy_position": ("position", "copy_position"),
    "new_position": ("position", "new_position"),
    "position_arrays": ("position", "position_arrays"),
    "position_state": ("position", "position_state"),
    "reserve": ("position", "reserve"),
    "INF": ("search", "INF"),
    "search_root": ("search", "search_root"),
    "MAX_PLY": ("stack", "MAX_PLY"),
    "SearchStack": ("stack", "SearchStack"),
    "StackArrays": ("stack", "StackArrays"),
    "new_stack": ("stack", "new_stack"),
    "attach_net": ("static_eval", "attach_net"),
    "static_evaluate": ("static_eval", "static_evaluate"),
    "MATE": ("tt", "MATE"),
    "MATE_BOUND": ("tt", "MATE_BOUND"),
    "Table": ("tt", "Table"),
    "hashfull": ("tt", "hashfull"),
    "new_table": ("tt", "new_table"),
    "probe": ("tt", "probe"),
}

if TYPE_CHECKING:
    from plies.core.encoding import MAX_MOVES
    from plies.core.entry import in_check, opponent_in_check, unmake_move
    from plies.core.evaluate import evaluate as evaluate_position
    from plies.core.info import InfoCounts, SearchInfo, info_counts, new_info, set_stop, start_info
    from plies.core.makemove import key_after, pop_null, push_move, push_null
    from plies.core.movegen import count_moves, legal_prefix
    from plies.core.netfile import Net, default_net_path, load_net
    from plies.core.nnue import net_output
    from plies.core.perft import divide as perft_divide
    from plies.core.perft import perft as perft_nodes
    from plies.core.position import (
        Position,
        copy_position,
        new_position,
        position_arrays,
        position_state,
        reserve,
    )
    from plies.core.search import INF, search_root
    from plies.core.stack import MAX_PLY, SearchStack, StackArrays, new_stack
    from plies.core.static_eval import attach_net, static_evaluate
    from plies.core.tt import MATE, MATE_BOUND, Table, hashfull, new_table, probe


def __getattr__(name: str) -> Any:
    """Import a public name's module on its first use (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _HOME[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    globals()[name] = value
    return value


def legal_moves(pos: Position) -> np.ndarray:
    """The legal moves of a position as move integers (see ``plies.core.encoding``)."""
    from plies.core.encoding import MAX_MOVES
    from plies.core.entry import gen_legal

    out = np.zeros(MAX_MOVES, dtype=np.int64)
    n = gen_legal(pos, out)
    return out[:n]


def evaluation_terms(pos: Position) -> list[tuple[str, int]]:
    """Each evaluation term in centipawns, White's view (``TERM_NAMES`` order)."""
    from plies.core.evaluate import TERM_NAMES, evaluate_terms

    out = np.zeros(len(TERM_NAMES), dtype=np.int64)
    evaluate_terms(pos, out)
    return [(str(name), int(out[i])) for i, name in enumerate(TERM_NAMES)]


__all__ = [
    "INF",
    "MATE",
    "MATE_BOUND",
    "MAX_MOVES",
    "MAX_PLY",
    "InfoCounts",
    "Net",
    "Position",
    "SearchInfo",
    "SearchStack",
    "StackArrays",
    "Table",
    "attach_net",
    "copy_position",
    "count_moves",
    "default_net_path",
    "evaluate_position",
    "evaluation_terms",
    "hashfull",
    "in_check",
    "info_counts",
    "key_after",
    "legal_moves",
    "legal_prefix",
    "load_net",
    "net_output",
    "new_info",
    "new_position",
    "new_stack",
    "new_table",
    "opponent_in_check",
    "perft_divide",
    "perft_nodes",
    "pop_null",
    "position_arrays",
    "position_state",
    "probe",
    "push_move",
    "push_null",
    "reserve",
    "search_root",
    "set_stop",
    "start_info",
    "static_evaluate",
    "unmake_move",
]
