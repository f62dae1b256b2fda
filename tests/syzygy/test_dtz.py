"""Compiled DTZ probes agree with python-chess's ``probe_dtz`` on random positions."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.syzygy
import pytest
from tests.syzygy.data import DATA, copy_tables
from tests.syzygy.positions import en_passant_positions, random_position

from plies.syzygy.tablebase import Tablebase


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
    for board in en_passant_positions(150, seed=17):
        assert tb.probe_dtz(board) == ref.probe_dtz(board), board.fen()


def test_missing_dtz_table_matches_python_chess(tmp_path: Path) -> None:
    """KQvKR with its WDL table but no DTZ table: draws and won captures are still known."""
    names = ["KQvKR.rtbw", "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"]
    holed = str(copy_tables(names, tmp_path))
    tb, ref = Tablebase(holed), chess.syzygy.open_tablebase(holed)
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
def test_every_table_thousand(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """1,000 random positions of every 3- and 4-man DTZ table agree with python-chess."""
    tb, ref = bundled
    assert len(tb.names(dtz=True)) == 35
    for name in tb.names(dtz=True):
        assert _agree(tb, ref, name, 1000, seed=sum(map(ord, name))) == 1000


def _reference_root(ref: chess.syzygy.Tablebase, board: chess.Board) -> dict[str, int] | None:
    """python-chess's probes combined as a search ranks root moves (DTZ counted from the root)."""
    result = {}
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.halfmove_clock == 0:
                wdl = -ref.probe_wdl(board)
                sign = (wdl > 0) - (wdl < 0)
                dtz = sign if abs(wdl) == 2 else 101 * sign
            else:
                dtz = -ref.probe_dtz(board)
                dtz = dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0
                if dtz == 2 and board.is_checkmate():
                    dtz = 1
        except KeyError:
            return None
        finally:
            board.pop()
        result[move.uci()] = dtz
    return result


@pytest.mark.parametrize("name", ["KQvK", "KRvK", "KPvK", "KPvKP"])
def test_root_move_dtz(bundled: tuple[Tablebase, chess.syzygy.Tablebase], name: str) -> None:
    """Every legal root move's DTZ matches python-chess's probes of the position after it."""
    tb, ref = bundled
    rng = random.Random(sum(map(ord, name)) + 1)
    for i in range(40):
        board = random_position(name, rng, swap=i % 2 == 1)
        board.halfmove_clock = 5
        assert tb.root_dtz(board) == _reference_root(ref, board), board.fen()


def test_root_mate_scores_one(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """The mating root move gets DTZ 1 and every stalemating one 0."""
    tb, ref = bundled
    board = chess.Board("k7/8/1K6/8/8/8/7Q/8 w - - 0 1")
    assert board.is_valid()
    root = tb.root_dtz(board)
    assert root is not None and root == _reference_root(ref, board)
    mates, stalemates = set(), set()
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            mates.add(move.uci())
        if board.is_stalemate():
            stalemates.add(move.uci())
        board.pop()
    assert mates == {"h2h8"} == {k for k, v in root.items() if v == 1}
    assert "h2c7" in stalemates and all(root[k] == 0 for k in stalemates)


@pytest.mark.slow
def test_root_moves_every_table(bundled: tuple[Tablebase, chess.syzygy.Tablebase]) -> None:
    """Root-move DTZ of 100 random positions of every 3- and 4-man table equals python-chess's."""
    tb, ref = bundled
    for name in tb.names(dtz=True):
        rng = random.Random(sum(map(ord, name)) + 2)
        for i in range(100):
            board = random_position(name, rng, swap=i % 2 == 1)
            board.halfmove_clock = 5
            assert tb.root_dtz(board) == _reference_root(ref, board), board.fen()
