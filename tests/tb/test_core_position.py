"""The compiled probes read the engine's own position arrays as they are."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from numba import njit
from tests.tb.positions import random_position

from plies.board import Board
from plies.core import position_arrays, position_state
from plies.core.syzygy import new_scratch, probe_wdl
from plies.core.syzygy_dtz import new_dtz_scratch, probe_dtz
from plies.tb import Tablebase, board_arrays

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"


def test_search_position_fields_probe_directly() -> None:
    """``pos.pieces`` (16 slots), ``pos.side`` and ``pos.ep`` go to the probes as they are."""
    tb = Tablebase(str(DATA))
    rng = random.Random(21)
    for i in range(60):
        board = random_position(["KPvKP", "KQvKR", "KQvKP"][i % 3], rng, swap=i % 2 == 1)
        pos = Board(board.fen()).core_position()
        pieces = position_arrays(pos)[0]
        side, castling, ep = position_state(pos)[:3]
        expected, _, expected_ep = board_arrays(board)
        assert castling == 0
        assert np.array_equal(pieces, expected) and ep == expected_ep
        assert tb.probe_wdl_bitboards(pieces, side, ep) == tb.probe_wdl(board)
        assert tb.probe_dtz_bitboards(pieces, side, ep) == tb.probe_dtz(board)


@njit(cache=True)
def _probe_from_position(
    files, keys, entries, tables, pairs, symlen, base, pos, stack, moves, dboards, dmoves
):
    """What a compiled search writes: both probes straight from a ``Position``'s fields."""
    wdl, ok = probe_wdl(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        pos.pieces,
        pos.side,
        pos.ep,
        stack,
        moves,
    )
    dtz, dtz_ok = probe_dtz(
        files,
        keys,
        entries,
        tables,
        pairs,
        symlen,
        base,
        pos.pieces,
        pos.side,
        pos.ep,
        stack,
        moves,
        dboards,
        dmoves,
    )
    return wdl, ok, dtz, dtz_ok


def test_compiled_call_from_a_position() -> None:
    """The call documented in ``plies.tb`` compiles and answers as the board probes do."""
    tb = Tablebase(str(DATA))
    scratch = (*new_scratch(), *new_dtz_scratch())
    rng = random.Random(22)
    for i in range(20):
        board = random_position(["KPvKP", "KQvKR", "KQvK"][i % 3], rng, swap=i % 2 == 1)
        pos = Board(board.fen()).core_position()
        wdl, ok, dtz, dtz_ok = _probe_from_position(*tb.arrays(), pos, *scratch)
        assert (wdl if ok else None) == tb.probe_wdl(board)
        assert (dtz if dtz_ok else None) == tb.probe_dtz(board)
