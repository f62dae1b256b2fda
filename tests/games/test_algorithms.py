"""The search algorithms by name, the one report they return, and the meter that stops them."""

from __future__ import annotations

import random
import threading

import pytest

from plies.engine.limits import Info, Limit, Meter, SearchStoppedError
from plies.games.algorithms import SEARCHES, make_player
from plies.games.alphabeta import alphabeta
from plies.games.connect4 import Connect4
from plies.games.deepening import iterative_deepening
from plies.games.mcts import mcts
from plies.games.minimax import minimax
from plies.games.negamax import negamax
from plies.games.search_players import DeepeningPlayer, MCTSPlayer, MinimaxPlayer, NegamaxPlayer
from plies.games.tictactoe import TicTacToe
from plies.registry import RegistryError


def test_one_registry_names_every_algorithm() -> None:
    """The command line, the web page and the drawn trees read the same names."""
    assert SEARCHES.builtin_names() == ("minimax", "negamax", "alphabeta", "mcts")
    assert SEARCHES.with_trait("tree") == ("minimax", "alphabeta")
    assert isinstance(make_player("minimax", depth=2), MinimaxPlayer)
    assert isinstance(make_player("negamax"), NegamaxPlayer)
    deepening = make_player("alphabeta", depth=3, seconds=0.5)
    assert isinstance(deepening, DeepeningPlayer)
    assert deepening.limit == Limit(depth=3, movetime=500)
    # A limit the algorithm does not use is ignored, as the command line always did.
    playouts = make_player("mcts", depth=4, playouts=50, rng=random.Random(1))
    assert isinstance(playouts, MCTSPlayer) and playouts.iterations == 50
    with pytest.raises(RegistryError, match=r"unknown algorithm 'bogus' \(choose from minimax"):
        make_player("bogus")
    with pytest.raises(ValueError, match="depth must be at least 1"):
        make_player("minimax", depth=0)


def test_searches_report_one_info() -> None:
    """The action is the report's move; value, exactness, line and counts beside it."""
    game = TicTacToe()
    state = game.initial_state()
    for text in ("a1", "a2", "b1", "b2"):
        state = game.result(state, game.parse_action(state, text))
    for result in (minimax(game, state), negamax(game, state), alphabeta(game, state),
                   iterative_deepening(game, state)):
        assert isinstance(result, Info)
        assert game.action_text(result.move) == "c1"
        assert result.value == 1.0 and result.exact
        assert result.pv[0] == result.move and result.nodes > 0 and result.time_ms >= 0
        assert result.score is None  # a game value is no chess score
    played = mcts(game, state, 300, rng=random.Random(2))
    assert played.iterations == 300 and played.value is not None and not played.exact


def test_stop_ends_an_unlimited_search() -> None:
    """``Meter.stop()`` ends even a search with no limit: the one stop signal is raised."""
    game = Connect4()
    meter = Meter()
    meter.stop()
    with pytest.raises(SearchStoppedError):
        alphabeta(game, game.initial_state(), meter=meter)
    with pytest.raises(SearchStoppedError):
        minimax(game, game.initial_state(), 6, meter=meter)
    # Deepening still answers from depth 1, which is never interrupted.
    stopped = Meter()
    timer = threading.Timer(0.2, stopped.stop)
    timer.start()
    try:
        result = iterative_deepening(game, game.initial_state(), meter=stopped)
    finally:
        timer.cancel()
    assert result.move in game.actions(game.initial_state()) and not result.exact


def test_the_clock_of_the_player_to_move() -> None:
    """Player 0 spends ``wtime``, player 1 ``btime``."""
    game = Connect4()
    black = game.result(game.initial_state(), 3)
    # Black to move with an empty clock: a millisecond is not enough for depth 7.
    assert iterative_deepening(game, black, Limit(depth=7, wtime=60_000, btime=0)).depth < 7
    # White's empty clock is not Black's: it deepens as far as it is allowed.
    assert iterative_deepening(game, black, Limit(depth=3, wtime=0, btime=60_000)).depth == 3
