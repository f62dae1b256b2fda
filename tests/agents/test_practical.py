"""The ladder's chess as a generic game: it keeps the protocol, and mates score by distance."""

from __future__ import annotations

from plies.agents.practical import MATE, PracticalChess, centipawns
from plies.board import Board
from plies.games.alphabeta import AlphaBetaSearch
from plies.games.check import check_game
from plies.games.minimax import minimax


def test_practical_chess_keeps_the_protocol() -> None:
    """Random games from the start: no breach (the evaluation stays inside (-1, 1))."""
    report = check_game(PracticalChess(), playouts=3, seed=2, max_plies=400)
    assert report.ok, report.breaches


def test_mate_in_one_scores_mate_minus_one_ply() -> None:
    """A back-rank mate in one is worth MATE - 1 to both searches, which agree on the move."""
    game = PracticalChess()
    root = game.root(Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"))
    value, pv = AlphaBetaSearch(game, order=game.order).root(root, 2)
    assert centipawns(value) == MATE - 1
    assert pv[0].uci() == "d1d8"
    plain = minimax(game, root, 2, order=game.order)
    assert plain.value is not None
    assert (plain.move, centipawns(plain.value)) == (pv[0], MATE - 1)


def test_a_position_seen_in_the_game_is_a_draw() -> None:
    """A move back into a position of the game's history scores 0 and ends the line."""
    board = Board()
    board.push_san("Nf3")
    history = frozenset({Board().zobrist_key()})
    game = PracticalChess(history)
    root = game.root(board)
    back = next(m for m in board.legal_moves if m.uci() == "g8f6")
    after = game.result(root, back)
    assert not after.repeated
    undo = next(m for m in after.board.legal_moves if m.uci() == "f3g1")
    knight_home = game.result(after, undo)
    assert not knight_home.repeated  # the start with Black's knight out is new
    start = Board()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        start.push_san(san)
    key = start.zobrist_key()
    assert key in history
    final = game.result(game.result(game.result(root, back), undo), next(
        m for m in knight_home.board.legal_moves if m.uci() == "f6g8"
    ))
    assert final.repeated and game.is_terminal(final) and game.utility(final, 0) == 0.0
