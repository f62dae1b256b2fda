"""Every ladder player plays only legal moves, takes mate in one, and is reproducible with a
seed."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from plies.agents import (
    FunctionPlayer,
    Player,
    as_function_player,
    make_player,
    player_from_spec,
)
from plies.board import Board, Move
from plies.engine.limits import Limit
from plies.engine.score import Mate

DATA = Path(__file__).resolve().parents[1] / "data"
MATE1 = [ln.strip() for ln in (DATA / "mates" / "mate1.fen").read_text().splitlines() if ln.strip()]


def _play_checked(white: Player, black: Player, plies: int, fen: str | None = None) -> list[str]:
    """Play a game, checking every move against python-chess; return the moves (UCI)."""
    board = Board(fen or chess.STARTING_FEN)  # Board(None) is an empty board
    referee = chess.Board(fen or chess.STARTING_FEN)
    played: list[str] = []
    for _ in range(plies):
        if referee.is_game_over():
            break
        agent = white if referee.turn == chess.WHITE else black
        move = agent.play(board.copy(), Limit()).move
        assert move, f"{agent.name} returned no move in {referee.fen()}"
        assert chess.Move.from_uci(move.uci()) in referee.legal_moves, (agent.name, move.uci())
        board.push(move)
        referee.push_uci(move.uci())
        played.append(move.uci())
    return played


@pytest.mark.parametrize("seed", range(6))
def test_random_and_capture_only_play_legal_moves(seed: int) -> None:
    _play_checked(make_player("random", seed=seed), make_player("capture", seed=seed + 100), 400)


def test_searchers_only_play_legal_moves() -> None:
    fens = [None, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
    for seed, fen in enumerate(fens):
        _play_checked(make_player("minimax", {"depth": 1}, seed=seed),
                      make_player("random", seed=seed), 60, fen)
        _play_checked(make_player("random", seed=seed),
                      make_player("alphabeta", {"depth": 2}, seed=seed), 60, fen)


def test_endgame_promotions_and_no_moves() -> None:
    # Promotions and under-promotions come up; a finished game yields no move.
    _play_checked(make_player("alphabeta", {"depth": 2}), make_player("capture", seed=3), 60,
                  "8/P6k/8/8/8/8/6Kp/8 w - - 0 1")
    mated = Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    for name in ("random", "capture", "minimax", "alphabeta"):
        assert make_player(name).play(mated, Limit()).move is None


def test_capture_agent_captures() -> None:
    b = Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    for seed in range(5):
        assert make_player("capture", seed=seed).play(b, Limit()).move.uci() == "e4d5"


@pytest.mark.parametrize("fen", MATE1)
@pytest.mark.parametrize("spec", ["minimax:depth=1", "minimax:depth=2", "alphabeta:depth=1",
                                  "alphabeta:depth=3", "alphabeta"])
def test_mate_in_one_is_always_taken(fen: str, spec: str) -> None:
    agent = player_from_spec(spec)
    info = agent.play(Board(fen), Limit())
    ref = chess.Board(fen)
    ref.push(info.move)
    assert ref.is_checkmate(), (spec, fen, info.move.uci())
    assert info.score is not None and info.score.relative == Mate(1)
    assert agent.last == info


def test_stalemate_is_a_draw_not_a_win() -> None:
    # Qg6?? stalemates; a queen up, the agent must see that stalemate is worth 0.
    b = Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
    for spec in ("minimax:depth=1", "alphabeta:depth=2"):
        move = player_from_spec(spec).play(b, Limit()).move
        ref = chess.Board(b.fen())
        ref.push_uci(move.uci())
        assert not ref.is_stalemate(), spec


def test_seed_makes_games_reproducible() -> None:
    def game(seed: int) -> list[str]:
        return _play_checked(make_player("capture", seed=seed),
                             make_player("minimax", {"depth": 1}, seed=seed), 30)

    assert game(7) == game(7)
    assert game(7) != game(8)
    a = make_player("random", seed=3)
    first = [a.play(Board(), Limit()).move.uci() for _ in range(5)]
    a.new_game()
    assert [a.play(Board(), Limit()).move.uci() for _ in range(5)] == first
    a.new_game(4)
    assert [a.play(Board(), Limit()).move.uci() for _ in range(5)] != first
    a.new_game(3)
    assert [a.play(Board(), Limit()).move.uci() for _ in range(5)] == first


def test_limit_bounds_the_search() -> None:
    agent = make_player("alphabeta", {"depth": 6})
    info = agent.play(Board(), Limit(nodes=300))
    assert info.nodes <= 300
    assert 1 <= info.depth < 6
    info = agent.play(Board(), Limit(movetime=50))
    assert info.depth >= 1 and info.time_ms < 1000


def test_own_limits_win_over_the_games() -> None:
    fixed = make_player("alphabeta", {"depth": 1})
    assert fixed.play(Board(), Limit(depth=3)).depth == 1
    free = make_player("alphabeta")  # the default depth yields to the game's
    assert free.play(Board(), Limit(depth=1)).depth == 1
    assert free.play(Board(), Limit()).depth == 4


def test_stop_ends_a_search_from_another_thread() -> None:
    import threading

    agent = make_player("minimax", {"depth": 5})
    threading.Timer(0.3, agent.stop).start()
    info = agent.play(Board(), Limit())
    assert info.move in Board().legal_moves and info.depth < 5


def test_function_player_and_registry_errors() -> None:
    def first(board: Board) -> Move:
        return board.legal_moves[0]

    agent = as_function_player(first)
    assert isinstance(agent, FunctionPlayer) and agent.name == "first"
    assert agent.play(Board(), Limit()).move == Board().legal_moves[0]
    assert as_function_player(agent) is agent
    with pytest.raises(ValueError, match="unknown player"):
        make_player("grandmaster")
    with pytest.raises(ValueError, match="unknown option"):
        player_from_spec("minimax:width=3")
    with pytest.raises(ValueError, match="integer"):
        player_from_spec("alphabeta:depth=deep")
