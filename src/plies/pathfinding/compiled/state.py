"""The three values every grid kernel takes: the terrain, a search side, and a run.

``Terrain``: the padded grid as arrays (free flags, cell weights, legal-move
masks), the moves (index offsets, step costs, dx/dy), the jump lines of jump
point search, and the scalars ``pw`` (padded width), ``height`` (padded
height), ``weighted``, ``scale``
(the smallest cell weight, which scales the heuristics).

``Side``: one search direction's scratch space, reused by every query: costs
``g``, ``parent`` links, the ``seen``/``closed`` stamps, the open list
(``ints``, ``reals``, ``table``, ``state``: see ``bucket_queue``), the
breadth-first FIFO, and ``gen``, the stamp of the current search (a search
stamps the cells it touches instead of clearing anything).

``Run``: what a search is asked, ``ask`` = (``g_weight``, ``h_weight``,
heuristic ``kind``, ``reopen``, ``potential`` for bidirectional A*,
``record``), what it answers, ``answer`` = (``status``, ``expanded``,
``max_frontier``, ``recorded``, ``meet``, ``cost``, the FIFO's ``head`` and
``tail``, the ``gen`` it ran under), and ``order``, the recorded expansion
order.  ``meet`` is where the path ends (the goal, or the meeting cell of a
bidirectional search; -1 without a path).  Each is one tuple, written whole
by ``plan`` and by each kernel, so no kernel repeats a field list.

They are numba structrefs registered through ``plies.jitstruct``, so the
search loops (compiled with ``_nrt=False``) read fields and pass them to the
shared open-list helpers with no reference counting, and a kernel takes three
or four arguments instead of thirty. Instances are built by the cached
constructors here (numba's Python-side constructor recompiles in every
process); Python reads results through ``outcome`` and ``side_arrays``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.experimental import structref

from plies.jitstruct import CoreStruct, register

from .bucket_queue import FREE_BUCKET, FREE_ENTRY
from .common import REOPEN_EPSILON

_ORDER_START = 1024
"""First size of a run's expansion-order buffer (it doubles when a search needs more)."""


@register
class TerrainType(CoreStruct):
    """numba type of ``Terrain``."""


class Terrain(structref.StructRefProxy):
    """The grid and its moves as the kernels see them (Python handle); see ``new_terrain``."""


structref.define_proxy(Terrain, TerrainType, [
    "free", "weights", "masks", "offsets", "steps", "move_dx", "move_dy", "lines",
    "pw", "height", "weighted", "scale",
])


@register
class SideType(CoreStruct):
    """numba type of ``Side``."""


class Side(structref.StructRefProxy):
    """One search direction's scratch space (Python handle); see ``new_side``."""


structref.define_proxy(Side, SideType, [
    "g", "parent", "seen", "closed", "ints", "reals", "table", "state", "fifo", "gen",
])


@register
class RunType(CoreStruct):
    """numba type of ``Run``."""


class Run(structref.StructRefProxy):
    """One search's settings and answers (Python handle); see ``new_run`` and ``plan``."""


structref.define_proxy(Run, RunType, ["ask", "answer", "order"])

STATUS, EXPANDED, MAX_FRONTIER, RECORDED, MEET, COST, HEAD, TAIL, GEN = range(9)
"""Positions in a run's ``answer``."""


@njit(cache=True)
def new_terrain(free, weights, masks, moves, lines, pw, weighted, scale):  # type: ignore[no-untyped-def]
    """The terrain of a padded grid; ``moves`` holds one ``(dx, dy)`` row per move bit."""
    count = moves.shape[0]
    offsets = np.empty(count, np.int64)
    steps = np.empty(count, np.float64)
    move_dx = np.empty(count, np.int64)
    move_dy = np.empty(count, np.int64)
    for i in range(count):
        dx = moves[i, 0]
        dy = moves[i, 1]
        move_dx[i] = dx
        move_dy[i] = dy
        offsets[i] = dx + dy * pw
        steps[i] = math.sqrt(2.0) if dx != 0 and dy != 0 else 1.0
    return Terrain(free, weights, masks, offsets, steps, move_dx, move_dy, lines, pw,
                   free.shape[0] // pw, weighted, scale)


@njit(cache=True, inline="always")
def moves_of(terrain):  # type: ignore[no-untyped-def]
    """What a kernel reads of the terrain to step between cells, read once per search:
    (pw, masks, offsets, steps, move_dx, move_dy, weights, weighted, scale)."""
    return (terrain.pw, terrain.masks, terrain.offsets, terrain.steps, terrain.move_dx,
            terrain.move_dy, terrain.weights, terrain.weighted, terrain.scale)


@njit(cache=True)
def set_lines(terrain, lines):  # type: ignore[no-untyped-def]
    """Give the terrain its jump lines (made on the first jump point search)."""
    terrain.lines = lines


@njit(cache=True)
def _empty_queue(capacity):  # type: ignore[no-untyped-def]
    """The four arrays of an empty open list of ``capacity`` entries (see ``bucket_queue``)."""
    capacity = max(16, capacity)
    table_size = 1
    while table_size < 2 * capacity:
        table_size *= 2
    ints = np.zeros((capacity, 5), np.int64)
    reals = np.full((capacity, 2), np.nan)
    table = np.full(table_size, -1, np.int64)
    state = np.zeros(8, np.int64)
    return ints, reals, table, state


@njit(cache=True)
def new_side(size, capacity, fifo_size):  # type: ignore[no-untyped-def]
    """Scratch space for a padded grid of ``size`` cells, an open list of ``capacity``."""
    ints, reals, table, state = _empty_queue(capacity)
    side = Side(np.zeros(size, np.float64), np.zeros(size, np.int64), np.zeros(size, np.int64),
                np.zeros(size, np.int64), ints, reals, table, state,
                np.empty(fifo_size, np.int64), 0)
    _reset_queue_state(side)
    return side


@njit(cache=True, inline="always")
def _reset_queue_state(side):  # type: ignore[no-untyped-def]
    """Mark an emptied open list's free lists as empty (index -1)."""
    side.state[FREE_ENTRY] = -1
    side.state[FREE_BUCKET] = -1


@njit(cache=True)
def grow_queue(side):  # type: ignore[no-untyped-def]
    """Double the side's open list after it overflowed (the search is then run again)."""
    ints, reals, table, state = _empty_queue(2 * side.ints.shape[0])
    side.ints = ints
    side.reals = reals
    side.table = table
    side.state = state
    _reset_queue_state(side)


@njit(cache=True)
def queue_capacity(side):  # type: ignore[no-untyped-def]
    """How many entries the side's open list holds."""
    return side.ints.shape[0]


@njit(cache=True, inline="always")
def cells_of(side):  # type: ignore[no-untyped-def]
    """The side's per-cell arrays, read once per search: (g, parent, seen, closed)."""
    return side.g, side.parent, side.seen, side.closed


@njit(cache=True)
def side_arrays(side):  # type: ignore[no-untyped-def]
    """The arrays Python reads after a search: g, parent, seen, closed and the FIFO."""
    return side.g, side.parent, side.seen, side.closed, side.fifo


@njit(cache=True)
def new_run():  # type: ignore[no-untyped-def]
    """A run with every setting and answer zero (``meet`` -1)."""
    return Run((0.0, 0.0, 0, False, False, False), (0, 0, 0, 0, -1, 0.0, 0, 0, 0),
               np.empty(_ORDER_START, np.int64))


@njit(cache=True)
def plan(run, g_weight, h_weight, kind, reopen, potential, record):  # type: ignore[no-untyped-def]
    """Set what the next searches do: priority weights, heuristic, reopening, recording."""
    run.ask = (g_weight, h_weight, kind, reopen, potential, record)


@njit(cache=True)
def outcome(run):  # type: ignore[no-untyped-def]
    """The last search's answers, ``(status, expanded, max_frontier, recorded, meet, cost,
    head, tail, gen)``, and its order buffer."""
    return run.answer, run.order


@njit(cache=True)
def order_room(run):  # type: ignore[no-untyped-def]
    """Grow the order buffer to hold what the last search recorded; True if it had to."""
    recorded = run.answer[RECORDED]
    if recorded <= run.order.shape[0]:
        return False
    run.order = np.empty(max(2 * run.order.shape[0], recorded), np.int64)
    return True


@njit(cache=True, inline="always")
def note(order, recorded, c):  # type: ignore[no-untyped-def]
    """Record expanded cell ``c`` as the ``recorded``-th when the order buffer has room; the
    new count (counted past the room too, so the caller grows the buffer and runs again)."""
    if recorded < order.shape[0]:
        order[recorded] = c
    return recorded + 1


@njit(cache=True, inline="always")
def reach_start(side, start):  # type: ignore[no-untyped-def]
    """Mark ``start`` reached at cost 0, with no parent, under the side's generation."""
    side.g[start] = 0.0
    side.parent[start] = -1
    side.seen[start] = side.gen


@njit(cache=True, inline="always")
def relax(side, c, n, ng, reopen):  # type: ignore[no-untyped-def]
    """Give ``n`` the cost ``ng`` through ``c`` if that is cheaper: -1 if it is not, else how
    many cells join the open ones (1: newly reached or a closed one reopened, 0: already
    open).  A closed cell reopens only with ``reopen`` and a saving beyond REOPEN_EPSILON."""
    g = side.g
    seen = side.seen
    closed = side.closed
    gen = side.gen
    joined = 0
    if seen[n] == gen:
        old = g[n]
        if ng >= old:
            return -1
        if closed[n] == gen:
            if not reopen or ng >= old - REOPEN_EPSILON * (1.0 + old):
                return -1
            closed[n] = 0
            joined = 1
    else:
        seen[n] = gen
        joined = 1
    g[n] = ng
    side.parent[n] = c
    return joined
