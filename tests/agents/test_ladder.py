"""Every agent plays only legal moves, takes mate in one, and is reproducible with a seed."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from plies.agents import Agent, FunctionAgent, agent_from_spec, as_agent, make_agent
from plies.agents.base import Budget
from plies.board import Board, Move

DATA = Path(__file__).resolve().parents[1] / "data"
MATE1 = [ln.strip() for ln in (DATA / "mates" / "mate1.fen").read_text().splitlines() if ln.strip()]


def _play_checked(white: Agent, black: Agent, plies: int, fen: str | None = None) -> list[str]:
    """Play a game, checking every move against python-chess; return the moves (UCI)."""
    board = Board(fen or chess.STARTING_FEN)  # Board(None) is an empty board
    referee = chess.Board(fen or chess.STARTING_FEN)
    played: list[str] = []
    for _ in range(plies):
        if referee.is_game_over():
            break
        agent = white if referee.turn == chess.WHITE else black
        move = agent.choose(board.copy())
        assert move, f"{agent.name} returned the null move in {referee.fen()}"
        assert chess.Move.from_uci(move.uci()) in referee.legal_moves, (agent.name, move.uci())
        board.push(move)
        referee.push_uci(move.uci())
        played.append(move.uci())
    return played


@pytest.mark.parametrize("seed", range(6))
def test_random_and_capture_only_play_legal_moves(seed: int) -> None:
    _play_checked(make_agent("random", seed=seed), make_agent("capture", seed=seed + 100), 400)


def test_searchers_only_play_legal_moves() -> None:
    fens = [None, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
    for seed, fen in enumerate(fens):
        _play_checked(make_agent("minimax", {"depth": 1}, seed=seed),
                      make_agent("random", seed=seed), 60, fen)
        _play_checked(make_agent("random", seed=seed),
                      make_agent("alphabeta", {"depth": 2}, seed=seed), 60, fen)


def test_endgame_promotions_and_no_moves() -> None:
    # Promotions and under-promotions come up; a finished game yields the null move.
    _play_checked(make_agent("alphabeta", {"depth": 2}), make_agent("capture", seed=3), 60,
                  "8/P6k/8/8/8/8/6Kp/8 w - - 0 1")
    mated = Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    for name in ("random", "capture", "minimax", "alphabeta"):
        assert not make_agent(name).choose(mated)


def test_capture_agent_captures() -> None:
    b = Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    for seed in range(5):
        assert make_agent("capture", seed=seed).choose(b).uci() == "e4d5"


@pytest.mark.parametrize("fen", MATE1)
@pytest.mark.parametrize("spec", ["minimax:depth=1", "minimax:depth=2", "alphabeta:depth=1",
                                  "alphabeta:depth=3", "alphabeta"])
def test_mate_in_one_is_always_taken(fen: str, spec: str) -> None:
    agent = agent_from_spec(spec)
    move = agent.choose(Board(fen))
    ref = chess.Board(fen)
    ref.push_uci(move.uci())
    assert ref.is_checkmate(), (spec, fen, move.uci())
    assert agent.last is not None and agent.last.mate_in == 1


def test_stalemate_is_a_draw_not_a_win() -> None:
    # Qg6?? stalemates; a queen up, the agent must see that stalemate is worth 0.
    b = Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
    for spec in ("minimax:depth=1", "alphabeta:depth=2"):
        move = agent_from_spec(spec).choose(b)
        ref = chess.Board(b.fen())
        ref.push_uci(move.uci())
        assert not ref.is_stalemate(), spec


def test_seed_makes_games_reproducible() -> None:
    def game(seed: int) -> list[str]:
        return _play_checked(make_agent("capture", seed=seed),
                             make_agent("minimax", {"depth": 1}, seed=seed), 30)

    assert game(7) == game(7)
    assert game(7) != game(8)
    a = make_agent("random", seed=3)
    first = [a.choose(Board()).uci() for _ in range(5)]
    a.reset()
    assert [a.choose(Board()).uci() for _ in range(5)] == first


def test_budget_limits_the_search() -> None:
    agent = make_agent("alphabeta", {"depth": 6})
    agent.choose(Board(), Budget(nodes=300))
    assert agent.nodes <= 301
    assert agent.last is not None and 1 <= agent.last.depth < 6
    agent.choose(Board(), Budget(movetime_ms=50))
    assert agent.last is not None and agent.last.depth >= 1


def test_function_agent_and_registry_errors() -> None:
    def first(board: Board) -> Move:
        return board.legal_moves[0]

    agent = as_agent(first)
    assert isinstance(agent, FunctionAgent) and agent.name == "first"
    assert agent.choose(Board()) == Board().legal_moves[0]
    with pytest.raises(ValueError, match="unknown player"):
        make_agent("grandmaster")
    with pytest.raises(ValueError, match="unknown option"):
        agent_from_spec("minimax:width=3")
    with pytest.raises(ValueError, match="integer"):
        agent_from_spec("alphabeta:depth=deep")
