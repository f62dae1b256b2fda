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
    BIDIRECTIONAL_SEARCH,
    BREADTH_FIRST_SEARCH,
    JUMP_POINT_SEARCH,
    batch,
    search,
)
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
BEST_FIRST = {"ucs": (1.0, 0.0, True), "astar": (1.0, 1.0, True), "greedy": (0.0, 1.0, False),
              "jps": (1.0, 1.0, True)}
#: The kernel of each algorithm name ``GridSearcher`` accepts.
KERNELS = {"bfs": BREADTH_FIRST_SEARCH, "ucs": BEST_FIRST_SEARCH, "greedy": BEST_FIRST_SEARCH,
           "astar": BEST_FIRST_SEARCH, "bidirectional": BIDIRECTIONAL_SEARCH,
           "bidir-astar": BIDIRECTIONAL_SEARCH, "jps": JUMP_POINT_SEARCH}
#: Every algorithm name ``GridSearcher`` accepts.
COMPILED_ALGORITHMS = tuple(KERNELS)

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

    def _sides(self, kernel: int) -> tuple[_Side, _Side]:
        """The forward and backward scratch space of ``kernel`` (the forward one twice for a
        one-sided search), and the jump lines (``stop_lines``) for jump point search, each
        made on first use."""
        if kernel == JUMP_POINT_SEARCH and not self._has_lines:
            set_lines(self._terrain, stop_lines(self.free, self.pw))
            self._has_lines = True
        if kernel != BIDIRECTIONAL_SEARCH:
            return self._forward, self._forward
        if self._backward is None:
            self._backward = _Side(self.free.size, self._capacity, fifo=False)
        return self._forward, self._backward

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
        kernel = KERNELS[algorithm]
        if s == t and kernel in (BREADTH_FIRST_SEARCH, BIDIRECTIONAL_SEARCH):
            # As the readable versions answer it: breadth-first leaves the start waiting.
            cell = self.grid.from_padded(s)
            waiting = [cell] if kernel == BREADTH_FIRST_SEARCH else []
            return SearchResult(algorithm, [cell], 0.0, 0, 1, [], waiting)
        fwd, bwd = self._sides(kernel)
        self._plan(algorithm, name, record)
        search(kernel, self._terrain, fwd.side, bwd.side, self._state, s, t)
        answer, order = outcome(self._state)
        status, expanded, max_frontier, recorded, meet, cost, head, tail, gen = answer
        cells = self.grid.lazy_cells(order[:recorded].tolist())
        if status != FOUND:
            return SearchResult.failure(algorithm, expanded, max_frontier, cells)
        indices = parent_chain(fwd.parent, s, meet)
        if kernel == JUMP_POINT_SEARCH:
            indices = fill_jumps(indices, self.pw)
        elif kernel == BIDIRECTIONAL_SEARCH:
            indices = np.concatenate((indices, parent_chain(bwd.parent, t, meet)[-2::-1]))
        frontier: list[Cell] = []
        if record and kernel == BREADTH_FIRST_SEARCH:
            frontier = self._cells(fwd.fifo[head:tail])
        elif record:
            frontier = self._cells(fwd.frontier(gen))
            if kernel == BIDIRECTIONAL_SEARCH:
                frontier += self._cells(bwd.frontier(gen))
        return SearchResult(algorithm, self._cells(indices), float(cost), expanded, max_frontier,
                            cells, frontier)

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
        queries = np.stack((s, t), axis=1) if n else np.zeros((0, 2), np.int64)
        wall = time.perf_counter()
        rate = _cycles_per_second()
        if ("batch", algorithm) in _WARM:
            answers = self._batch(algorithm, name, queries)
        else:
            with compile_notice(NOTICE):
                answers = self._batch(algorithm, name, queries)
            _WARM.add(("batch", algorithm))
        wall = time.perf_counter() - wall
        costs, seconds = answers[:, 0].copy(), answers[:, 2].copy()
        expanded = answers[:, 1].astype(np.int64)
        # The kernels timed each query in processor cycles.
        if rate > 0.0:
            seconds /= rate
        else:  # no cycle counter on this machine: share the time out evenly
            seconds[:] = wall / max(n, 1)
        return BatchResult(algorithm, costs, expanded, seconds)

    def _batch(self, algorithm: str, heuristic: str, queries: IntArray) -> FloatArray:
        """One compiled batch call over every query: rows of (cost, expanded, cycles)."""
        kernel = KERNELS[algorithm]
        fwd, bwd = self._sides(kernel)
        self._plan(algorithm, heuristic, False)
        answers = np.zeros((len(queries), 3))
        batch(kernel, self._terrain, fwd.side, bwd.side, self._state, queries, answers)
        return answers


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
