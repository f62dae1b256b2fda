"""The compiled FEN reader and writer against the board's Python ones, FEN by FEN.

``Board(fen)`` reads a plainly written standard FEN in one compiled call
(``plies.core.board_fen``) and leaves every other FEN to the Python reader; ``fen()``
writes standard chess's FEN in one compiled call. Each seeded FEN here (the fuzzer's
mutated and random ones, and hand-picked corner cases) is read both ways: the same
refusal, or boards equal in everything written and played. A ``str`` subclass takes
the Python way (the compiled reader takes plain strings only).
"""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest
from tests.board.test_fen_fuzz import mutated_fen, random_fen, seed_fens

from plies.board import Board, InvalidFenError
from plies.board.calls import buffers, calls
from plies.core.board_fen import CASTLING, EP, FULLMOVE, HALFMOVE, SIDE


class Text(str):
    """A string the compiled reader is not given (it reads only ``str`` itself)."""


CORNERS = [
    chess.STARTING_FEN,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -  0   1  ",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQ - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 007 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 123456789 999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1234567890 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 3",
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d6 0 2",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq i3 0 2",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 40",
    "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 5 40",
    "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
    "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
    "3kK3/8/8/8/8/8/8/8 w - - 0 1",
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1é",
    "4k3/8/8/8/8/8/8/4K3 w - -",
    "4k3/8/8/8/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3",
    "",
]


def _read(fen: str) -> Board | str:
    """The board of ``fen``, or the refusal's message."""
    try:
        return Board(fen)
    except InvalidFenError as exc:
        return f"refused: {exc}"


def _portrait(board: Board | str) -> object:
    """Everything compared between the two readings of one FEN."""
    if isinstance(board, str):
        return board
    view = (board.is_valid(), board.fen(), board.fen(en_passant="fen"),
            board.fen(en_passant="xfen"), board.shredder_fen(), board.ep_square, board.turn,
            board.castling_rights, board.halfmove_clock, board.fullmove_number)  # fmt: skip
    if not board.is_valid():
        return view
    return (*view, board.zobrist_key(), board._castle_rooks, board._root_fen,
            sorted(m.uci() for m in board.legal_moves), board.is_check(), board.outcome())


def _fens(seed: int, count: int) -> list[str]:
    """The fuzzer's FENs (a fifth random, the rest mutated)."""
    rng = random.Random(seed)
    seeds = seed_fens(rng, games=20)
    return [random_fen(rng) if i % 5 == 0 else mutated_fen(rng, seeds)[0] for i in range(count)]


@pytest.mark.parametrize("fen", CORNERS)
def test_corner_fens_read_as_python_reads_them(fen: str) -> None:
    """Blanks, clock widths, castling orders, en-passant squares, refusals."""
    assert _portrait(_read(fen)) == _portrait(_read(Text(fen)))


@pytest.mark.parametrize("seed", [3, 4])
def test_fuzzed_fens_read_as_python_reads_them(seed: int) -> None:
    """1,000 fuzzed FENs per seed: every reading the same both ways."""
    for fen in _fens(seed, 1000):
        assert _portrait(_read(fen)) == _portrait(_read(Text(fen))), fen


def test_the_compiled_reader_takes_the_common_fens() -> None:
    """The compiled reader does read the FENs boards meet (not only refuse everything)."""
    c, fields = calls(), buffers()[2]
    read = [fen for fen in _fens(5, 300) if c.read_fen(fen, fields)]
    boards = [_read(Text(fen)) for fen in _fens(5, 300)]
    playable = [board for board in boards if isinstance(board, Board) and board.is_valid()]
    assert len(read) >= 0.9 * len(playable)
    assert c.read_fen("r3k2r/8/8/8/8/8/8/R3K2R b Qk e3 7 40", fields) is False  # no e3
    assert c.read_fen("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 7 40", fields)
    assert fields[SIDE] == 1 and fields[CASTLING] == 2 | 4 and fields[EP] == 64
    assert (fields[HALFMOVE], fields[FULLMOVE]) == (7, 40)
    assert np.array_equal(fields[:64], Board("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 7 40")._live()[1])


@pytest.mark.parametrize("seed", [6])
def test_fens_written_after_moves_match_python_chess(seed: int) -> None:
    """After every move of random games the compiled writer gives python-chess's FEN."""
    rng = random.Random(seed)
    for _ in range(20):
        ours, ref = Board(), chess.Board()
        while not ref.is_game_over() and ref.ply() < 120:
            move = rng.choice(list(ref.legal_moves))
            ours.push(move)
            ref.push(move)
            assert ours.fen() == ref.fen()
            assert ours.fen(en_passant="fen") == ref.fen(en_passant="fen")
