"""Position validation: unplayable positions refused as python-chess's status() does.

The rule set is python-chess's ``Board.status()`` minus the checks that are
merely unusual (three checkers, or two no single move could uncover): those
positions are accepted, as the rules still apply to them. A crafted FEN with
256 legal moves (more than a playable position can have) is refused before any
move is generated, by the board and through ``plies uci``.
"""

from __future__ import annotations

import re

import chess
import pytest
from tests.uci.conftest import run_script

from plies import Board, Engine, Limit
from plies.board import InvalidFenError, perft
from plies.board.fen import MAX_CLOCK

CRAFTED = "QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"

# python-chess's status bits that make a position unplayable, with a FEN showing
# each and the words our refusal must contain.
REFUSED = [
    (CRAFTED, chess.STATUS_TOO_MANY_WHITE_PIECES, r"27 white pieces"),
    ("rnbqkbnr/pppppppp/n7/8/8/8/8/4K3 w kq - 0 1", chess.STATUS_TOO_MANY_BLACK_PIECES,
     r"17 black pieces"),
    ("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", chess.STATUS_TOO_MANY_WHITE_PAWNS,
     r"9 white pawns"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1", chess.STATUS_TOO_MANY_BLACK_PAWNS,
     r"9 black pawns"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", chess.STATUS_NO_WHITE_KING, r"0 white kings"),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", chess.STATUS_NO_BLACK_KING, r"0 black kings"),
    ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", chess.STATUS_TOO_MANY_KINGS, r"2 white kings"),
    ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", chess.STATUS_PAWNS_ON_BACKRANK, r"pawn on the back rank"),
    ("8/8/8/3kK3/8/8/8/8 b - - 0 1", chess.STATUS_OPPOSITE_CHECK, r"kings touch"),
    ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", chess.STATUS_OPPOSITE_CHECK, r"not to move is in check"),
    ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", chess.STATUS_BAD_CASTLING_RIGHTS, r"castling"),
    ("4k3/8/8/8/8/8/8/R2K3R w Q - 0 1", chess.STATUS_BAD_CASTLING_RIGHTS, r"castling"),
    ("4k3/8/8/8/3p4/8/8/4K3 w - d6 0 1", chess.STATUS_INVALID_EP_SQUARE, r"en-passant"),
    ("4k3/8/8/8/3P4/8/8/4K3 w - d3 0 1", chess.STATUS_INVALID_EP_SQUARE, r"en-passant"),
]

# Unusual checks python-chess flags but plays: accepted, with python-chess's moves.
UNUSUAL_CHECKS = [
    ("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", chess.STATUS_IMPOSSIBLE_CHECK),
    ("7k/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1",
     chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK),
]

# A plausible en-passant square without a pawn to capture: kept, written back as "-"
# (python-chess does the same); an impossible one is refused (see REFUSED).
HARMLESS_EP = "4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1"

# 237 legal moves with 15 queens and a king: more than any reachable position has
# (218), yet python-chess calls it valid. Found by a seeded hill climb on move count.
MANY_MOVES = "knQ1QQ2/ppQ3QK/Q7/3Q3Q/1Q5Q/4Q3/2Q4Q/Q4Q2 w - - 0 1"


@pytest.mark.parametrize(("fen", "status", "words"), REFUSED)
def test_unplayable_positions_are_refused(fen: str, status: int, words: str) -> None:
    """Each unplayable status is held as python-chess holds it and refused by
    ``check_playable`` with a one-line InvalidFenError naming it."""
    assert chess.Board(fen).status() & status
    board = Board(fen)
    assert not board.is_valid()
    assert board.fen() == chess.Board(fen).fen()
    with pytest.raises(InvalidFenError) as info:
        board.check_playable()
    message = str(info.value)
    assert "\n" not in message
    assert re.search(words, message), message


@pytest.mark.parametrize(("fen", "status"), UNUSUAL_CHECKS)
def test_unusual_checks_are_accepted(fen: str, status: int) -> None:
    """Impossible checks and three checkers stay playable: moves as python-chess's."""
    reference = chess.Board(fen)
    assert reference.status() == status
    ours = sorted(m.uci() for m in Board(fen).legal_moves)
    assert ours == sorted(m.uci() for m in reference.legal_moves)


def test_harmless_en_passant_square_is_kept_like_python_chess() -> None:
    """A square a double push could have left is accepted; the FEN drops it as python-chess's."""
    board = Board(HARMLESS_EP)
    reference = chess.Board(HARMLESS_EP)
    assert reference.status() == chess.STATUS_VALID
    assert board.ep_square == chess.D3
    assert board.fen() == reference.fen() == "4k3/8/8/8/3P4/8/8/4K3 b - - 0 1"


def test_maximal_position_runs_through_perft_and_search() -> None:
    """A 237-move position validation accepts: perft and a search finish and agree."""
    board = Board(MANY_MOVES)
    reference = chess.Board(MANY_MOVES)
    assert reference.status() == chess.STATUS_VALID
    assert len(board.legal_moves) == reference.legal_moves.count() == 237
    assert perft(board, 2) == sum(
        _count_after(reference, move) for move in list(reference.legal_moves)
    )
    assert perft(board, 3) > 0
    result = Engine(hash_mb=4).search(board, Limit(depth=3))
    assert result.move is not None and board.is_legal(result.move)


def _count_after(board: chess.Board, move: chess.Move) -> int:
    """Legal replies after ``move`` (python-chess)."""
    board.push(move)
    try:
        return board.legal_moves.count()
    finally:
        board.pop()


def test_uci_position_fen_refuses_the_crafted_fen() -> None:
    """``position fen`` with the crafted FEN or huge clocks keeps the start position."""
    huge = "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999999 1"
    script = f"uci\nposition fen {CRAFTED}\nposition fen {huge}\nisready\ngo depth 2\nisready\n"
    lines = run_script(script + "quit\n")
    assert any("invalid fen" in line and "27 white pieces" in line for line in lines), lines
    assert any("invalid fen" in line and "halfmove clock" in line for line in lines), lines
    assert lines.count("readyok") == 2
    best = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(best) == 1
    assert chess.Move.from_uci(best[0]) in chess.Board().legal_moves


@pytest.mark.parametrize(
    "clocks", ["99999999999999999999999 1", "0 99999999999999999999999", "0 " + "9" * 5000]
)
def test_huge_clocks_are_refused_cleanly(clocks: str) -> None:
    """Clocks beyond MAX_CLOCK: InvalidFenError, not an overflow in the int64 arrays."""
    with pytest.raises(InvalidFenError, match="above"):
        Board(f"4k3/8/8/8/8/8/8/4K3 w - - {clocks}")
    assert Board(f"4k3/8/8/8/8/8/8/4K3 w - - {MAX_CLOCK} {MAX_CLOCK}").halfmove_clock == MAX_CLOCK
