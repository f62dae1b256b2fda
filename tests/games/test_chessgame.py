"""Chess through the generic interface: the same searches find mates and agree."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from plies.board import Board, Move
from plies.engine.limits import Limit
from plies.games.alphabeta import alphabeta
from plies.games.chessgame import ChessGame
from plies.games.deepening import iterative_deepening
from plies.games.mcts import mcts
from plies.games.minimax import minimax
from plies.games.ttable import TranspositionTable

MATES = Path(__file__).resolve().parents[1] / "data" / "mates"


def fens(name: str) -> list[str]:
    """Return the FENs of one mate file (tests/data/mates, see its README for the source)."""
    return [line.strip() for line in (MATES / name).read_text().splitlines() if line.strip()]


def test_mate_in_one_is_found_at_depth_one() -> None:
    """Every mate-in-one position: a proven win at depth 1, and the move does mate."""
    for fen in fens("mate1.fen"):
        game = ChessGame(fen)
        board = game.initial_state()
        result = iterative_deepening(game, board, Limit(depth=3), order=game.captures_first)
        assert result.value == 1.0 and result.depth == 1 and result.exact, fen
        assert result.move is not None
        after = game.result(board, result.move)
        assert after.is_checkmate() and game.utility(after, game.to_move(board)) == 1.0


def test_mate_in_two_is_found_at_depth_three() -> None:
    """Mate in two: proven at three plies, and the principal variation ends in mate."""
    for fen in fens("mate2.fen")[:3]:
        game = ChessGame(fen)
        board = game.initial_state()
        result = iterative_deepening(game, board, Limit(depth=3), order=game.captures_first)
        assert result.value == 1.0 and result.depth == 3, fen
        for move in result.pv:
            board = game.result(board, move)
        assert board.is_checkmate(), fen


def test_minimax_and_alphabeta_agree_on_chess() -> None:
    """Two plies from the start and from an open middlegame: same value, fewer nodes."""
    for fen in (
        Board.STARTING_FEN,
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    ):
        game = ChessGame(fen)
        board = game.initial_state()
        plain = minimax(game, board, 2)
        ab = alphabeta(game, board, 2, game.captures_first, TranspositionTable())
        assert plain.value == ab.value
        assert ab.nodes < plain.nodes
    assert plain.nodes > 0 and not plain.exact


def test_states_are_copied_not_changed() -> None:
    """A search leaves the board it was given exactly as it was, history included."""
    game = ChessGame()
    board = game.initial_state()
    board.push_san("e4")
    fen, stack = board.fen(), list(board.move_stack)
    alphabeta(game, board, 2)
    mcts(game, board, iterations=2, rng=random.Random(0))
    assert board.fen() == fen and board.move_stack == stack
    after = game.result(board, Move.from_uci("e7e5"))
    assert after.fen() != board.fen() and board.fen() == fen


def test_endings_and_their_utilities() -> None:
    """Checkmate is +1 / -1; stalemate and bare kings are draws; no moves once it is over."""
    game = ChessGame()
    mated = game.initial_state()
    for san in ("f3", "e5", "g4", "Qh4#"):
        mated = game.result(mated, mated.parse_san(san))
    assert game.is_terminal(mated) and game.actions(mated) == []
    assert game.utility(mated, 1) == 1.0 and game.utility(mated, 0) == -1.0
    stalemate = ChessGame("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    state = stalemate.initial_state()
    assert stalemate.is_terminal(state) and stalemate.utility(state, 0) == 0.0
    bare = ChessGame("8/8/4k3/8/8/3K4/8/8 w - - 0 1")
    assert bare.is_terminal(bare.initial_state())


def test_typed_moves_and_bad_input() -> None:
    """SAN and UCI are read; nonsense and illegal moves get one-line errors; bad FEN too."""
    game = ChessGame()
    board = game.initial_state()
    assert game.parse_action(board, "Nf3") == Move.from_uci("g1f3")
    assert game.parse_action(board, "e2e4") == Move.from_uci("e2e4")
    for text in ("e5", "Ke2", "zz", "", "e2e5"):
        with pytest.raises(ValueError, match="not a legal move") as info:
            game.parse_action(board, text)
        assert "\n" not in str(info.value)
    with pytest.raises(ValueError):
        ChessGame("not a fen")
    with pytest.raises(ValueError, match="white kings"):
        ChessGame("8/8/8/8/8/8/8/8 w - - 0 1")  # well formed, but no kings to play with


def test_player_0_is_white_and_each_side_values_its_own_material() -> None:
    """``to_move`` is 0 for White and 1 for Black; the material heuristic is each player's
    own: White a queen up is good for player 0 and bad for player 1, whoever is to move."""
    for side, mover in (("w", 0), ("b", 1)):
        game = ChessGame(f"4k3/8/8/8/8/8/8/3QK3 {side} - - 0 1")
        state = game.initial_state()
        assert game.to_move(state) == mover
        assert game.evaluate(state, 0) > 0 > game.evaluate(state, 1)


def test_budgeted_searches_return_legal_moves() -> None:
    """Iterative deepening under a node budget and a few MCTS playouts still give a move."""
    game = ChessGame()
    board = game.initial_state()
    result = iterative_deepening(game, board, Limit(nodes=300), order=game.captures_first)
    assert result.move in board.legal_moves
    assert result.nodes <= 300 and result.depth >= 2
    playout = mcts(game, board, iterations=3, rng=random.Random(5))
    assert playout.move in board.legal_moves and playout.iterations == 3
