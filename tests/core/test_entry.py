"""Python calls into the core release the positions they pass (no leaked references)."""

from __future__ import annotations

from plies.board import Board
from plies.core import (
    copy_position,
    in_check,
    legal_moves,
    new_info,
    new_stack,
    new_table,
    opponent_in_check,
    push_move,
    search_root,
    unmake_move,
)


def _refcount(pos: object) -> int:
    """The compiled object's reference count (numba MemInfo)."""
    return int(pos._meminfo.refcount)  # type: ignore[attr-defined]


def test_board_entry_points_release_the_position() -> None:
    """Each entry point the board layer calls leaves the position's count as it found it."""
    pos = Board().core_position()
    before = _refcount(pos)
    moves = legal_moves(pos)
    in_check(pos)
    opponent_in_check(pos)
    push_move(pos, int(moves[0]))
    unmake_move(pos)
    assert _refcount(pos) == before


def test_search_root_releases_the_position() -> None:
    """A root search called from Python does not keep its position alive."""
    board = Board()
    pos = copy_position(board.core_position())
    arrays = new_stack()
    moves = legal_moves(pos)
    arrays.root_moves[: len(moves)] = moves
    info = new_info()
    before = _refcount(pos)
    table = new_table(1)[0]
    search_root(pos, arrays.compiled(), table, info, len(moves), 2, -30000, 30000)
    assert _refcount(pos) == before
