"""The classic evaluation: known values, symmetry, and incremental == from scratch."""

from __future__ import annotations

import random

import chess

from plies.agents.evaluation import (
    CASTLED_BONUS,
    KNIGHT_TABLE,
    PAWN_TABLE,
    EvalState,
    castled_in_game,
    evaluate,
    table_index,
)
from plies.board import BLACK, WHITE, Board, parse_square


def test_start_position_is_level() -> None:
    assert evaluate(Board()) == 0


def test_tables_read_from_whites_side() -> None:
    # e4 is on the fourth row from the bottom: +20 for a white pawn there.
    assert PAWN_TABLE[table_index(WHITE, parse_square("e4"))] == 20
    assert PAWN_TABLE[table_index(WHITE, parse_square("e2"))] == -20
    # The same square seen by Black is the mirrored one: e5 for Black = e4 for White.
    assert PAWN_TABLE[table_index(BLACK, parse_square("e5"))] == 20
    assert KNIGHT_TABLE[table_index(WHITE, parse_square("a1"))] == -50
    assert len(PAWN_TABLE) == 64


def test_known_values_after_e4() -> None:
    b = Board()
    b.push_san("e4")
    # White's pawn went from -20 to +20; Black is to move, so -40.
    assert evaluate(b) == -40
    b.push_san("e5")
    assert evaluate(b) == 0


def test_material_counts() -> None:
    # White: K, Q; Black: K, R. Kings in the endgame tables (queen, no other piece).
    b = Board("4k3/8/8/8/8/8/8/3QK2r w - - 0 1")
    from plies.agents.evaluation import KING_ENDGAME_TABLE, QUEEN_TABLE, ROOK_TABLE

    white = 900 + QUEEN_TABLE[table_index(WHITE, 3)] + KING_ENDGAME_TABLE[table_index(WHITE, 4)]
    black = 500 + ROOK_TABLE[table_index(BLACK, 7)] + KING_ENDGAME_TABLE[table_index(BLACK, 60)]
    assert evaluate(b) == white - black


def test_colour_mirror_is_symmetric() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    mirrored = chess.Board(fen).mirror().fen()
    assert evaluate(Board(fen)) == evaluate(Board(mirrored))


def test_castled_bonus() -> None:
    b = Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    b.push_san("O-O")
    assert castled_in_game(b) == (True, False)
    assert evaluate(b, (True, False)) - evaluate(b) == -CASTLED_BONUS  # Black to move


def test_incremental_matches_scratch_over_random_games() -> None:
    rng = random.Random(5)
    starts = [
        Board.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ]
    checked = 0
    for fen in starts:
        for _ in range(3):
            b = Board(fen)
            state = EvalState.from_board(b)
            castled = [False, False]
            for _ply in range(80):
                moves = b.legal_moves
                if not moves:
                    break
                move = rng.choice(moves)
                if b.is_castling(move):
                    castled[0 if b.turn else 1] = True  # (White, Black)
                state = state.after(b, move)
                b.push(move)
                assert state.score(b.turn) == evaluate(b, (castled[0], castled[1])), b.fen()
                checked += 1
    assert checked > 500
