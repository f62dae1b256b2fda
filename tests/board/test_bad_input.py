"""Bad input: broken FENs, impossible positions, illegal moves and the perft CLI's errors.

Every refusal must be a clear one-line ``ValueError`` subclass naming what is
wrong, and must leave the board exactly as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import chess
import pytest
from tests.cli.runs import RunCli, one_line_error

from plies.board import (
    QUEEN,
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    parse_square,
)

E2, E7, E8 = parse_square("e2"), parse_square("e7"), parse_square("e8")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Words that name each FEN field; a message must use one of them.
PLACEMENT = r"placement|board|rank|row|square|piece"
SIDE = r"side|turn|colou?r|active|to move"
CASTLING = r"castl"
EN_PASSANT = r"en.?passant|\bep\b|e\.p\."
HALFMOVE = r"half.?move|clock|fifty"
FULLMOVE = r"full.?move|move number"
FIELDS = r"field|part|fen"
KING = r"king"
CHECK = r"check"
PAWN = r"pawn"

BROKEN_FENS = [
    # Wrong number of fields.
    ("", FIELDS),
    ("   ", FIELDS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", FIELDS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", FIELDS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", FIELDS),
    # Piece placement.
    ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", PLACEMENT),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", PLACEMENT),
    # Side to move.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", SIDE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", SIDE),
    # Castling letters.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", CASTLING),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Z - 0 1", CASTLING),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ- - 0 1", CASTLING),
    # En-passant square syntax.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", EN_PASSANT),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z3 0 1", EN_PASSANT),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1", EN_PASSANT),
    # Clocks.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", HALFMOVE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", HALFMOVE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", HALFMOVE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", FULLMOVE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", FULLMOVE),
]

IMPOSSIBLE_POSITIONS = [
    # Kings.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", KING),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", KING),
    ("rnbqkknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", KING),
    ("8/8/8/8/8/8/8/8 w - - 0 1", KING),
    # The side not to move is in check.
    ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", CHECK),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", CHECK),
    ("8/8/8/3kK3/8/8/8/8 w - - 0 1", CHECK + "|" + KING),
    # Pawns on the first or last rank.
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", PAWN),
    ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", PAWN),
    ("4k2p/8/8/8/8/8/8/4K3 b - - 0 1", PAWN),
    # Castling rights without king or rook at home.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1", CASTLING),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", CASTLING),
    ("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CASTLING),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", CASTLING),
    # En-passant squares that cannot be.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", EN_PASSANT),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", EN_PASSANT),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", EN_PASSANT),
    ("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", EN_PASSANT),
    ("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", EN_PASSANT),
]

# Unusual but legal: the rules apply, so these must be accepted.
ACCEPTED_FENS = [
    "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",  # double check along one diagonal
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",  # ep square, no capturer
    "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0",  # fullmove 0 (mate2.fen)
    "3qk3/8/8/8/8/8/8/QQQQKQQQ w - - 0 1",  # promoted queens
    "4k3/8/8/8/8/8/8/4K3 b - - 250 300",  # long past the 75-move rule
]


@pytest.mark.parametrize(
    ("fen", "full"),
    [
        ("4k3/8/8/8/8/8/8/4K2R w K -", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        ("4k3/8/8/8/8/8/8/4K2R b K - 7", "4k3/8/8/8/8/8/8/4K2R b K - 7 1"),
    ],
)
def test_missing_clocks_default_like_python_chess(fen: str, full: str) -> None:
    """Four or five fields (EPD-style, clocks left out) are read with clocks 0 and 1."""
    assert Board(fen).fen() == full == chess.Board(fen).fen()


def _one_line(message: str) -> bool:
    """True for a non-empty single-line message."""
    return bool(message.strip()) and "\n" not in message.strip()


@pytest.mark.parametrize(("fen", "field"), BROKEN_FENS + IMPOSSIBLE_POSITIONS)
def test_bad_fen_is_refused_naming_the_field(fen: str, field: str) -> None:
    """A malformed FEN raises InvalidFenError at once; a well-formed one the rules cannot
    apply to is held (as python-chess holds it) and refused by ``check_playable``: both are
    ValueErrors whose message names the field."""
    with pytest.raises(InvalidFenError) as info:
        Board(fen).check_playable()
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert _one_line(message), message
    assert re.search(field, message, re.IGNORECASE), message


@pytest.mark.parametrize(("fen", "field"), BROKEN_FENS[::3])
def test_set_fen_refusal_keeps_the_board(fen: str, field: str) -> None:
    """A refused set_fen leaves position and history as they were."""
    board = Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    before = (board.fen(), list(board.move_stack), board.zobrist_key())
    with pytest.raises(InvalidFenError):
        board.set_fen(fen)
    assert (board.fen(), list(board.move_stack), board.zobrist_key()) == before
    assert board.pop().uci() == "e7e5"


@pytest.mark.parametrize("fen", ACCEPTED_FENS)
def test_unusual_but_legal_fen_is_accepted(fen: str) -> None:
    """Positions that no game reaches, but where the rules apply, are accepted."""
    board = Board(fen)
    assert board.fen().split()[0] == fen.split()[0]


def test_invalid_fen_error_is_a_value_error() -> None:
    """Every error type subclasses ValueError, so callers can catch all of them at once."""
    for error in (InvalidFenError, IllegalMoveError, InvalidMoveError, AmbiguousMoveError):
        assert issubclass(error, ValueError)


def _snapshot(board: Board) -> tuple[str, list[Move], int]:
    """Everything a refused move must leave untouched."""
    return board.fen(), list(board.move_stack), board.zobrist_key()


def _all_refused(board: Board, *attempts: Callable[[], object]) -> None:
    """Each attempt raises a one-line move error (python-chess's: invalid, illegal or
    ambiguous) and leaves ``board`` as it was."""
    before = _snapshot(board)
    for attempt in attempts:
        with pytest.raises((IllegalMoveError, InvalidMoveError, AmbiguousMoveError)) as info:
            attempt()
        assert _one_line(str(info.value))
        assert _snapshot(board) == before


# (fen, uci) pairs whose move is illegal there, each for a different reason.
ILLEGAL_UCI = [
    (START, "e2e5"),  # too far
    (START, "e7e5"),  # the other side's pawn
    (START, "e1g1"),  # castling through own pieces
    (START, "g1g3"),  # not a knight move
    (START, "e2e4q"),  # promotion on a non-promoting move
    (START, "a1a2"),  # onto an own piece
    (START, "e3e4"),  # from an empty square
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3"),  # pinned piece leaves the pin
    ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d1"),  # king into check
    ("4k3/8/8/8/8/8/P3r3/4K3 w - - 0 1", "a2a3"),  # ignores the check
    ("r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1", "e1g1"),  # castling through an attacked square
    ("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1c1"),  # castling without the right
    ("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "e1c1"),  # castling out of check
    ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", "e5d6"),  # en passant exposing the king
    ("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8"),  # promotion without a piece
    ("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8k"),  # promotion to a king
]

GARBAGE_UCI = ["", "e2", "e2e", "hello", "e2e4qq", "i1i2", "e0e1", "e2e4x", "e2-e4", "0000x"]


@pytest.mark.parametrize(("fen", "uci"), ILLEGAL_UCI)
def test_illegal_move_is_refused(fen: str, uci: str) -> None:
    """push, push_uci and parse_uci refuse an illegal move and change nothing."""
    board = Board(fen)
    _all_refused(board, lambda: board.push_uci(uci), lambda: board.parse_uci(uci))
    try:
        move = Move.from_uci(uci)
    except IllegalMoveError:
        return  # e.g. a king promotion may already be refused as a move value
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    _all_refused(board, lambda: board.push(move))


@pytest.mark.parametrize("uci", GARBAGE_UCI)
def test_garbage_uci_is_refused(uci: str) -> None:
    """Move.from_uci and push_uci refuse unparseable text with InvalidMoveError."""
    with pytest.raises(InvalidMoveError):
        Move.from_uci(uci)
    board = Board()
    board.push_uci("d2d4")
    _all_refused(board, lambda: board.push_uci(uci))


@pytest.mark.parametrize(
    ("fen", "san"),
    [
        (START, "Nf6"),  # the other side's move
        (START, "e5"),  # too far
        (START, "Ke2"),  # blocked
        (START, "O-O"),  # blocked
        (START, "Qxd7"),  # not a capture there
        (START, "exd3"),
        (START, "e8=Q"),
        (START, "xyz"),
        (START, ""),
        (START, "N"),
        (START, "Nf3f3"),
        ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2"),  # ambiguous: Nbd2 or Nfd2
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3"),  # pinned
        ("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8"),  # promotion without a piece
    ],
)
def test_illegal_san_is_refused(fen: str, san: str) -> None:
    """push_san and parse_san refuse illegal, ambiguous or garbled SAN; nothing changes."""
    board = Board(fen)
    _all_refused(board, lambda: board.push_san(san), lambda: board.parse_san(san))


def test_refused_move_after_history_keeps_history() -> None:
    """A refused move in mid-game keeps the stack, so pop still undoes the last move."""
    board = Board()
    for uci in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(uci)
    for bad in ("e1e2", "zz", "Nf3"):
        _all_refused(board, lambda: board.push_uci(bad), lambda: board.push_san(bad))  # noqa: B023
    assert board.pop().uci() == "g1f3"


def test_pop_on_empty_stack() -> None:
    """pop() with no moves raises IndexError with a clear message, also after undoing all."""
    board = Board()
    with pytest.raises(IndexError, match="empty"):
        board.pop()
    board.push_uci("e2e4")
    board.pop()
    with pytest.raises(IndexError, match="empty"):
        board.pop()
    assert board.fen() == START


def test_board_from_fen_has_no_history_to_pop() -> None:
    """A board set from a FEN cannot pop back past it."""
    board = Board("4k3/8/8/8/8/8/8/4K2R w K - 5 40")
    with pytest.raises(IndexError):
        board.pop()


def test_move_value_refuses_bad_squares() -> None:
    """A Move built in code is checked too: an illegal one is refused by push."""
    board = Board()
    _all_refused(board, lambda: board.push(Move(E2, E8)), lambda: board.push(Move(E7, E8, QUEEN)))


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "abc"],
        ["perft", "-1"],
        ["perft", "1.5"],
        ["perft", "2", "--fen", "garbage"],
        ["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1"],
        ["perft", "2", "--fen", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"],
        ["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x"],
    ],
    ids=lambda args: " ".join(args),
)
def test_cli_perft_bad_arguments(cli: RunCli, args: list[str]) -> None:
    """Bad depth or FEN: exit status 2, exactly one line on stderr, no node count."""
    status, out, err = cli(args)
    one_line_error(status, err, "error")
    assert "Nodes:" not in out


@pytest.mark.parametrize(
    ("fen", "uci", "reason"),
    [
        (START, "e3e4", "no piece on e3"),
        (START, "e7e5", "not White's"),
        (START, "d1d2", "same colour"),
        (START, "g1g4", "knight cannot move from g1 to g4"),
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "leave the king in check"),
        ("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "e1f1", "out of check"),
        ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", "castling is not possible"),
    ],
)
def test_an_illegal_move_says_which_rule_it_breaks(fen: str, uci: str, reason: str) -> None:
    """The error for an illegal move names its reason, and why_illegal says it alone."""
    board = Board(fen)
    move = Move.from_uci(uci)
    assert reason in board.why_illegal(move)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push(move)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_uci(uci)
    assert board.why_illegal(next(iter(board.legal_moves))) == ""
