"""Path finding on a ``Grid`` as a ``Problem``: states are cells, actions are moves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from plies.pathfinding.grid import DIAGONAL_MOVES, SQRT2, STRAIGHT_MOVES, Cell, Grid
from plies.pathfinding.heuristics import (
    admissible_on_grid,
    default_grid_heuristic,
    get_heuristic,
)
from plies.pathfinding.problem import Problem

if TYPE_CHECKING:
    from plies.pathfinding.result import SearchResult

_MOVES = STRAIGHT_MOVES + DIAGONAL_MOVES
_COSTS = (1.0,) * len(STRAIGHT_MOVES) + (SQRT2,) * len(DIAGONAL_MOVES)
# For each bit mask of legal moves (see Grid.move_masks): ((dx, dy), base cost) pairs.
_MOVE_TABLE = [
    tuple((_MOVES[i], _COSTS[i]) for i in range(8) if mask >> i & 1) for mask in range(256)
]


class GridProblem(Problem[Cell, Cell]):
    """Go from ``start`` to ``goal`` on ``grid``; actions are ``(dx, dy)`` moves.

    ``heuristic`` names the estimate used by informed searches ("auto" picks
    octile on 8-connected grids and Manhattan on 4-connected ones).  It is
    multiplied by the grid's smallest weight so it stays admissible and
    consistent on weighted grids.
    """

    def __init__(self, grid: Grid, start: Cell, goal: Cell, heuristic: str = "auto") -> None:
        """Check that start and goal are free cells and remember the heuristic."""
        grid.check_cell(start, "start")
        grid.check_cell(goal, "goal")
        super().__init__(start, goal)
        self.grid = grid
        self.heuristic_name = (
            default_grid_heuristic(grid.diagonal) if heuristic == "auto" else heuristic
        )
        self._h = get_heuristic(self.heuristic_name)
        self.heuristic_scale = grid.min_weight
        masks, _ = grid.move_masks()
        self._masks = masks
        self._pw = grid.padded_width
        self._weighted = grid.weighted
        self._table = _MOVE_TABLE

    @property
    def heuristic_admissible(self) -> bool:
        """True when the chosen heuristic never overestimates on this grid."""
        return admissible_on_grid(self.heuristic_name, self.grid.diagonal)

    def actions(self, state: Cell) -> list[Cell]:
        """The legal moves from ``state``."""
        return [m for m in self.grid.moves() if self.grid.can_move(state, m)]

    def result(self, state: Cell, action: Cell) -> Cell:
        """The cell reached by ``action``."""
        return (state[0] + action[0], state[1] + action[1])

    def step_cost(self, state: Cell, action: Cell, next_state: Cell) -> float:
        """1 or sqrt(2), times the weight of the cell entered."""
        base = SQRT2 if action[0] and action[1] else 1.0
        return base * self.grid.weight(next_state)

    def heuristic(self, state: Cell) -> float:
        """The chosen distance estimate from ``state`` to the goal."""
        dx = abs(state[0] - self.goal[0])
        dy = abs(state[1] - self.goal[1])
        return self.heuristic_scale * self._h(dx, dy)

    def start_heuristic(self, state: Cell) -> float:
        """The chosen distance estimate from the start to ``state``."""
        dx = abs(state[0] - self.initial[0])
        dy = abs(state[1] - self.initial[1])
        return self.heuristic_scale * self._h(dx, dy)

    def successors(self, state: Cell) -> Iterable[tuple[Cell, Cell, float]]:
        """Legal moves, the cells they reach and their costs (from the grid's move table)."""
        x, y = state
        moves = self._table[self._masks[(y + 1) * self._pw + x + 1]]
        if self._weighted:
            weight = self.grid.weight
            return [(m, (x + m[0], y + m[1]), c * weight((x + m[0], y + m[1]))) for m, c in moves]
        return [(m, (x + m[0], y + m[1]), c) for m, c in moves]

    def predecessors(self, state: Cell) -> Iterable[tuple[Cell, float]]:
        """Cells with a legal move into ``state``, with that move's cost.

        Moves are symmetric (the corner rule looks at the same two cells both
        ways), so these are the successors, paying the weight of ``state``.
        """
        x, y = state
        w = self.grid.weight(state)
        moves = self._table[self._masks[(y + 1) * self._pw + x + 1]]
        return [((x + m[0], y + m[1]), c * w) for m, c in moves]

    def picture_png(self, result: SearchResult[Any]) -> bytes:
        """Return ``result`` drawn on the grid as ``plies maze`` draws it, as PNG bytes."""
        # Imported here: drawing needs Pillow, which searching does not.
        from plies.pathfinding.render.grid_picture import draw_grid
        from plies.pathfinding.render.notebook import png_bytes

        return png_bytes(draw_grid(self.grid, result, self.initial, self.goal))

    def __repr__(self) -> str:
        """Short description of the problem."""
        return f"GridProblem({self.grid!r}, {self.initial} -> {self.goal}, {self.heuristic_name})"
