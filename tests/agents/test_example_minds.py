"""The example minds of the "Write a mind" page: each plays, the searches see what they should,
and the Java mind compiles and plays where ``javac`` exists."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import chess
import pytest
from tests.waiting import HANG_S

from plies.agents.registry import make_player
from plies.agents.spec import parse_player
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameSettings, play_game
from plies.board import Board, Move
from plies.engine.limits import Limit

MINDS = Path(__file__).resolve().parents[2] / "examples" / "minds"
JAVAC = shutil.which("javac")
JAVA = shutil.which("java")
SHORT = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S,
                     adjudication=Adjudication(max_moves=8))


def _module(name: str) -> ModuleType:
    """Import an example mind in this process (its folder on the path, as the child has it)."""
    sys.path.insert(0, str(MINDS))
    try:
        spec = importlib.util.spec_from_file_location(f"example_{name}", MINDS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(MINDS))


def test_every_example_is_a_short_file() -> None:
    for path in MINDS.glob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert 10 <= lines <= 60, (path.name, lines)


@pytest.mark.parametrize("name", ["random_mind", "capture_first", "minimax2"])
@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK], ids=["white", "black"])
def test_example_plays_a_game_from_its_child_process(name: str, color: chess.Color) -> None:
    mind = parse_player(str(MINDS / f"{name}.py")).create()
    other = make_player("random")
    try:
        record = play_game(*((mind, other) if color == chess.WHITE else (other, mind)),
                           Opening(chess.STARTING_FEN), SHORT, seed=2)
    finally:
        mind.close()
    assert record.finished and not record.fault, record.reason
    assert len(record.moves) >= 14


def _mirrored(move: Move) -> Move:
    """``move`` on the board turned around, colours swapped (as ``Board.mirror`` turns it)."""
    return Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square),
                move.promotion)


@pytest.mark.parametrize("fen", [
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1",
    "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
])
def test_the_examples_play_black_as_they_play_white(fen: str) -> None:
    """The same position with the colours swapped (Black to move): the evaluation and the
    searched value are the same for the side to move, and the moves chosen are mirrored."""
    evaluation, capture, minimax = (_module(n) for n in ("evaluation", "capture_first",
                                                        "minimax2"))
    board = Board(fen)
    mirror = board.mirror()
    assert board.turn and not mirror.turn
    assert evaluation.evaluate(mirror) == evaluation.evaluate(board)
    assert minimax.negamax(mirror, 2) == minimax.negamax(board, 2)
    if fen.startswith("4k3/8/8/3q4"):  # the free queen: both colours take it
        assert (minimax.choose(board).uci(), minimax.choose(mirror).uci()) == ("d2d5", "d7d4")
    captures = {_mirrored(m) for m in board.legal_moves if board.is_capture(m)}
    assert captures == {m for m in mirror.legal_moves if mirror.is_capture(m)}
    if captures:
        assert capture.choose(mirror) in captures


def test_capture_first_takes_and_the_searches_see_ahead() -> None:
    capture, minimax, alphabeta = (_module(n) for n in ("capture_first", "minimax2",
                                                       "alphabeta4"))
    hanging = Board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert capture.choose(hanging).uci() == "e4d5"
    # Minimax to depth 2 does not take a pawn defended by a pawn with its queen ...
    poisoned = Board("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")
    assert minimax.choose(poisoned).uci() != "d2d5"
    # ... and mates in one; alpha-beta to depth 4 finds the two-move mate (a rook lift).
    assert minimax.choose(Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")).uci() == "a1a8"
    mate_in_two = Board("7k/8/5K2/8/8/8/8/1R6 w - - 0 1")
    first = alphabeta.choose(mate_in_two)
    mate_in_two.push(first)
    for reply in mate_in_two.legal_moves:
        mate_in_two.push(reply)
        assert alphabeta.choose(mate_in_two) in [m for m in mate_in_two.legal_moves
                                                 if _mates(mate_in_two, m)]
        mate_in_two.pop()


def _mates(board: Board, move: Move) -> bool:
    """True if ``move`` checkmates on ``board``."""
    board.push(move)
    mate = board.is_checkmate()
    board.pop()
    return mate


@pytest.mark.skipif(JAVAC is None or JAVA is None, reason="no JDK (javac, java) on this machine")
def test_java_mind_compiles_and_plays(tmp_path: Path) -> None:
    assert JAVAC is not None and JAVA is not None
    subprocess.run([JAVAC, "-d", str(tmp_path), str(MINDS / "java" / "CaptureMind.java")],
                   check=True, timeout=HANG_S)
    mind = parse_player(f"mind:{JAVA} -cp {tmp_path} CaptureMind").create()
    try:
        for seed in (1, 2):
            record = play_game(mind, make_player("random"),
                               Opening(chess.STARTING_FEN),
                               GameSettings(limit=Limit(depth=1),
                                            adjudication=Adjudication(max_moves=60)),
                               seed=seed)
            assert record.finished and not record.fault, record.reason
            assert len(record.moves) >= 20 or record.termination == "normal"
    finally:
        mind.close()
