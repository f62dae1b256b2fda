"""``GridSearcher``: the compiled grid searches behind one object per grid.

It holds the grid as arrays (padded free flags, weights, legal-move masks)
and scratch arrays that every query reuses: a search stamps the cells it
touches with its own generation number instead of clearing anything, so a
query costs only the cells it visits.  ``run`` answers one query as a
``SearchResult`` (recording the exploration for pictures when asked);
``batch`` answers many queries in one compiled call.

Not thread-safe: the scratch arrays are shared by the searches of one
searcher (make one searcher per thread).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from plies.compile_notice import compile_notice
from plies.pathfinding.errors import PathfindingError
from plies.pathfinding.grid import DIAGONAL_MOVES, STRAIGHT_MOVES, Cell, Grid
from plies.pathfinding.heuristics import admissible_on_grid, default_grid_heuristic
from plies.pathfinding.result import SearchResult

from .batch import (
    BEST_FIRST_SEARCH,
    BREADTH_FIRST_SEARCH,
    JUMP_POINT_SEARCH,
    batch_bidirectional,
    batch_one_sided,
    search_one_sided,
)
from .bidirectional import bidirectional
from .common import FOUND, HEURISTIC_KINDS, parent_chain
from .cycles import cycles_now
from .jump_point import fill_jumps, stop_lines
from .state import (
    Run,
    Side,
    new_run,
    new_side,
    new_terrain,
    outcome,
    plan,
    set_lines,
    side_arrays,
)
from .state import queue_capacity as compiled_capacity

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Algorithms a searcher runs: name -> (g weight, h weight, reopen) for the best-first ones.
BEST_FIRST = {"ucs": (1.0, 0.0, True), "astar": (1.0, 1.0, True), "greedy": (0.0, 1.0, False)}
#: Every algorithm name ``GridSearcher`` accepts.
COMPILED_ALGORITHMS = ("bfs", "ucs", "greedy", "astar", "bidirectional", "bidir-astar", "jps")

_START_CAPACITY = 1024

#: Kernels used in this process so far; the first use of each compiles it (or loads
#: it from numba's cache) and says so on stderr when that takes more than a moment.
_WARM: set[tuple[str, str]] = set()
NOTICE = "compiling the path-finding kernels (first use only; cached on disk afterwards)..."


@dataclass
class BatchResult:
    """Per-query answers of ``GridSearcher.batch``: costs (inf = no path), expansions, seconds."""

    algorithm: str
    costs: FloatArray
    expanded: IntArray
    seconds: FloatArray

    @property
    def found(self) -> npt.NDArray[np.bool_]:
        """True where a path was found."""
        return np.isfinite(self.costs)


class _Side:
    """One search direction: its compiled scratch space and Python's view of its arrays."""

    def __init__(self, size: int, capacity: int, fifo: bool) -> None:
        """Scratch space for a padded grid of ``size`` cells, the open list for ``capacity``."""
        self.side: Side = new_side(size, capacity, size if fifo else 0)
        self.g, self.parent, self.seen, self.closed, self.fifo = side_arrays(self.side)

    def frontier(self, gen: int) -> IntArray:
        """Cells reached but not expanded by the search of generation ``gen``, in index order."""
        return np.flatnonzero((self.seen == gen) & (self.closed != gen)).astype(np.int64)


class GridSearcher:
    """Compiled BFS, Dijkstra, greedy, A*, bidirectional search and JPS on one grid."""

    def __init__(self, grid: Grid, queue_capacity: int | None = None) -> None:
        """Lay the grid out as arrays and allocate the scratch space.

        ``queue_capacity`` sizes the open list (it doubles whenever a search
        overflows it); the default is an eighth of the cells.
        """
        pfree, pweights = grid.padded()
        masks, _ = grid.move_masks()
        self.grid = grid
        self.pw = grid.padded_width
        self.free = np.frombuffer(bytes(pfree), dtype=np.uint8).copy()
        moves = STRAIGHT_MOVES + DIAGONAL_MOVES if grid.diagonal else STRAIGHT_MOVES
        # Move i is bit i of a cell's mask (Grid.move_masks): straight ones first.
        self._terrain = new_terrain(
            self.free, np.asarray(pweights, dtype=np.float64),
            np.frombuffer(masks, dtype=np.uint8).copy(), np.array(moves, dtype=np.int64),
            np.zeros((1, 1), np.uint64), self.pw, grid.weighted, grid.min_weight)
        self._has_lines = False
        size = self.free.size
        self._capacity = queue_capacity or max(_START_CAPACITY, size // 8)
        self._forward = _Side(size, self._capacity, fifo=True)
        self._backward: _Side | None = None
        self._state: Run = new_run()

    @property
    def queue_capacity(self) -> int:
        """How many entries the forward open list holds (it doubles when a search overflows)."""
        return int(compiled_capacity(self._forward.side))

    # -- helpers ----------------------------------------------------------------

    def _backward_side(self) -> _Side:
        """The second set of scratch arrays, made on first use."""
        if self._backward is None:
            self._backward = _Side(self.free.size, self._capacity, fifo=False)
        return self._backward

    def _stop_lines(self) -> None:
        """Give the terrain the jump lines (see ``stop_lines``) on first use."""
        if not self._has_lines:
            set_lines(self._terrain, stop_lines(self.free, self.pw))
            self._has_lines = True

    def _plan(self, algorithm: str, heuristic: str, record: bool) -> None:
        """Set the run's weights, heuristic, reopening and recording for ``algorithm``."""
        g_weight, h_weight, reopen = BEST_FIRST.get(algorithm, (1.0, 0.0, True))
        plan(self._state, g_weight, h_weight, HEURISTIC_KINDS[heuristic], reopen,
             algorithm == "bidir-astar", record)

    def _index(self, cell: Cell, what: str) -> int:
        """Padded index of a free ``cell``; a one-line error otherwise."""
        self.grid.check_cell(cell, what)
        return self.grid.to_padded(cell)

    def _indices(self, cells: Sequence[Cell] | npt.ArrayLike, what: str) -> IntArray:
        """Padded indices of many free cells at once (numpy); a one-line error otherwise."""
        xy = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        x, y = xy[:, 0], xy[:, 1]
        inside = (x >= 0) & (x < self.grid.width) & (y >= 0) & (y < self.grid.height)
        index = (y + 1) * self.pw + x + 1
        good = inside & (self.free[np.where(inside, index, 0)] != 0)
        if not good.all():
            bad = int(np.flatnonzero(~good)[0])
            self.grid.check_cell((int(x[bad]), int(y[bad])), what)
        return index

    def _heuristic(self, algorithm: str, heuristic: str) -> str:
        """The heuristic name to use ("auto" picks the tightest admissible one)."""
        name = default_grid_heuristic(self.grid.diagonal) if heuristic == "auto" else heuristic
        if name not in HEURISTIC_KINDS:
            choices = ", ".join(HEURISTIC_KINDS)
            raise PathfindingError(f"unknown heuristic {name!r} (choose from {choices})")
        return name

    def _check(self, algorithm: str) -> None:
        """Refuse algorithms this searcher does not have, or JPS where it does not apply."""
        if algorithm not in COMPILED_ALGORITHMS:
            choices = ", ".join(COMPILED_ALGORITHMS)
            raise PathfindingError(f"no compiled {algorithm!r} (choose from {choices})")
        if algorithm == "jps" and (not self.grid.diagonal or self.grid.weighted):
            raise PathfindingError(
                "jump point search needs an 8-connected grid without cell weights")

    def _cells(self, indices: IntArray) -> list[Cell]:
        """Padded indices as cells."""
        return self.grid.cells_from_padded(indices.tolist())

    # -- one query ----------------------------------------------------------------

    def run(
        self,
        algorithm: str,
        start: Cell,
        goal: Cell,
        heuristic: str = "auto",
        record: bool = True,
    ) -> SearchResult[Cell]:
        """Search from ``start`` to ``goal`` with the compiled ``algorithm``.

        With ``record`` the result lists the expansion order and the frontier,
        exactly as the readable version of the algorithm records them.
        """
        self._check(algorithm)
        s = self._index(start, "start")
        t = self._index(goal, "goal")
        name = self._heuristic(algorithm, heuristic)
        if ("run", algorithm) not in _WARM:
            _WARM.add(("run", algorithm))
            with compile_notice(NOTICE):
                return self._run(algorithm, s, t, name, record)
        return self._run(algorithm, s, t, name, record)

    def _run(self, algorithm: str, s: int, t: int, name: str,
             record: bool) -> SearchResult[Cell]:
        """``run`` on padded indices."""
        if algorithm in BEST_FIRST:
            return self._best_first(algorithm, s, t, name, record)
        if algorithm == "jps":
            return self._jump_point(s, t, record)
        if algorithm == "bfs":
            return self._breadth_first(s, t, record)
        return self._bidirectional(algorithm, s, t, name, record)

    def _best_first(self, algorithm: str, s: int, t: int, heuristic: str,
                    record: bool) -> SearchResult[Cell]:
        """UCS, greedy or A* through the compiled best-first kernel."""
        side = self._forward
        self._plan(algorithm, heuristic, record)
        search_one_sided(BEST_FIRST_SEARCH, self._terrain, side.side, self._state, s, t)
        status, expanded, max_frontier, recorded, _, _, _, _, gen, order = outcome(self._state)
        cells = self.grid.lazy_cells(order[:recorded].tolist())
        if status != FOUND:
            return SearchResult.failure(algorithm, expanded, max_frontier, cells)
        path = self._cells(parent_chain(side.parent, s, t))
        frontier = self._cells(side.frontier(gen)) if record else []
        return SearchResult(algorithm, path, float(side.g[t]), expanded, max_frontier, cells,
                            frontier)

    def _jump_point(self, s: int, t: int, record: bool) -> SearchResult[Cell]:
        """Jump point search through the compiled kernel."""
        side = self._forward
        self._stop_lines()
        self._plan("jps", "octile", record)
        search_one_sided(JUMP_POINT_SEARCH, self._terrain, side.side, self._state, s, t)
        status, expanded, max_frontier, recorded, _, _, _, _, gen, order = outcome(self._state)
        cells = self.grid.lazy_cells(order[:recorded].tolist())
        if status != FOUND:
            return SearchResult.failure("jps", expanded, max_frontier, cells)
        path = self._cells(fill_jumps(parent_chain(side.parent, s, t), self.pw))
        frontier = self._cells(side.frontier(gen)) if record else []
        return SearchResult("jps", path, float(side.g[t]), expanded, max_frontier, cells,
                            frontier)

    def _breadth_first(self, s: int, t: int, record: bool) -> SearchResult[Cell]:
        """Breadth-first search through the compiled kernel."""
        if s == t:
            cell = self.grid.from_padded(s)
            return SearchResult("bfs", [cell], 0.0, 0, 1, [], [cell])
        side = self._forward
        self._plan("bfs", "zero", record)
        search_one_sided(BREADTH_FIRST_SEARCH, self._terrain, side.side, self._state, s, t)
        found, expanded, max_frontier, recorded, _, _, head, tail, _, order = outcome(self._state)
        cells = self.grid.lazy_cells(order[:recorded].tolist())
        if not found:
            return SearchResult.failure("bfs", expanded, max_frontier, cells)
        path = self._cells(parent_chain(side.parent, s, t))
        waiting = self._cells(side.fifo[head:tail]) if record else []
        return SearchResult("bfs", path, float(side.g[t]), expanded, max_frontier, cells,
                            waiting)

    def _bidirectional(self, algorithm: str, s: int, t: int, heuristic: str,
                       record: bool) -> SearchResult[Cell]:
        """Bidirectional Dijkstra or A* through the compiled kernel."""
        if s == t:
            return SearchResult(algorithm, [self.grid.from_padded(s)], 0.0, 0, 1, [], [])
        fwd, bwd = self._forward, self._backward_side()
        self._plan(algorithm, heuristic, record)
        bidirectional(self._terrain, fwd.side, bwd.side, self._state, s, t)
        _, expanded, max_frontier, recorded, meet, mu, _, _, gen, order = outcome(self._state)
        cells = self.grid.lazy_cells(order[:recorded].tolist())
        if meet < 0:
            return SearchResult.failure(algorithm, expanded, max_frontier, cells)
        ahead = parent_chain(fwd.parent, s, meet)
        behind = parent_chain(bwd.parent, t, meet)[::-1]
        path = self._cells(np.concatenate((ahead, behind[1:])))
        frontier: list[Cell] = []
        if record:
            frontier = self._cells(fwd.frontier(gen)) + self._cells(bwd.frontier(gen))
        return SearchResult(algorithm, path, float(mu), expanded, max_frontier, cells, frontier)

    # -- many queries -------------------------------------------------------------

    def batch(
        self,
        algorithm: str,
        starts: Sequence[Cell] | npt.ArrayLike,
        goals: Sequence[Cell] | npt.ArrayLike,
        heuristic: str = "auto",
    ) -> BatchResult:
        """Answer every ``starts[i] -> goals[i]`` query in one compiled call.

        Cells are ``(x, y)`` pairs: sequences of tuples or ``(n, 2)`` integer arrays.
        """
        self._check(algorithm)
        s = self._indices(starts, "start")
        t = self._indices(goals, "goal")
        if len(s) != len(t):
            raise PathfindingError(f"{len(s)} starts but {len(t)} goals")
        name = self._heuristic(algorithm, heuristic)
        n = len(s)
        costs = np.full(n, math.inf)
        expanded = np.zeros(n, np.int64)
        seconds = np.zeros(n, np.float64)
        queries = np.stack((s, t), axis=1) if n else np.zeros((0, 2), np.int64)
        wall = time.perf_counter()
        rate = _cycles_per_second()
        if ("batch", algorithm) in _WARM:
            self._batch(algorithm, name, queries, costs, expanded, seconds)
        else:
            with compile_notice(NOTICE):
                self._batch(algorithm, name, queries, costs, expanded, seconds)
            _WARM.add(("batch", algorithm))
        wall = time.perf_counter() - wall
        # The kernels timed each query in processor cycles.
        if rate > 0.0:
            seconds /= rate
        else:  # no cycle counter on this machine: share the time out evenly
            seconds[:] = wall / max(n, 1)
        return BatchResult(algorithm, costs, expanded, seconds)

    def _batch(self, algorithm: str, heuristic: str, queries: IntArray, costs: FloatArray,
               expanded: IntArray, seconds: FloatArray) -> None:
        """One compiled batch call over every query."""
        self._plan(algorithm, heuristic, False)
        fwd = self._forward.side
        if algorithm in ("bidirectional", "bidir-astar"):
            batch_bidirectional(self._terrain, fwd, self._backward_side().side, self._state,
                                queries, costs, expanded, seconds)
            return
        if algorithm == "jps":
            self._stop_lines()
            kind = JUMP_POINT_SEARCH
        else:
            kind = BREADTH_FIRST_SEARCH if algorithm == "bfs" else BEST_FIRST_SEARCH
        batch_one_sided(kind, self._terrain, fwd, self._state, queries, costs, expanded, seconds)


_RATE: list[float] = []


def _cycles_per_second() -> float:
    """The cycle counter's rate, measured once per process over 20 ms (0: no counter)."""
    if not _RATE:
        c0, t0 = cycles_now(), time.perf_counter()
        time.sleep(0.02)
        c1, t1 = cycles_now(), time.perf_counter()
        _RATE.append((c1 - c0) / (t1 - t0) if c1 > c0 else 0.0)
    return _RATE[0]


def optimal_here(algorithm: str, grid: Grid, heuristic: str = "auto") -> bool:
    """True when the compiled ``algorithm`` must return a cheapest path on ``grid``."""
    name = default_grid_heuristic(grid.diagonal) if heuristic == "auto" else heuristic
    if algorithm in ("ucs", "bidirectional", "jps"):
        return True
    if algorithm in ("astar", "bidir-astar"):
        return admissible_on_grid(name, grid.diagonal)
    if algorithm == "bfs":
        return not grid.diagonal and not grid.weighted
    return False


_SEARCHER_KEY = "compiled searcher"


def searcher_for(grid: Grid) -> GridSearcher:
    """The compiled searches on ``grid`` (made once per grid, then reused; not thread-safe)."""
    found = grid.derived.get(_SEARCHER_KEY)
    if isinstance(found, GridSearcher):
        return found
    searcher = GridSearcher(grid)
    grid.derived[_SEARCHER_KEY] = searcher
    return searcher
