"""Grid moves and costs: 4/8-connected, sqrt(2) diagonals, no corner cutting, weights."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from plies.pathfinding import Grid, GridProblem, InvalidCellError, PathfindingError, random_grid


def test_straight_and_diagonal_costs() -> None:
    grid = Grid.from_rows(["...", "...", "..."], diagonal=True)
    nbrs = dict(grid.neighbours((1, 1)))
    assert len(nbrs) == 8
    assert nbrs[(2, 1)] == 1.0
    assert nbrs[(2, 2)] == pytest.approx(math.sqrt(2))


def test_four_connected_has_no_diagonals() -> None:
    grid = Grid.from_rows(["...", "...", "..."])
    assert sorted(c for c, _ in grid.neighbours((1, 1))) == [(0, 1), (1, 0), (1, 2), (2, 1)]


@pytest.mark.parametrize(
    "rows",
    [
        [".#", ".."],  # one orthogonal neighbour blocked
        ["..", "#."],  # the other one
        [".#", "#."],  # both
    ],
)
def test_no_corner_cutting(rows: list[str]) -> None:
    grid = Grid.from_rows(rows, diagonal=True)
    assert not grid.can_move((0, 0), (1, 1))
    assert (1, 1) not in dict(grid.neighbours((0, 0)))
    assert (0, 0) not in dict(grid.predecessors((1, 1)))


def test_weights_multiply_the_cost_of_entering() -> None:
    grid = Grid(3, 1, weights=[1, 5, 2])
    assert dict(grid.neighbours((0, 0)))[(1, 0)] == 5.0
    assert dict(grid.neighbours((1, 0)))[(2, 0)] == 2.0
    assert dict(grid.predecessors((1, 0)))[(0, 0)] == 5.0
    assert grid.min_weight == 1.0


def test_bad_weights_and_sizes_are_one_line_errors() -> None:
    with pytest.raises(PathfindingError, match="weights must be finite and > 0"):
        Grid(2, 1, weights=[1, 0])
    with pytest.raises(PathfindingError, match="at least 1x1"):
        Grid(0, 3)
    with pytest.raises(PathfindingError, match="needs 4 cells"):
        Grid(2, 2, free=b"\x01")


def test_problem_rejects_walls_and_off_grid_cells() -> None:
    grid = Grid.from_rows([".#", ".."])
    with pytest.raises(InvalidCellError, match="start 1,0 is on a wall"):
        GridProblem(grid, (1, 0), (0, 0))
    with pytest.raises(InvalidCellError, match="goal 5,5 is off the 2x2 grid"):
        GridProblem(grid, (0, 0), (5, 5))


@pytest.mark.parametrize("diagonal", [False, True])
def test_move_tables_match_a_direct_construction(
    diagonal: bool, reference_digraph: Callable[..., Any]
) -> None:
    # The fast kernels read moves from numpy-built bit masks; check every cell.
    for seed in range(4):
        grid = random_grid(13, 9, 0.35, seed=seed, diagonal=diagonal)
        ref = reference_digraph(grid)
        cells = grid.free_cells()
        problem = GridProblem(grid, cells[0], cells[0])
        masks, table = grid.move_masks()
        for cell in cells:
            expected = {v: d["weight"] for _, v, d in ref.out_edges(cell, data=True)}
            assert dict(grid.neighbours(cell)) == pytest.approx(expected)
            got = {nxt: cost for _, nxt, cost in problem.successors(cell)}
            assert got == pytest.approx(expected)
            pidx = grid.to_padded(cell)
            via_table = {grid.from_padded(pidx + off): c for off, c in table[masks[pidx]]}
            assert via_table == pytest.approx(expected)
            preds = {u: d["weight"] for u, _, d in ref.in_edges(cell, data=True)}
            assert dict(problem.predecessors(cell)) == pytest.approx(preds)


def test_weighted_predecessors_pay_the_weight_of_the_cell_entered(
    reference_digraph: Callable[..., Any],
) -> None:
    rng = random.Random(3)
    grid = Grid(6, 5, weights=[rng.choice([1, 2, 7]) for _ in range(30)], diagonal=True)
    ref = reference_digraph(grid)
    problem = GridProblem(grid, (0, 0), (5, 4))
    for cell in grid.free_cells():
        preds = {u: d["weight"] for u, _, d in ref.in_edges(cell, data=True)}
        assert dict(problem.predecessors(cell)) == pytest.approx(preds)


def test_from_array_rows_and_equality() -> None:
    grid = Grid.from_rows([".#.", "..."])
    assert Grid.from_array(grid.to_array()) == grid
    assert grid.rows() == [".#.", "..."]
    assert grid.count_free() == 5
    assert grid.with_diagonal(True) != grid
