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
from plies.pathfinding.grid import DIAGONAL_MOVES, SQRT2, STRAIGHT_MOVES, Cell, Grid
from plies.pathfinding.heuristics import admissible_on_grid, default_grid_heuristic
from plies.pathfinding.result import SearchResult

from .batch import (
    batch_best_first,
    batch_bidirectional,
    batch_breadth_first,
    batch_jump_point,
)
from .best_first import best_first_kernel
from .bidirectional import bidirectional_kernel
from .breadth_first import breadth_first_kernel
from .bucket_queue import new_queue
from .common import FOUND, HEURISTIC_KINDS, OVERFLOWED, parent_chain
from .cycles import cycles_now
from .jump_point import fill_jumps, jump_point_kernel, stop_lines

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
    """Scratch arrays for one search direction: costs, parents, stamps and an open list."""

    def __init__(self, size: int, capacity: int) -> None:
        """Allocate arrays for a padded grid of ``size`` cells, the open list for ``capacity``."""
        self.g = np.zeros(size, np.float64)
        self.parent = np.zeros(size, np.int64)
        self.seen = np.zeros(size, np.int64)
        self.closed = np.zeros(size, np.int64)
        self.capacity = capacity
        self.ints, self.reals, self.table, self.state = new_queue(self.capacity)

    def grow(self, capacity: int) -> None:
        """Enlarge the open list after it overflowed (the search is then run again)."""
        self.capacity = capacity
        self.ints, self.reals, self.table, self.state = new_queue(capacity)

    def queue(self) -> tuple[IntArray, FloatArray, IntArray, IntArray]:
        """The open-list arrays, in the order the kernels take them."""
        return self.ints, self.reals, self.table, self.state

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
        self.weights = np.asarray(pweights, dtype=np.float64)
        self.masks = np.frombuffer(masks, dtype=np.uint8).copy()
        self.weighted = grid.weighted
        self.scale = grid.min_weight
        pw = self.pw
        moves = STRAIGHT_MOVES + DIAGONAL_MOVES if grid.diagonal else STRAIGHT_MOVES
        # Move i is bit i of a cell's mask (Grid.move_masks): straight ones first.
        self.offsets = np.array([dx + dy * pw for dx, dy in moves], dtype=np.int64)
        self.move_dx = np.array([dx for dx, _ in moves], dtype=np.int64)
        self.move_dy = np.array([dy for _, dy in moves], dtype=np.int64)
        self.steps = np.array([SQRT2 if dx and dy else 1.0 for dx, dy in moves])
        size = self.free.size
        self.queue_capacity = queue_capacity or max(_START_CAPACITY, size // 8)
        self._forward = _Side(size, self.queue_capacity)
        self._backward: _Side | None = None
        self._queue: IntArray | None = None
        self._lines: npt.NDArray[np.uint64] | None = None
        self._order = np.empty(_START_CAPACITY, np.int64)
        self._gen = 0

    # -- helpers ----------------------------------------------------------------

    def _next_gen(self, count: int = 1) -> int:
        """Reserve ``count`` fresh generation numbers; return the first."""
        first = self._gen + 1
        self._gen += count
        return first

    def _grow(self) -> None:
        """Double the open lists of both directions."""
        self.queue_capacity *= 2
        self._forward.grow(self.queue_capacity)
        if self._backward is not None:
            self._backward.grow(self.queue_capacity)

    def _backward_side(self) -> _Side:
        """The second set of scratch arrays, made on first use."""
        if self._backward is None:
            self._backward = _Side(self.free.size, self.queue_capacity)
        return self._backward

    def _stop_lines(self) -> npt.NDArray[np.uint64]:
        """Where straight jumps stop, as bit lines (see ``stop_lines``), made on first use."""
        if self._lines is None:
            self._lines = stop_lines(self.free, self.pw)
        return self._lines

    def _bfs_queue(self) -> IntArray:
        """The breadth-first queue (one slot per cell), made on first use."""
        if self._queue is None:
            self._queue = np.empty(self.free.size, np.int64)
        return self._queue

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
        g_weight, h_weight, reopen = BEST_FIRST[algorithm]
        side = self._forward
        while True:
            gen = self._next_gen()
            status, expanded, max_frontier, recorded, self._order = best_first_kernel(
                self.free, self.weights, self.masks, self.offsets, self.steps, self.move_dx,
                self.move_dy, self.pw, s, t,
                g_weight, h_weight, self.scale, HEURISTIC_KINDS[heuristic], self.weighted,
                reopen, record, side.g, side.parent, side.seen, side.closed, gen,
                *side.queue(), self._order,
            )
            if status != OVERFLOWED:
                break
            self._grow()
        order = self.grid.lazy_cells(self._order[:recorded].tolist())
        if status != FOUND:
            return SearchResult.failure(algorithm, expanded, max_frontier, order)
        path = self._cells(parent_chain(side.parent, s, t))
        frontier = self._cells(side.frontier(gen)) if record else []
        return SearchResult(algorithm, path, float(side.g[t]), expanded, max_frontier, order,
                            frontier)

    def _jump_point(self, s: int, t: int, record: bool) -> SearchResult[Cell]:
        """Jump point search through the compiled kernel."""
        side = self._forward
        while True:
            gen = self._next_gen()
            status, expanded, max_frontier, recorded, self._order = jump_point_kernel(
                self.free, self._stop_lines(), self.pw, s, t, record, side.g, side.parent,
                side.seen, side.closed, gen, *side.queue(), self._order,
            )
            if status != OVERFLOWED:
                break
            self._grow()
        order = self.grid.lazy_cells(self._order[:recorded].tolist())
        if status != FOUND:
            return SearchResult.failure("jps", expanded, max_frontier, order)
        path = self._cells(fill_jumps(parent_chain(side.parent, s, t), self.pw))
        frontier = self._cells(side.frontier(gen)) if record else []
        return SearchResult("jps", path, float(side.g[t]), expanded, max_frontier, order,
                            frontier)

    def _breadth_first(self, s: int, t: int, record: bool) -> SearchResult[Cell]:
        """Breadth-first search through the compiled kernel."""
        if s == t:
            cell = self.grid.from_padded(s)
            return SearchResult("bfs", [cell], 0.0, 0, 1, [], [cell])
        side = self._forward
        gen = self._next_gen()
        queue = self._bfs_queue()
        found, expanded, max_frontier, recorded, head, tail, self._order = breadth_first_kernel(
            self.weights, self.masks, self.offsets, self.steps, s, t, self.weighted, record,
            side.g, side.parent, side.seen, gen, queue, self._order,
        )
        order = self.grid.lazy_cells(self._order[:recorded].tolist())
        if not found:
            return SearchResult.failure("bfs", expanded, max_frontier, order)
        path = self._cells(parent_chain(side.parent, s, t))
        waiting = self._cells(queue[head:tail]) if record else []
        return SearchResult("bfs", path, float(side.g[t]), expanded, max_frontier, order,
                            waiting)

    def _bidirectional(self, algorithm: str, s: int, t: int, heuristic: str,
                       record: bool) -> SearchResult[Cell]:
        """Bidirectional Dijkstra or A* through the compiled kernel."""
        if s == t:
            return SearchResult(algorithm, [self.grid.from_padded(s)], 0.0, 0, 1, [], [])
        fwd, bwd = self._forward, self._backward_side()
        while True:
            gen = self._next_gen()
            status, meet, mu, expanded, max_frontier, recorded, self._order = (
                bidirectional_kernel(
                    self.weights, self.masks, self.offsets, self.steps, self.pw, s, t,
                    self.weighted, algorithm == "bidir-astar", HEURISTIC_KINDS[heuristic],
                    self.scale, record, gen,
                    fwd.g, fwd.parent, fwd.seen, fwd.closed, *fwd.queue(),
                    bwd.g, bwd.parent, bwd.seen, bwd.closed, *bwd.queue(),
                    self._order,
                )
            )
            if status != OVERFLOWED:
                break
            self._grow()
        order = self.grid.lazy_cells(self._order[:recorded].tolist())
        if meet < 0:
            return SearchResult.failure(algorithm, expanded, max_frontier, order)
        ahead = parent_chain(fwd.parent, s, meet)
        behind = parent_chain(bwd.parent, t, meet)[::-1]
        path = self._cells(np.concatenate((ahead, behind[1:])))
        frontier: list[Cell] = []
        if record:
            frontier = self._cells(fwd.frontier(gen)) + self._cells(bwd.frontier(gen))
        return SearchResult(algorithm, path, float(mu), expanded, max_frontier, order, frontier)

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
        done = 0
        wall = time.perf_counter()
        rate = _cycles_per_second()
        while done < n:
            # Views: a query whose open list overflows is run again after the queue grows.
            args = (algorithm, name, s[done:], t[done:], costs[done:], expanded[done:],
                    seconds[done:])
            if ("batch", algorithm) in _WARM:
                failed = self._batch_from(*args)
            else:
                with compile_notice(NOTICE):
                    failed = self._batch_from(*args)
                _WARM.add(("batch", algorithm))
            if failed < 0:
                break
            done += failed
            self._grow()
        wall = time.perf_counter() - wall
        # The kernels timed each query in processor cycles.
        if rate > 0.0:
            seconds /= rate
        else:  # no cycle counter on this machine: share the time out evenly
            seconds[:] = wall / max(n, 1)
        return BatchResult(algorithm, costs, expanded, seconds)

    def _batch_from(self, algorithm: str, heuristic: str, s: IntArray, t: IntArray,
                    costs: FloatArray, expanded: IntArray, seconds: FloatArray) -> int:
        """One compiled batch call; the index of the query that overflowed, or -1."""
        gen = self._next_gen(max(len(s), 1))
        fwd = self._forward
        kind = HEURISTIC_KINDS[heuristic]
        if algorithm in BEST_FIRST:
            g_weight, h_weight, reopen = BEST_FIRST[algorithm]
            return int(batch_best_first(
                self.free, self.weights, self.masks, self.offsets, self.steps, self.move_dx,
                self.move_dy, self.pw, s, t,
                g_weight, h_weight, self.scale, kind, self.weighted, reopen,
                fwd.g, fwd.parent, fwd.seen, fwd.closed, gen, *fwd.queue(),
                self._order, costs, expanded, seconds, False,
            ))
        if algorithm == "jps":
            return int(batch_jump_point(
                self.free, self._stop_lines(), self.pw, s, t, fwd.g, fwd.parent, fwd.seen,
                fwd.closed, gen, *fwd.queue(), self._order, costs, expanded, seconds, False,
            ))
        if algorithm == "bfs":
            return int(batch_breadth_first(
                self.weights, self.masks, self.offsets, self.steps, s, t, self.weighted,
                fwd.g, fwd.parent, fwd.seen, gen, self._bfs_queue(), self._order,
                costs, expanded, seconds, False,
            ))
        bwd = self._backward_side()
        return int(batch_bidirectional(
            self.weights, self.masks, self.offsets, self.steps, self.pw, s, t,
            self.weighted, algorithm == "bidir-astar", kind, self.scale, gen,
            fwd.g, fwd.parent, fwd.seen, fwd.closed, *fwd.queue(),
            bwd.g, bwd.parent, bwd.seen, bwd.closed, *bwd.queue(),
            self._order, costs, expanded, seconds, False,
        ))


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
