"""Compiled WDL probes agree with python-chess's prober on random positions."""

from __future__ import annotations

import random

import chess
import chess.syzygy
import numpy as np
import pytest
from tests.syzygy.data import DATA
from tests.syzygy.positions import en_passant_positions, random_position

from plies.board import Board
from plies.core.encoding import NO_SQUARE
from plies.syzygy.tablebase import Tablebase, board_arrays

SAMPLE = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQvKR", "KBNvK", "KQvKP", "KPvKP", "KRvKB"]
"""The tables the quick tests sample (the slow test compares every table)."""


@pytest.fixture(scope="module")
def bundled() -> tuple[Tablebase, chess.syzygy.Tablebase]:
    """The project's own tables, opened by plies and by python-chess."""
    return Tablebase(str(DATA)), chess.syzygy.open_tablebase(str(DATA))


def _agreement(
    tb: Tablebase, ref: chess.syzygy.Tablebase, name: str, count: int, seed: int
) -> tuple[int, int]:
    """Probe ``count`` random positions of ``name`` both ways; (agreeing, with en passant)."""
    rng = random.Random(seed)
    same = with_ep = 0
    for i in range(count):
        board = random_position(name, rng, swap=i % 2 == 1)
        with_ep += board.has_legal_en_passant()
        mine, theirs = tb.probe_wdl(board), ref.probe_wdl(board)
        assert mine == theirs, f"{name} {board.fen()}: plies {mine}, python-chess {theirs}"
        same += 1
    return same, with_ep


def test_bundled_tables_load(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """Every bundled file opens without a problem: all 35 3- and 4-man tables, WDL and DTZ."""
    tb, _ = bundled
    assert tb.problems == []
    assert len(tb.names()) == 35 and set(SAMPLE) <= set(tb.names())
    assert tb.names(dtz=True) == tb.names()
    assert tb.max_men == 4


@pytest.mark.parametrize("name", SAMPLE)
def test_random_positions_agree(
    bundled: tuple[Tablebase, chess.syzygy.Tablebase], name: str
) -> None:
    """300 random positions per sampled table, either colour to move and either colour strong."""
    tb, ref = bundled
    same, _ = _agreement(tb, ref, name, 300, seed=len(name) * 7919 + ord(name[1]))
    assert same == 300


def test_en_passant_positions_agree(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """KPvKP positions with a legal en-passant capture give python-chess's value."""
    tb, ref = bundled
    for board in en_passant_positions(300, seed=5):
        assert tb.probe_wdl(board) == ref.probe_wdl(board), board.fen()


def test_known_values(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """A few values known without a prober: bare kings draw, a lone queen wins."""
    tb, _ = bundled
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/K7 w - - 0 1")) == 0
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) == 2
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")) == -2
    # KBNvK is a win in general; the side to move with the pieces wins here.
    assert tb.probe_wdl(chess.Board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")) == -2


def test_unprobeable_positions(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """Missing tables, castling rights and too many men give None, not an error."""
    tb, _ = bundled
    assert tb.probe_wdl(chess.Board("8/8/8/4k3/8/8/8/KRRR4 w - - 0 1")) is None  # 5 men
    assert tb.probe_wdl(chess.Board()) is None
    assert tb.probe_wdl(chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) is None


def test_plies_board_entry_point(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """A plies ``Board`` (its core position) probes as the python-chess board does; mirrored
    boards negate."""
    tb, ref = bundled
    board = chess.Board("8/8/3k4/8/8/8/1Q6/K7 b - - 0 1")
    bbs, side, ep = board_arrays(board)
    assert side == 1 and ep == NO_SQUARE
    assert bbs.dtype == np.uint64 and bbs.shape == (16,)
    assert tb.probe_wdl(Board(board.fen())) == ref.probe_wdl(board) == -2
    mirrored = board.mirror()
    assert tb.probe_wdl(mirrored) == -2


def test_five_men_resolved_by_a_capture(
    bundled: tuple[Tablebase, chess.syzygy.Tablebase],
) -> None:
    """With only 3-4-man tables, a 5-man position is known exactly when a capture wins."""
    tb, ref = bundled
    rng = random.Random(9)
    known = 0
    for i in range(400):
        board = random_position(
            rng.choice(["KQRvKR", "KRPvKQ", "KQPvKP", "KPPvKP"]), rng, swap=i % 2 == 1
        )
        theirs = ref.get_wdl(board)
        assert tb.probe_wdl(board) == theirs, board.fen()
        known += theirs is not None
    assert 0 < known < 400


@pytest.mark.slow
def test_every_table_thousands(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """3,000 random positions of every 3- and 4-man table agree with python-chess."""
    tb, ref = bundled
    assert len(tb.names()) == 35
    for name in tb.names():
        same, _ = _agreement(tb, ref, name, 3000, seed=len(name) * 7919 + sum(map(ord, name)))
        assert same == 3000
