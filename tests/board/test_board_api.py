"""The Board API as users meet it: printing, Move values, squares, SAN lines, results."""

from __future__ import annotations

import random
import re

import chess
import pytest

import plies
from plies import board as plies_board
from plies.board import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARE_NAMES,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    Piece,
    Termination,
    parse_square,
    square,
    square_file,
    square_name,
    square_rank,
)

# Square constants by name, looked up here so that a missing export fails one test
# (test_constants_are_python_chess_style_ints), not the whole module.
A1, D6, E1, E2, E4, E7, E8, G1, H8 = (
    parse_square(name) for name in ("a1", "d6", "e1", "e2", "e4", "e7", "e8", "g1", "h8")
)
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GLYPHS = "♔♕♖♗♘♙♚♛♜♝♞♟"


def test_constants_are_python_chess_values() -> None:
    """Colours are python-chess's bools; piece types and squares its ints."""
    assert (WHITE, BLACK) == (True, False) == (chess.WHITE, chess.BLACK)
    assert Board().turn is True and Board().turn == chess.WHITE
    assert (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING) == (1, 2, 3, 4, 5, 6)
    assert (A1, E1, E4, H8) == (0, 4, 28, 63)
    for index, name in enumerate(chess.SQUARE_NAMES):
        assert getattr(plies_board, name.upper()) == index
    assert list(SQUARE_NAMES) == chess.SQUARE_NAMES


def test_square_helpers_round_trip() -> None:
    """square/square_file/square_rank/square_name/parse_square agree for all 64 squares."""
    for sq in range(64):
        file, rank = square_file(sq), square_rank(sq)
        assert (file, rank) == (sq % 8, sq // 8)
        assert square(file, rank) == sq
        assert parse_square(square_name(sq)) == sq
        assert square_name(sq) == chess.square_name(sq)
    assert parse_square("e4") == E4
    with pytest.raises(ValueError):
        parse_square("z9")


def test_re_exports() -> None:
    """The package re-exports the board names."""
    assert plies.Board is Board
    assert plies.Move is Move
    assert plies.IllegalMoveError is IllegalMoveError
    assert callable(plies.perft) and callable(plies.divide)


def test_piece_symbols() -> None:
    """Piece letters and Unicode symbols match python-chess."""
    for piece_type in range(PAWN, KING + 1):
        for color, ref_color in ((WHITE, chess.WHITE), (BLACK, chess.BLACK)):
            piece = Piece(piece_type, color)
            ref = chess.Piece(piece_type, ref_color)
            assert piece.symbol() == ref.symbol()
            assert piece.unicode_symbol() == ref.unicode_symbol()
    assert Piece(KNIGHT, BLACK) == Piece(KNIGHT, BLACK)
    assert len({Piece(KNIGHT, BLACK), Piece(KNIGHT, BLACK), Piece(KNIGHT, WHITE)}) == 2


def test_move_is_python_chess_move() -> None:
    """Move is python-chess's own: it compares, hashes and pushes as one value."""
    move = Move(E2, E4)
    assert Move is chess.Move and Piece is chess.Piece
    assert move == Move.from_uci("e2e4") == Move(E2, E4, None) == chess.Move.from_uci("e2e4")
    assert hash(move) == hash(Move.from_uci("e2e4"))
    assert len({move, Move(E2, E4), Move(E7, E8, QUEEN)}) == 2
    assert {move: 1}[Move(E2, E4)] == 1
    assert move.promotion is None
    board = Board()
    board.push(chess.Move.from_uci("e2e4"))
    assert board.peek() == move and move in Board().legal_moves


def test_move_uci_round_trip() -> None:
    """from_uci and uci are inverse for every from/to pair and every promotion."""
    for from_sq in range(64):
        for to_sq in range(64):
            if from_sq == to_sq:
                continue
            text = square_name(from_sq) + square_name(to_sq)
            move = Move.from_uci(text)
            assert (move.from_square, move.to_square, move.promotion) == (from_sq, to_sq, None)
            assert move.uci() == text
    for letter, piece_type in (("q", QUEEN), ("r", ROOK), ("b", BISHOP), ("n", KNIGHT)):
        move = Move.from_uci("e7e8" + letter)
        assert move.promotion == piece_type
        assert move.uci() == "e7e8" + letter
        assert move == Move(E7, E8, piece_type)


def test_null_move() -> None:
    """The null move prints as 0000 and is falsy; real moves are truthy."""
    null = Move.null()
    assert null.uci() == "0000"
    assert not null
    assert Move.from_uci("0000") == null
    assert Move(E2, E4)


def test_str_is_python_chess_board_text() -> None:
    """str(board) is python-chess's picture of the same position."""
    fen = "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"
    assert str(Board(fen)) == str(chess.Board(fen))


def test_pretty_is_a_labelled_unicode_board() -> None:
    """pretty() shows Unicode pieces rank by rank (8 on top) with files and ranks labelled."""
    board = Board("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1")
    text = board.pretty()
    lines = text.splitlines()
    assert any(re.search(r"a\W*b\W*c\W*d\W*e\W*f\W*g\W*h", line) for line in lines), text
    rank_lines = []
    for rank in range(8, 0, -1):
        # A rank line carries its number as a label at its start or its end.
        matches = [line for line in lines if re.search(rf"^\W*{rank}\b|\b{rank}\W*$", line)]
        assert matches, f"no line labelled {rank}:\n{text}"
        rank_lines.append(matches[0])
    assert lines.index(rank_lines[0]) < lines.index(rank_lines[-1]), "rank 8 must be on top"
    for rank, line in zip(range(7, -1, -1), rank_lines, strict=True):
        expected = "".join(
            piece.unicode_symbol()
            for piece in (board.piece_at(square(file, rank)) for file in range(8))
            if piece is not None
        )
        assert "".join(ch for ch in line if ch in GLYPHS) == expected, f"rank {rank + 1}:\n{text}"


def test_ascii_is_plain_letters() -> None:
    """ascii() draws the same board with piece letters only."""
    board = Board()
    text = board.ascii()
    assert text.isascii()
    board_lines = [line for line in text.splitlines() if not re.search(r"a\W*b\W*c", line)]
    letters = [re.sub(r"[^prnbqkPRNBQK]", "", line) for line in board_lines]
    rows = [row for row in letters if row]
    assert rows[0] == "rnbqkbnr" and rows[-1] == "RNBQKBNR"
    assert "".join(rows[1:-1]) == "pppppppp" + "PPPPPPPP"


def test_start_position_basics() -> None:
    """The start position reads back as python-chess would."""
    board = Board()
    assert Board.STARTING_FEN == START == chess.STARTING_FEN
    assert board.fen() == START
    assert board.turn == WHITE
    assert (board.halfmove_clock, board.fullmove_number) == (0, 1)
    assert board.ep_square is None
    assert board.castling_xfen() == "KQkq"
    assert board.piece_at(E1) == Piece(KING, WHITE)
    assert board.piece_at(E4) is None
    assert board.king(WHITE) == E1 and board.king(BLACK) == E8
    assert sorted(board.pieces(KNIGHT, WHITE)) == [1, 6]
    assert sorted(board.pieces(PAWN, BLACK)) == list(range(48, 56))
    assert len(board.legal_moves) == 20
    assert board.move_stack == []


def test_state_after_moves() -> None:
    """Turn, clocks, en-passant square and castling rights follow the moves."""
    board = Board()
    for uci in ("e2e4", "a7a6", "e4e5", "d7d5"):
        board.push_uci(uci)
    assert board.turn == WHITE
    assert board.ep_square == D6
    assert board.fullmove_number == 3 and board.halfmove_clock == 0
    assert board.is_en_passant(Move.from_uci("e5d6"))
    board.push_uci("g1f3")
    assert board.ep_square is None and board.halfmove_clock == 1
    board.push_uci("e8d7")
    assert board.castling_xfen() == "KQ"
    assert board.peek() == Move.from_uci("e8d7")
    assert [m.uci() for m in board.move_stack] == ["e2e4", "a7a6", "e4e5", "d7d5", "g1f3", "e8d7"]


def test_legal_moves_is_a_live_view() -> None:
    """legal_moves shows the board's moves of the moment, as python-chess's generator."""
    board = Board()
    moves = board.legal_moves
    assert len(moves) == moves.count() == 20 and moves.any()
    board.push_san("e4")
    assert len(moves) == 20 and Move.from_uci("e7e5") in moves
    assert Move.from_uci("e2e4") not in moves
    assert sorted(m.uci() for m in moves) == sorted(
        m.uci() for m in chess.Board(board.fen()).legal_moves
    )


def test_san_and_push_san() -> None:
    """SAN covers castling, promotion, check, mate and disambiguation."""
    board = Board("r3k2r/1P4P1/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert board.san(Move(E1, G1)) == "O-O"
    assert board.san(Move.from_uci("e1c1")) == "O-O-O"
    assert board.san(Move.from_uci("b7a8q")) == "bxa8=Q+"
    assert board.san(Move.from_uci("g7g8n")) == "g8=N"
    assert board.san(Move.from_uci("g7h8q")) == "gxh8=Q+"
    board = Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    assert board.san(Move.from_uci("b1d2")) == "Nbd2"
    board = Board()
    for san in ("f3", "e5", "g4"):
        board.push_san(san)
    move = board.parse_san("Qh4#")
    assert board.san(move) == "Qh4#"
    board.push(move)
    assert board.is_checkmate()


def test_variation_san() -> None:
    """variation_san numbers moves like python-chess and leaves the board alone."""
    board = Board()
    moves = [Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    assert board.variation_san(moves) == "1. e4 e5 2. Nf3"
    assert board.fen() == START and board.move_stack == []
    board.push_uci("e2e4")
    assert board.variation_san([Move.from_uci("e7e5"), Move.from_uci("g1f3")]) == "1...e5 2. Nf3"
    with pytest.raises(IllegalMoveError):
        board.variation_san([Move.from_uci("e7e5"), Move.from_uci("e1e3")])
    assert board.variation_san([]) == ""


@pytest.mark.parametrize(
    ("fen", "moves", "result", "termination", "winner"),
    [
        (START, [], "*", None, None),
        (START, ["f2f3", "e7e5", "g2g4", "d8h4"], "0-1", "CHECKMATE", BLACK),
        ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", ["f7f8"], "1-0", "CHECKMATE", WHITE),
        ("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", ["f1f7"], "1/2-1/2", "STALEMATE", None),
        ("7k/8/6K1/8/8/8/8/5N2 b - - 0 1", [], "1/2-1/2", "INSUFFICIENT_MATERIAL", None),
        ("7k/8/6K1/8/8/8/8/5R2 b - - 150 90", [], "1/2-1/2", "SEVENTYFIVE_MOVES", None),
        ("7k/8/6K1/8/8/8/8/5R2 b - - 100 90", [], "*", None, None),
    ],
)
def test_results(
    fen: str, moves: list[str], result: str, termination: str | None, winner: int | None
) -> None:
    """result() strings and outcome() for wins, draws and games in progress."""
    board = Board(fen)
    for uci in moves:
        board.push_uci(uci)
    assert board.result() == result
    outcome = board.outcome()
    if termination is None:
        assert outcome is None
        assert not board.is_game_over()
    else:
        assert outcome is not None
        assert outcome.termination is Termination[termination]
        assert outcome.winner == winner
        assert outcome.result() == result
        assert board.is_game_over()


def test_claimable_draws() -> None:
    """Fifty moves and threefold are claimable: outcome only with claim_draw."""
    board = Board("7k/8/6K1/8/8/8/8/5R2 b - - 100 90")
    assert board.can_claim_fifty_moves() and board.can_claim_draw()
    assert board.outcome() is None
    claimed = board.outcome(claim_draw=True)
    assert claimed is not None and claimed.termination is Termination.FIFTY_MOVES
    assert board.result(claim_draw=True) == "1/2-1/2"
    board = Board()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        board.push_uci(uci)
    assert board.can_claim_threefold_repetition()
    assert not board.is_fivefold_repetition()
    claimed = board.outcome(claim_draw=True)
    assert claimed is not None and claimed.termination is Termination.THREEFOLD_REPETITION


def test_copy_is_independent() -> None:
    """A copy shares nothing: moves on either side do not show on the other."""
    board = Board()
    board.push_uci("e2e4")
    copy = board.copy()
    copy.push_uci("e7e5")
    assert board.fen() != copy.fen()
    assert len(board.move_stack) == 1 and len(copy.move_stack) == 2
    board.pop()
    assert copy.pop().uci() == "e7e5" and copy.pop().uci() == "e2e4"
    assert board.fen() == copy.fen() == START


def test_set_fen_clears_history() -> None:
    """set_fen starts a new history."""
    board = Board()
    board.push_uci("e2e4")
    board.set_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert board.move_stack == []
    assert board.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"


def test_zobrist_key_is_a_position_key() -> None:
    """Transpositions share a key; push/pop restores it; different positions differ."""
    one, two = Board(), Board()
    for uci in ("g1f3", "g8f6", "b1c3"):
        one.push_uci(uci)
    for uci in ("b1c3", "g8f6", "g1f3"):
        two.push_uci(uci)
    assert one.fen() == two.fen()
    assert one.zobrist_key() == two.zobrist_key()
    key = one.zobrist_key()
    one.push_uci("e7e5")
    assert one.zobrist_key() != key
    one.pop()
    assert one.zobrist_key() == key
    # Side to move, castling rights and en passant are part of the key.
    keys = {
        Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").zobrist_key(),
        Board("4k3/8/8/8/8/8/8/R3K2R w K - 0 1").zobrist_key(),
        Board("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1").zobrist_key(),
        Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").zobrist_key(),
        Board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").zobrist_key(),
    }
    assert len(keys) == 5


def test_python_chess_conversion_keeps_history() -> None:
    """to_chess and from_chess carry position and move stack both ways."""
    board = Board()
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
        board.push_uci(uci)
    exported = board.to_chess()
    assert exported.fen() == board.fen()
    assert [m.uci() for m in exported.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    imported = Board.from_chess(exported)
    assert imported.fen() == board.fen()
    assert [m.uci() for m in imported.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert imported.pop().uci() == "b8c6"
    assert len(exported.move_stack) == 4


def _found(board: chess.Board | Board, squares: tuple[int, int, int | None]) -> object:
    """``find_move``'s move, or the refusal's class and message."""
    try:
        return board.find_move(*squares)
    except ValueError as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("start", [
    chess.STARTING_FEN,
    "r3k2r/pPpppppp/8/8/8/8/PpPPPPPP/R3K2R w KQkq - 0 1",  # castling, promotions both ways
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "chess960:518",
    "chess960:17",
])  # fmt: skip
def test_find_move_answers_as_python_chess(start: str) -> None:
    """Every square pair with and without a promotion piece, along a seeded random game:
    the same move (castling read from a king taking its corner), or the same refusal."""
    rng = random.Random(start)
    if start.startswith("chess960:"):
        ref = chess.Board.from_chess960_pos(int(start.split(":")[1]))
    else:
        ref = chess.Board(start)
    ours = Board(ref.fen(), chess960=ref.chess960)
    corners = {(chess.E1, chess.H1), (chess.E1, chess.A1), (chess.E8, chess.H8),
               (chess.E8, chess.A8)}  # fmt: skip
    while not ref.is_game_over() and ref.ply() < 40:
        pairs = {(m.from_square, m.to_square) for m in ref.legal_moves} | corners
        pairs |= {(rng.randrange(64), rng.randrange(64)) for _ in range(20)}
        for from_square, to_square in sorted(pairs):
            for promotion in (None, chess.QUEEN, chess.KNIGHT):
                squares = (from_square, to_square, promotion)
                assert _found(ours, squares) == _found(ref, squares), (ref.fen(), squares)
        move = rng.choice(list(ref.legal_moves))
        ref.push(move)
        ours.push(move)
