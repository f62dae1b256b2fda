"""``plies uci`` via python-chess: handshake, options, a game, analysis, stop and ponder."""

from __future__ import annotations

import time

import chess
import chess.engine
import pytest
from tests.waiting import wait_until

import plies


def test_handshake_identifies_and_declares_options(uci_engine: chess.engine.SimpleEngine) -> None:
    """``uci`` names the engine and declares Hash, Clear Hash, Move Overhead and Ponder."""
    assert uci_engine.id["name"] == f"plies {plies.__version__}"
    assert uci_engine.id["author"] == "The plies developers"
    options = uci_engine.options
    assert options["Hash"].type == "spin"
    assert options["Hash"].min == 1 and options["Hash"].default == 64
    assert options["Clear Hash"].type == "button"
    assert options["Move Overhead"].type == "spin"
    assert options["Ponder"].type == "check"
    assert options["Threads"].type == "spin" and options["Threads"].default == 1


def test_options_can_be_set(uci_engine: chess.engine.SimpleEngine) -> None:
    """Good option values are accepted and the engine still searches afterwards."""
    uci_engine.configure({"Hash": 16, "Move Overhead": 20})
    uci_engine.configure({"Clear Hash": None})
    uci_engine.ping()
    result = uci_engine.play(chess.Board(), chess.engine.Limit(depth=3))
    assert result.move in chess.Board().legal_moves


def test_self_play_game_ends_legally(uci_engine: chess.engine.SimpleEngine) -> None:
    """A whole game against itself at 1+0.02: every move legal, ending by the rules.

    The clocks are real (each side is charged what its move took), but how well the engine
    keeps to them is not asserted: that depends on the machine's load; the budgets it
    derives from a clock are tested exactly in engine/test_timeman.py."""
    board = chess.Board()
    clocks = {chess.WHITE: 1.0, chess.BLACK: 1.0}
    increment = 0.02
    game = object()
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        limit = chess.engine.Limit(
            white_clock=max(clocks[chess.WHITE], 0.001),
            black_clock=max(clocks[chess.BLACK], 0.001),
            white_inc=increment,
            black_inc=increment,
        )
        start = time.perf_counter()
        result = uci_engine.play(board, limit, game=game)
        spent = time.perf_counter() - start
        assert result.move is not None
        assert result.move in board.legal_moves, f"illegal {result.move} in {board.fen()}"
        clocks[board.turn] += increment - spent
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None or board.ply() >= 400


@pytest.mark.parametrize(("fen", "capture"), [
    ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
    ("4k3/3r4/8/8/3Q4/8/8/4K3 b - - 0 1", "d7d4"),
], ids=["white", "black"])
def test_either_colour_to_move_takes_the_free_queen(
    uci_engine: chess.engine.SimpleEngine, fen: str, capture: str
) -> None:
    """Whichever colour is to move, the engine plays that colour, scores for it and takes
    the queen its rook attacks; then it plays the other colour from the position after."""
    board = chess.Board(fen)
    limit = chess.engine.Limit(depth=4)
    result = uci_engine.play(board, limit, info=chess.engine.INFO_SCORE)
    assert result.move == chess.Move.from_uci(capture)
    score = result.info["score"]
    assert score.turn == board.turn and (score.relative.score() or 0) > 300
    board.push(result.move)
    reply = uci_engine.play(board, limit)
    assert reply.move is not None and board.color_at(reply.move.from_square) == board.turn


def test_analyse_to_a_depth_reports_every_iteration(
    uci_engine: chess.engine.SimpleEngine,
) -> None:
    """``go depth 6``: one info per iteration, depths rising to 6, each with a score and a PV."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = []
    with uci_engine.analysis(board, chess.engine.Limit(depth=6)) as analysis:
        for info in analysis:
            if "depth" in info and "score" in info:
                infos.append(info)
    depths = [info["depth"] for info in infos]
    assert depths == sorted(depths) and depths[-1] == 6 and len(depths) >= 3
    for info in infos:
        assert info["pv"] and info["pv"][0] in board.legal_moves
        assert info["nodes"] > 0 and "time" in info and "seldepth" in info
        assert "nps" in info and "hashfull" in info
    best = analysis.wait().move
    assert best == infos[-1]["pv"][0]


def test_analyse_with_a_time_limit(uci_engine: chess.engine.SimpleEngine) -> None:
    """``go movetime``: the engine answers with some depth and a legal best line."""
    board = chess.Board()
    info = uci_engine.analyse(board, chess.engine.Limit(time=0.3))
    assert info.get("depth", 0) >= 1
    assert info["pv"][0] in board.legal_moves
    score = info["score"].relative
    assert not score.is_mate() and abs(score.score() or 0) < 200


def test_mate_score_for_the_side_to_move(uci_engine: chess.engine.SimpleEngine) -> None:
    """A mate in one is reported as ``mate 1`` and played."""
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = uci_engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")


def test_getting_mated_is_a_negative_mate(uci_engine: chess.engine.SimpleEngine) -> None:
    """The side that is mated next move sees ``mate -1`` (Kb8 is forced, then Rh8#)."""
    board = chess.Board("k7/8/1K6/8/8/8/8/7R b - - 0 1")
    info = uci_engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(-1)


def test_stop_ends_an_infinite_analysis(uci_engine: chess.engine.SimpleEngine) -> None:
    """``go infinite`` runs until ``stop``; the answer then comes."""
    board = chess.Board()
    with uci_engine.analysis(board) as analysis:
        wait_until(lambda: analysis.info.get("depth", 0) >= 3, "depth 3 reported")
        analysis.stop()
        # Bounded, unlike python-chess's wait(): an ignored stop fails here instead of hanging.
        wait_until(lambda: not analysis.would_block(), "bestmove after stop")
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_ponder_hit_and_miss(uci_engine: chess.engine.SimpleEngine) -> None:
    """``play(..., ponder=True)``: a ponder hit and a ponder miss both end in legal moves."""
    board = chess.Board()
    game = object()
    limit = chess.engine.Limit(time=0.2)
    result = uci_engine.play(board, limit, ponder=True, game=game)
    assert result.move in board.legal_moves
    board.push(result.move)
    assert result.ponder is not None and result.ponder in board.legal_moves
    # Hit: the opponent plays the expected move; python-chess sends ponderhit.
    board.push(result.ponder)
    result = uci_engine.play(board, limit, ponder=True, game=game)
    assert result.move in board.legal_moves
    board.push(result.move)
    expected = result.ponder
    # Miss: a different reply; python-chess sends stop, then a new search.
    other = next(m for m in board.legal_moves if m != expected)
    board.push(other)
    result = uci_engine.play(board, limit, ponder=True, game=game)
    assert result.move in board.legal_moves
    board.push(result.move)
    # Leave the engine idle for the next test: a plain search ends any ponder search.
    result = uci_engine.play(board, chess.engine.Limit(depth=2), game=game)
    assert result.move in board.legal_moves


def test_searchmoves_restricts_the_root(uci_engine: chess.engine.SimpleEngine) -> None:
    """``go searchmoves``: the best move is one of those given."""
    board = chess.Board()
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    result = uci_engine.play(board, chess.engine.Limit(depth=4), root_moves=allowed)
    assert result.move in allowed

