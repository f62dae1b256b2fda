"""The mate suites through ``plies uci``: every mate found, with the right ``score mate N``.

The files (tests/data/mates, from sunfish's test files) give no solutions, so
each first move is checked independently with python-chess: after it, every
reply must allow a mate in one (mate in two) or it must mate (mate in one).
The default run takes every mate in one and a sample of the mates in two;
``-m slow`` runs all 212.
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.engine
import pytest

MATES = Path(__file__).resolve().parents[1] / "data" / "mates"

# Modest depths: a mate in N needs 2N-1 plies; the rest is margin for the
# pruning (null move, LMR, futility), which hides a few mates in two until
# depth 7-10 (measured: 205 of 212 show by depth 6, all by depth 10).
MATE_NODE_CAP = 5_000_000

# Every SAMPLE_STEP-th mate in two runs in the default (quick) suite.
SAMPLE_STEP = 10


def load(name: str) -> list[str]:
    """The FENs of one mate file (blank lines skipped)."""
    with open(MATES / name, encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


MATE1 = load("mate1.fen")
MATE2 = load("mate2.fen")


def mates_in_one(board: chess.Board) -> bool:
    """Whether the side to move has a mate in one."""
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def forces_mate(board: chess.Board, move: chess.Move, moves: int) -> bool:
    """Whether ``move`` mates at once (1) or forces a mate in one after any reply (2)."""
    board.push(move)
    try:
        if board.is_checkmate():
            return True
        if moves == 1 or board.is_game_over():
            return False
        for reply in list(board.legal_moves):
            board.push(reply)
            ok = mates_in_one(board)
            board.pop()
            if not ok:
                return False
        return True
    finally:
        board.pop()


def check_mate(engine: chess.engine.SimpleEngine, fen: str, moves: int) -> None:
    """The engine scores ``fen`` as mate in ``moves`` and its first move forces it."""
    board = chess.Board(fen)
    # "go mate N": deepen until the mate is proven; the node cap only bounds a failure.
    limit = chess.engine.Limit(mate=moves, nodes=MATE_NODE_CAP)
    info = engine.analyse(board, limit, game=fen)
    score = info["score"].relative
    assert score == chess.engine.Mate(moves), f"{fen}: reported {score}"
    best = info["pv"][0]
    assert forces_mate(board, best, moves), f"{fen}: {best} does not force mate"


@pytest.mark.parametrize("fen", MATE1)
def test_mate_in_one(uci_engine: chess.engine.SimpleEngine, fen: str) -> None:
    """Every mate in one: ``score mate 1`` and the mating move."""
    check_mate(uci_engine, fen, 1)


@pytest.mark.parametrize("fen", MATE2[::SAMPLE_STEP])
def test_mate_in_two_sample(uci_engine: chess.engine.SimpleEngine, fen: str) -> None:
    """A sample of the mates in two: ``score mate 2`` and a first move that forces it."""
    check_mate(uci_engine, fen, 2)


@pytest.mark.slow
def test_every_mate_in_two(uci_engine: chess.engine.SimpleEngine) -> None:
    """All 212 mates in two (slow): the failures, if any, are listed together."""
    failures = []
    for fen in MATE2:
        try:
            check_mate(uci_engine, fen, 2)
        except AssertionError as exc:
            failures.append(str(exc).splitlines()[0])
    assert not failures, f"{len(failures)} of {len(MATE2)} failed:\n" + "\n".join(failures)
