"""A rectangular grid world: free and blocked cells, optional cell weights, 4 or 8 moves.

Cells are ``(x, y)`` pairs, x the column and y the row, (0, 0) top-left, as in
the Moving AI benchmark files.  A straight move costs 1 and a diagonal move
sqrt(2), times the weight of the cell entered (1 when the grid has no
weights).  A diagonal move may not cut a corner: both orthogonal neighbours
it passes between must be free.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

from plies.pathfinding.errors import InvalidCellError, PathfindingError

Cell = tuple[int, int]

SQRT2 = math.sqrt(2.0)

#: Straight moves in the order searches try them: east, south, west, north.
STRAIGHT_MOVES: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
#: Diagonal moves: south-east, south-west, north-west, north-east.
DIAGONAL_MOVES: tuple[Cell, ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))


class Grid:
    """A width x height grid of free and blocked cells, optionally weighted.

    ``free`` is row-major, one truthy byte per free cell.  ``weights`` (row-major,
    every value > 0) multiplies the cost of entering a cell.  ``diagonal``
    chooses 8-connected moves instead of 4-connected ones.
    """

    def __init__(
        self,
        width: int,
        height: int,
        free: bytes | bytearray | Sequence[bool] | None = None,
        weights: Sequence[float] | None = None,
        diagonal: bool = False,
    ) -> None:
        """Build a grid; with no ``free`` data every cell is free."""
        if width < 1 or height < 1:
            raise PathfindingError(f"grid size must be at least 1x1, got {width}x{height}")
        self.width = width
        self.height = height
        self.diagonal = diagonal
        size = width * height
        if free is None:
            self._free = bytearray(b"\x01" * size)
        elif isinstance(free, bytes | bytearray):
            # Any non-zero byte means free; numpy normalises a big map in one go.
            flags = np.frombuffer(bytes(free), dtype=np.uint8) != 0
            self._free = bytearray(flags.astype(np.uint8).tobytes())
        else:
            self._free = bytearray(1 if f else 0 for f in free)
        if len(self._free) != size:
            raise PathfindingError(
                f"grid of {width}x{height} needs {size} cells, got {len(self._free)}"
            )
        self._weights: list[float] | None = None
        if weights is not None:
            ws = [float(w) for w in weights]
            if len(ws) != size:
                raise PathfindingError(
                    f"grid of {width}x{height} needs {size} weights, got {len(ws)}"
                )
            for w in ws:
                if not (w > 0.0 and math.isfinite(w)):
                    raise PathfindingError(f"cell weights must be finite and > 0, got {w}")
            self._weights = ws
        self._padded: tuple[bytearray, list[float]] | None = None
        self._move_masks: tuple[bytes, list[tuple[tuple[int, float], ...]]] | None = None
        self.derived: dict[str, object] = {}
        """What other modules build from this grid, kept as long as it lives (the grid is
        never changed in place): ``plies.pathfinding.compiled.searcher_for`` keeps its
        compiled searcher here."""

    # -- construction helpers -------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[str], diagonal: bool = False, wall: str = "#@OTW") -> Grid:
        """Build a grid from equal-length strings where characters in ``wall`` are blocked."""
        if not rows:
            raise PathfindingError("a grid needs at least one row")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise PathfindingError("all grid rows must have the same length")
        free = bytearray(0 if ch in wall else 1 for r in rows for ch in r)
        return cls(width, len(rows), free, diagonal=diagonal)

    @classmethod
    def from_array(
        cls,
        free: npt.ArrayLike,
        weights: npt.ArrayLike | None = None,
        diagonal: bool = False,
    ) -> Grid:
        """Build a grid from a 2-D boolean array indexed ``[y, x]`` (True = free)."""
        arr = np.asarray(free, dtype=bool)
        if arr.ndim != 2:
            raise PathfindingError(f"a grid array must be 2-D, got {arr.ndim}-D")
        height, width = arr.shape
        ws = None
        if weights is not None:
            warr = np.asarray(weights, dtype=float)
            if warr.shape != arr.shape:
                raise PathfindingError(f"weights shape {warr.shape} differs from {arr.shape}")
            ws = warr.ravel().tolist()
        return cls(width, height, arr.astype(np.uint8).tobytes(), ws, diagonal)

    def with_diagonal(self, diagonal: bool) -> Grid:
        """Return the same cells with 4- or 8-connected moves."""
        return Grid(self.width, self.height, self._free, self._weights, diagonal)

    # -- queries ----------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height

    @property
    def weighted(self) -> bool:
        """True when some cell has a weight other than 1."""
        return self._weights is not None and any(w != 1.0 for w in self._weights)

    @property
    def min_weight(self) -> float:
        """The smallest cell weight (1 without weights); heuristics are scaled by it."""
        return 1.0 if self._weights is None else min(self._weights)

    def in_bounds(self, cell: Cell) -> bool:
        """True when ``cell`` lies on the grid."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def is_free(self, cell: Cell) -> bool:
        """True when ``cell`` is on the grid and not blocked."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height and self._free[y * self.width + x] != 0

    def weight(self, cell: Cell) -> float:
        """The cost factor for entering ``cell``."""
        if self._weights is None:
            return 1.0
        x, y = cell
        return self._weights[y * self.width + x]

    def free_cells(self) -> list[Cell]:
        """All free cells in row-major order."""
        w = self.width
        return [(i % w, i // w) for i, f in enumerate(self._free) if f]

    def count_free(self) -> int:
        """Number of free cells."""
        return len(self._free) - self._free.count(0)

    def to_array(self) -> npt.NDArray[np.bool_]:
        """A ``[y, x]`` boolean array, True where the cell is free."""
        arr = np.frombuffer(bytes(self._free), dtype=np.uint8).reshape(self.height, self.width)
        return arr.astype(bool)

    def weights_array(self) -> npt.NDArray[np.float64]:
        """A ``[y, x]`` array of cell weights (all ones without weights)."""
        if self._weights is None:
            return np.ones((self.height, self.width))
        return np.asarray(self._weights, dtype=float).reshape(self.height, self.width)

    def rows(self, wall: str = "#", free: str = ".") -> list[str]:
        """The grid as strings, one per row."""
        w = self.width
        return [
            "".join(free if self._free[y * w + x] else wall for x in range(w))
            for y in range(self.height)
        ]

    def check_cell(self, cell: Cell, what: str = "cell") -> None:
        """Raise ``InvalidCellError`` unless ``cell`` is a free cell of the grid."""
        x, y = cell
        if not self.in_bounds(cell):
            raise InvalidCellError(f"{what} {x},{y} is off the {self.width}x{self.height} grid")
        if not self.is_free(cell):
            raise InvalidCellError(f"{what} {x},{y} is on a wall")

    # -- moves ------------------------------------------------------------------

    def can_move(self, cell: Cell, move: Cell) -> bool:
        """True when ``move`` from ``cell`` is legal (target free, no corner cutting)."""
        x, y = cell
        dx, dy = move
        if not self.is_free((x + dx, y + dy)):
            return False
        if dx and dy:
            if not self.diagonal:
                return False
            return self.is_free((x + dx, y)) and self.is_free((x, y + dy))
        return abs(dx) + abs(dy) == 1

    def moves(self) -> tuple[Cell, ...]:
        """The moves this grid allows, straight ones first."""
        return STRAIGHT_MOVES + DIAGONAL_MOVES if self.diagonal else STRAIGHT_MOVES

    def neighbours(self, cell: Cell) -> list[tuple[Cell, float]]:
        """``(next_cell, step_cost)`` for every legal move from ``cell``."""
        x, y = cell
        out: list[tuple[Cell, float]] = []
        for dx, dy in self.moves():
            if self.can_move(cell, (dx, dy)):
                nxt = (x + dx, y + dy)
                base = SQRT2 if dx and dy else 1.0
                out.append((nxt, base * self.weight(nxt)))
        return out

    def predecessors(self, cell: Cell) -> list[tuple[Cell, float]]:
        """``(previous_cell, step_cost)`` for every legal move that ends in ``cell``."""
        x, y = cell
        w = self.weight(cell)
        out: list[tuple[Cell, float]] = []
        for dx, dy in self.moves():
            prev = (x - dx, y - dy)
            if self.is_free(prev) and self.can_move(prev, (dx, dy)):
                out.append((prev, (SQRT2 if dx and dy else 1.0) * w))
        return out

    def step_cost(self, a: Cell, b: Cell) -> float:
        """The cost of the single move from ``a`` to adjacent ``b`` (no legality check)."""
        base = SQRT2 if a[0] != b[0] and a[1] != b[1] else 1.0
        return base * self.weight(b)

    # -- the padded layout used by the fast kernels -----------------------------

    @property
    def padded_width(self) -> int:
        """Row length of the padded layout (one blocked border cell on each side)."""
        return self.width + 2

    def padded(self) -> tuple[bytearray, list[float]]:
        """The free flags and weights with a blocked border, so kernels skip bounds checks.

        Index of cell (x, y) is ``(y + 1) * (width + 2) + x + 1``.  Cached.
        """
        if self._padded is None:
            pw = self.width + 2
            pfree = bytearray(pw * (self.height + 2))
            pweights = [1.0] * len(pfree)
            for y in range(self.height):
                start = (y + 1) * pw + 1
                row = slice(y * self.width, (y + 1) * self.width)
                pfree[start : start + self.width] = self._free[row]
                if self._weights is not None:
                    pweights[start : start + self.width] = self._weights[row]
            self._padded = (pfree, pweights)
        return self._padded

    def move_masks(self) -> tuple[bytes, list[tuple[tuple[int, float], ...]]]:
        """Per padded index, a bit mask of the legal moves; and per mask, its moves.

        Bit i of ``masks[index]`` is set when move i of ``STRAIGHT_MOVES +
        DIAGONAL_MOVES`` is legal from that cell (corner cutting excluded);
        ``table[mask]`` lists those moves as ``(index_offset, base_cost)``.
        Computed once with numpy, so a kernel visits legal moves only.  Cached.
        """
        if self._move_masks is None:
            pfree, _ = self.padded()
            pw = self.width + 2
            free = np.frombuffer(bytes(pfree), dtype=np.uint8).astype(bool)
            size = free.size
            offsets = [dx + dy * pw for dx, dy in STRAIGHT_MOVES + DIAGONAL_MOVES]

            def shifted(off: int) -> npt.NDArray[np.bool_]:
                """``out[i] = free[i + off]`` (False past the ends)."""
                out = np.zeros(size, dtype=bool)
                if off > 0:
                    out[: size - off] = free[off:]
                else:
                    out[-off:] = free[: size + off]
                return out

            legal = [shifted(off) for off in offsets[:4]]
            if self.diagonal:
                for k, (dx, dy) in enumerate(DIAGONAL_MOVES):
                    side_x = legal[STRAIGHT_MOVES.index((dx, 0))]
                    side_y = legal[STRAIGHT_MOVES.index((0, dy))]
                    legal.append(shifted(offsets[4 + k]) & side_x & side_y)
            mask = np.zeros(size, dtype=np.uint8)
            for bit, ok in enumerate(legal):
                mask |= ok.astype(np.uint8) << bit
            mask[~free] = 0
            costs = [1.0] * 4 + [SQRT2] * 4
            table = [
                tuple((offsets[i], costs[i]) for i in range(8) if m >> i & 1) for m in range(256)
            ]
            self._move_masks = (mask.tobytes(), table)
        return self._move_masks

    def to_padded(self, cell: Cell) -> int:
        """Index of ``cell`` in the padded layout."""
        return (cell[1] + 1) * (self.width + 2) + cell[0] + 1

    def from_padded(self, index: int) -> Cell:
        """The cell at ``index`` of the padded layout."""
        y, x = divmod(index, self.width + 2)
        return (x - 1, y - 1)

    def cells_from_padded(self, indices: Sequence[int]) -> list[Cell]:
        """Convert padded indices to cells."""
        pw = self.width + 2
        return [(i % pw - 1, i // pw - 1) for i in indices]

    def lazy_cells(self, indices: list[int]) -> PaddedCells:
        """A read-only sequence of the cells at ``indices``, converted only when read."""
        return PaddedCells(indices, self.width + 2)

    def __repr__(self) -> str:
        """Short description: size, connectivity and weights."""
        moves = "8-connected" if self.diagonal else "4-connected"
        extra = ", weighted" if self._weights is not None else ""
        return f"Grid({self.width}x{self.height}, {moves}{extra})"

    def __eq__(self, other: object) -> bool:
        """Grids are equal when size, cells, weights and connectivity match."""
        if not isinstance(other, Grid):
            return NotImplemented
        return (
            self.width == other.width
            and self.height == other.height
            and self.diagonal == other.diagonal
            and self._free == other._free
            and self._weights == other._weights
        )

    __hash__ = None  # type: ignore[assignment]


class PaddedCells(Sequence[Cell]):
    """A read-only sequence of cells stored as padded indices and converted on access.

    Kernels record every expansion; converting hundreds of thousands of
    indices to tuples would cost more than the search itself, so the
    conversion waits until someone looks.
    """

    __slots__ = ("_indices", "_pw")

    def __init__(self, indices: list[int], padded_width: int) -> None:
        """Wrap ``indices`` of a padded layout whose rows are ``padded_width`` long."""
        self._indices = indices
        self._pw = padded_width

    def __len__(self) -> int:
        """Number of cells."""
        return len(self._indices)

    @overload
    def __getitem__(self, item: int) -> Cell: ...

    @overload
    def __getitem__(self, item: slice) -> list[Cell]: ...

    def __getitem__(self, item: int | slice) -> Cell | list[Cell]:
        """The cell at ``item`` (or a list of cells for a slice)."""
        pw = self._pw
        if isinstance(item, slice):
            return [(i % pw - 1, i // pw - 1) for i in self._indices[item]]
        i = self._indices[item]
        return (i % pw - 1, i // pw - 1)

    def __iter__(self) -> Iterator[Cell]:
        """Iterate over the cells in order."""
        pw = self._pw
        for i in self._indices:
            yield (i % pw - 1, i // pw - 1)

    def __eq__(self, other: object) -> bool:
        """Equal to any sequence holding the same cells in the same order."""
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        """Show the length, not the cells."""
        return f"<{len(self)} cells>"
