"""Players: a perfect one never loses to anything; MCTS and alpha-beta beat random play."""

from __future__ import annotations

import random

import pytest

from plies.engine.limits import Limit
from plies.games.connect4 import Connect4
from plies.games.guarantee import worst_case
from plies.games.match import play_match
from plies.games.mcts import mcts
from plies.games.protocol import Game
from plies.games.search_players import (
    AlphaBetaPlayer,
    DeepeningPlayer,
    MCTSPlayer,
    PerfectPlayer,
    RandomPlayer,
)
from plies.games.tictactoe import TicTacToe, TicTacToeState


def first_action(game: Game[TicTacToeState, int], state: TicTacToeState) -> int:
    """A naive player: always the first free cell."""
    return game.actions(state)[0]


def test_perfect_player_never_loses_to_any_strategy() -> None:
    """Checked exhaustively, as X and as O, whichever optimal move it picks."""
    game = TicTacToe()
    for player in (PerfectPlayer(), PerfectPlayer(random.Random(3))):
        for seat in (0, 1):
            result = worst_case(game, player, seat)
            # Perfect play by the opponent draws, so a draw is the worst it can be held to.
            assert result.value == 0.0, result.line


def test_search_players_never_lose_either() -> None:
    """Full-depth iterative deepening and alpha-beta are perfect players too (exhaustively)."""
    game = TicTacToe()
    for player in (DeepeningPlayer(), AlphaBetaPlayer()):
        for seat in (0, 1):
            assert worst_case(game, player, seat).value == 0.0


def test_worst_case_finds_how_to_beat_a_naive_player() -> None:
    """Against "first free cell" the check returns a line where that player loses."""
    game = TicTacToe()
    result = worst_case(game, first_action, 0)
    assert result.value == -1.0
    state = game.initial_state()
    for action in result.line:
        state = game.result(state, action)
    assert game.is_terminal(state) and state.winner == 1


def test_perfect_player_wins_quickly() -> None:
    """With a win in one available it takes it, rather than any slower win; so does deepening."""
    game = TicTacToe()
    state = game.initial_state()
    for text in ("a1", "a2", "b1", "b2"):  # X to move: c1 wins now, other moves later
        state = game.result(state, game.parse_action(state, text))
    assert game.action_text(PerfectPlayer()(game, state)) == "c1"
    # Iterative deepening proves the win at depth 1 and stops there.
    player = DeepeningPlayer()
    assert game.action_text(player(game, state)) == "c1"
    assert player.last is not None and player.last.depth == 1


def test_mcts_never_loses_to_random_at_tictactoe() -> None:
    """A 400-playout MCTS player, seeded, wins or draws every game from either side."""
    game = TicTacToe()
    for seed in range(10):
        rng = random.Random(seed)
        ai = MCTSPlayer(iterations=400, rng=rng)
        opponent = RandomPlayer(random.Random(100 + seed))
        seat = seed % 2
        players = (ai, opponent) if seat == 0 else (opponent, ai)
        final, _ = play_match(game, players)
        assert game.utility(final, seat) >= 0.0, seed


def test_mcts_beats_random_at_connect_four() -> None:
    """Even with few playouts MCTS wins connect four against random moves."""
    game = Connect4()
    for seed in range(2):
        ai = MCTSPlayer(iterations=150, rng=random.Random(seed))
        players = (ai, RandomPlayer(random.Random(seed + 50)))
        final, _ = play_match(game, players if seed == 0 else players[::-1])
        assert game.utility(final, seed) == 1.0


def test_deepening_player_beats_random_at_connect_four() -> None:
    """A small node budget per move is plenty against random play."""
    game = Connect4()
    ai = DeepeningPlayer(Limit(nodes=800), order=game.centre_first)
    final, _ = play_match(game, (RandomPlayer(random.Random(9)), ai))
    assert game.utility(final, 1) == 1.0
    assert ai.last is not None and ai.last.nodes > 0


def test_mcts_result_and_limits() -> None:
    """MCTS reports its playouts, a legal principal variation, and refuses no limit at all."""
    game = TicTacToe()
    state = game.initial_state()
    for text in ("a1", "b2", "b1"):  # O must block at c1
        state = game.result(state, game.parse_action(state, text))
    result = mcts(game, state, iterations=600, rng=random.Random(1))
    assert game.action_text(result.move) == "c1"
    assert result.iterations == 600 and result.nodes >= 600 and -1 <= result.value <= 1
    walk = state
    for action in result.pv:
        assert action in game.actions(walk)
        walk = game.result(walk, action)
    by_nodes = mcts(game, state, limit=Limit(nodes=500), rng=random.Random(1))
    assert by_nodes.iterations >= 1 and by_nodes.nodes < 500 + 10
    with pytest.raises(ValueError, match="needs a limit"):
        mcts(game, state)
    with pytest.raises(ValueError):
        mcts(game, state, iterations=0)


def test_play_match_refuses_an_illegal_action() -> None:
    """A player returning a move that is not legal is reported, not played."""
    game = TicTacToe()
    with pytest.raises(ValueError, match="illegal action"):
        play_match(game, (lambda g, s: 99, first_action))
