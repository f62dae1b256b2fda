"""Compiled DTZ probes agree with python-chess's ``probe_dtz`` on random positions."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.syzygy
import pytest
from tests.tb.positions import random_position

from plies.tb import Tablebase

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "syzygy"


@pytest.fixture(scope="module")
def bundled() -> tuple[Tablebase, chess.syzygy.Tablebase]:
    """The project's own tables, opened by plies and by python-chess."""
    return Tablebase(str(DATA)), chess.syzygy.open_tablebase(str(DATA))


def _agree(tb: Tablebase, ref: chess.syzygy.Tablebase, name: str, count: int, seed: int) -> int:
    """Compare ``count`` random positions of ``name``; the number compared (all must agree)."""
    rng = random.Random(seed)
    for i in range(count):
        board = random_position(name, rng, swap=i % 2 == 1)
        mine, theirs = tb.probe_dtz(board), ref.get_dtz(board)
        assert mine == theirs, f"{name} {board.fen()}: plies {mine}, python-chess {theirs}"
    return count


@pytest.mark.parametrize("name", ["KQvK", "KRvK", "KPvK", "KPvKP"])
def test_random_positions_agree(
    bundled: tuple[Tablebase, chess.syzygy.Tablebase], name: str
) -> None:
    """150 random positions per bundled DTZ table, both sides to move, both colours strong."""
    tb, ref = bundled
    assert _agree(tb, ref, name, 150, seed=sum(map(ord, name))) == 150


def test_en_passant_positions_agree(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """KPvKP positions with a legal en-passant capture: the root merges its value in."""
    tb, ref = bundled
    rng = random.Random(17)
    seen = 0
    while seen < 150:
        board = random_position("KPvKP", rng, swap=False)
        if board.has_legal_en_passant():
            seen += 1
            assert tb.probe_dtz(board) == ref.probe_dtz(board), board.fen()


def test_missing_dtz_table_matches_python_chess(
    bundled: tuple[Tablebase, chess.syzygy.Tablebase],
) -> None:
    """KQvKR has a WDL table but no DTZ table here: draws and won captures are still known."""
    tb, ref = bundled
    rng = random.Random(3)
    answers = []
    for i in range(200):
        board = random_position("KQvKR", rng, swap=i % 2 == 1)
        answers.append(tb.probe_dtz(board))
        assert answers[-1] == ref.get_dtz(board), board.fen()
    assert None in answers and any(a is not None for a in answers)


def test_known_values(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """Bare kings: 0; a queen against a bare king: a win within the 50-move rule."""
    tb, _ = bundled
    assert tb.probe_dtz(chess.Board("8/8/8/4k3/8/8/8/K7 w - - 0 1")) == 0
    won = tb.probe_dtz(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"))
    lost = tb.probe_dtz(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1"))
    assert won is not None and 0 < won <= 100
    assert lost is not None and -100 <= lost < 0


@pytest.mark.slow
def test_every_table_thousand() -> None:
    """1,000 random positions of every 3- and 4-man DTZ table agree with python-chess."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not present")
    tb = Tablebase(str(SHARED))
    ref = chess.syzygy.open_tablebase(str(SHARED))
    assert len(tb.names(dtz=True)) == 35
    for name in tb.names(dtz=True):
        assert _agree(tb, ref, name, 1000, seed=sum(map(ord, name))) == 1000
