"""The compiled probes run on the core's own position and leave it exactly as they found it."""

from __future__ import annotations

import random

import chess
import numpy as np
from numba import njit
from tests.syzygy.data import DATA
from tests.syzygy.positions import random_position

from plies.board import Board
from plies.core import position_arrays, position_state
from plies.core.encoding import MAX_MOVES
from plies.core.position import Position
from plies.syzygy.dtz import probe_dtz
from plies.syzygy.probe import has_move_but_ep, probe_wdl
from plies.syzygy.tablebase import Tablebase
from plies.syzygy.tables import Tables


@njit(cache=True)
def _probe_from_position(tables: Tables, pos: Position) -> tuple[int, int, int, int]:
    """What a compiled search writes: both probes straight on its ``Position``."""
    wdl, ok = probe_wdl(tables, pos)
    dtz, dtz_ok = probe_dtz(tables, pos)
    return wdl, ok, dtz, dtz_ok


def test_compiled_call_from_a_position() -> None:
    """The call documented in ``plies.syzygy`` answers as the board probes do, and the
    position (bitboards, mailbox, state, ply) is unchanged after it."""
    tb = Tablebase(str(DATA))
    tables = tb.compiled()
    rng = random.Random(22)
    for i in range(60):
        board = random_position(["KPvKP", "KQvKR", "KQvKP"][i % 3], rng, swap=i % 2 == 1)
        pos = Board(board.fen()).core_position()
        pieces, squares, keys = (a.copy() for a in position_arrays(pos))
        state = position_state(pos)
        wdl, ok, dtz, dtz_ok = _probe_from_position(tables, pos)
        assert (wdl if ok else None) == tb.probe_wdl(board)
        assert (dtz if dtz_ok else None) == tb.probe_dtz(board)
        after = position_arrays(pos)
        assert np.array_equal(after[0], pieces) and np.array_equal(after[1], squares)
        assert after[2][state[5]] == keys[state[5]] and position_state(pos) == state


def test_only_en_passant_is_legal() -> None:
    """Black's only legal move is the en-passant capture: 'any other move' says no."""
    board = chess.Board("8/8/2B5/8/Pp6/1K6/1R6/k7 b - a3 0 1")
    assert [m.uci() for m in board.legal_moves] == ["b4a3"]
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    assert not has_move_but_ep(Board(board.fen()).core_position(), moves)
    board.ep_square = None
    assert not has_move_but_ep(Board(board.fen()).core_position(), moves)
    board.push(chess.Move.null())
    assert has_move_but_ep(Board(board.fen()).core_position(), moves)
