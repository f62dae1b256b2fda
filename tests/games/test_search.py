"""Minimax, negamax, alpha-beta and iterative deepening: same values, different costs."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

import pytest
from tests.games.playouts import random_states

from plies.engine.limits import Info, Limit
from plies.games.alphabeta import alphabeta
from plies.games.connect4 import Connect4, Connect4State
from plies.games.deepening import iterative_deepening
from plies.games.minimax import minimax
from plies.games.negamax import negamax
from plies.games.protocol import BaseGame, Game
from plies.games.tictactoe import TicTacToe, TicTacToeState
from plies.games.ttable import TranspositionTable


def follow(
    game: Game[TicTacToeState, int], state: TicTacToeState, pv: Sequence[int]
) -> TicTacToeState:
    """Return the state at the end of ``pv``, checking each move is legal on the way."""
    for action in pv:
        assert action in game.actions(state)
        state = game.result(state, action)
    return state


def test_full_tree_minimax_visits_every_node_of_tictactoe() -> None:
    """From the empty board minimax sees all 549,946 nodes; alpha-beta the same draw in 3%."""
    game = TicTacToe()
    start = game.initial_state()
    plain = minimax(game, start)
    assert plain.nodes == 549_946
    assert plain.value == 0.0 and plain.exact and plain.cutoffs == 0
    end = follow(game, start, plain.pv)
    assert game.is_terminal(end) and game.utility(end, 0) == 0.0
    ab = alphabeta(game, start)
    abtt = alphabeta(game, start, tt=TranspositionTable())
    assert ab.value == abtt.value == 0.0
    assert ab.nodes * 20 < plain.nodes and ab.cutoffs > 0
    assert abtt.nodes * 3 < ab.nodes and abtt.tt_hits > 0


def test_alphabeta_agrees_with_minimax_at_a_fraction_of_the_nodes() -> None:
    """Same value everywhere; alpha-beta cheaper, a table cheaper still."""
    game = TicTacToe()
    for state in random_states(game, 12, 5, 2, 7):
        plain = minimax(game, state)
        nega = negamax(game, state)
        ab = alphabeta(game, state)
        abtt = alphabeta(game, state, tt=TranspositionTable())
        assert plain.value == nega.value == ab.value == abtt.value
        assert plain.nodes == nega.nodes
        assert ab.nodes <= plain.nodes and abtt.nodes <= ab.nodes
        for result in (plain, nega, ab, abtt):
            # The principal variation is a legal line ending in the promised result.
            end = follow(game, state, result.pv)
            assert game.is_terminal(end)
            assert game.utility(end, game.to_move(state)) == result.value


def test_depth_limited_searches_agree_on_heuristic_values() -> None:
    """At a depth cutoff all three return the same (heuristic) value of connect four."""
    game = Connect4()
    for state in random_states(game, 6, 11, 0, 12):
        plain = minimax(game, state, depth=3)
        nega = negamax(game, state, depth=3)
        ab = alphabeta(game, state, depth=3)
        ordered = alphabeta(game, state, depth=3, order=game.centre_first, tt=TranspositionTable())
        assert plain.value == nega.value == ab.value == ordered.value
        assert ab.nodes < plain.nodes
        # Only a proven result (a win within three plies) counts as exact.
        assert plain.exact == (abs(plain.value) == 1.0)
        assert len(plain.pv) == 3 or plain.exact


def test_terminal_root_returns_no_action() -> None:
    """A finished game has a value but no action, from every algorithm."""
    game = TicTacToe()
    state = game.initial_state()
    for cell in (0, 3, 1, 4, 2):
        state = game.result(state, cell)
    for search in (minimax, negamax, alphabeta, iterative_deepening):
        result: Info = search(game, state)
        assert result.move is None and result.value == -1.0  # O to move, X has won


def test_searches_take_an_immediate_win_or_block() -> None:
    """Connect four: play the winning column; with none, block the opponent's three."""
    game = Connect4()
    state = game.initial_state()
    for col in (0, 6, 1, 6, 2):  # X has three along the bottom; O must block column 4
        state = game.result(state, col)
    for result in (
        alphabeta(game, state, depth=4, order=game.centre_first),
        iterative_deepening(game, state, Limit(nodes=20_000), order=game.centre_first),
    ):
        assert result.move == 3
    state = game.result(state, 5)  # O elsewhere: X wins at once
    result = iterative_deepening(game, state, Limit(nodes=20_000))
    assert result.move == 3 and result.value == 1.0 and result.depth == 1 and result.exact


def test_iterative_deepening_solves_tictactoe_and_stops_by_itself() -> None:
    """Without a budget it deepens until it has seen every line: the exact draw."""
    game = TicTacToe()
    result = iterative_deepening(game, game.initial_state())
    assert result.value == 0.0 and result.exact and result.depth == 9
    assert result.tt_hits > 0 and result.cutoffs > 0


def test_iterative_deepening_respects_a_node_budget() -> None:
    """A node budget is never exceeded (after depth 1) and the answer is repeatable."""
    game = Connect4()
    first = iterative_deepening(game, game.initial_state(), Limit(nodes=3_000))
    again = iterative_deepening(game, game.initial_state(), Limit(nodes=3_000))
    assert first.nodes <= 3_000
    assert first == dataclasses.replace(again, time_ms=first.time_ms, nps=first.nps)
    assert 2 <= first.depth < 10 and not first.exact
    deeper = iterative_deepening(game, game.initial_state(), Limit(nodes=30_000))
    assert deeper.depth > first.depth


def test_iterative_deepening_always_finishes_depth_one() -> None:
    """Even a budget of zero yields a legal move: the first iteration is not interrupted."""
    game = Connect4()
    result = iterative_deepening(game, game.initial_state(), Limit(nodes=0))
    assert result.depth == 1 and result.move in game.actions(game.initial_state())
    with pytest.raises(ValueError):
        iterative_deepening(game, game.initial_state(), Limit(depth=0))
    with pytest.raises(ValueError, match="limit nodes must be >= 0"):
        iterative_deepening(game, game.initial_state(), Limit(nodes=-1))
    with pytest.raises(ValueError, match="limit time must be >= 0"):
        iterative_deepening(game, game.initial_state(), Limit(movetime=-1000))


class ExtraTurnState(NamedTuple):
    """A pile of stones, the player to move, and whether the last stone has been taken."""

    stones: int
    player: int
    #: The player who took the last stone, or None.
    last: int | None


class ExtraTurnNim(BaseGame[ExtraTurnState, int]):
    """Take 1, 2 or 3 stones; taking exactly 2 earns another turn; taking the last wins."""

    def initial_state(self) -> ExtraTurnState:
        """Start with eleven stones."""
        return ExtraTurnState(11, 0, None)

    def to_move(self, state: ExtraTurnState) -> int:
        """Return the player to move."""
        return state.player

    def actions(self, state: ExtraTurnState) -> Sequence[int]:
        """Return how many stones may be taken."""
        return [n for n in (1, 2, 3) if n <= state.stones]

    def result(self, state: ExtraTurnState, action: int) -> ExtraTurnState:
        """Take ``action`` stones; the turn passes unless exactly two were taken."""
        stones = state.stones - action
        if stones == 0:
            return ExtraTurnState(0, 1 - state.player, state.player)
        return ExtraTurnState(stones, state.player if action == 2 else 1 - state.player, None)

    def is_terminal(self, state: ExtraTurnState) -> bool:
        """Return whether the pile is empty."""
        return state.stones == 0

    def utility(self, state: ExtraTurnState, player: int) -> float:
        """Return +1 for the player who took the last stone."""
        return 1.0 if state.last == player else -1.0


def test_a_player_moving_twice_in_a_row_is_handled() -> None:
    """Negamax-based searches keep the sign when the same player moves again."""
    game = ExtraTurnNim()
    for stones in range(1, 12):
        state = ExtraTurnState(stones, 0, None)
        for player in (0, 1):
            state = state._replace(player=player)
            values = {
                f.__name__: f(game, state).value
                for f in (minimax, negamax, alphabeta, iterative_deepening)
            }
            assert len(set(values.values())) == 1, values


def test_transposition_table_keeps_the_deeper_entry_and_clears_when_full() -> None:
    """Depth-preferred replacement; a full table starts over rather than growing."""
    from plies.games.ttable import Bound, Entry

    table: TranspositionTable[int] = TranspositionTable(max_entries=2)
    table.put("a", Entry(5, 0.5, Bound.EXACT, 1))
    table.put("a", Entry(3, 0.1, Bound.LOWER, 2))
    assert table.get("a") == Entry(5, 0.5, Bound.EXACT, 1)
    table.put("b", Entry(1, 0.0, Bound.UPPER, 0))
    table.put("c", Entry(1, 0.0, Bound.UPPER, 0))
    assert len(table) == 1 and table.get("a") is None and table.get("c") is not None
    with pytest.raises(ValueError):
        TranspositionTable(max_entries=0)


def _connect4_type_check(game: Connect4, state: Connect4State) -> Info:
    """The generic searches accept any Game: a static check that mypy runs."""
    return alphabeta(game, state, depth=1)


def test_move_ordering_hook_saves_nodes_without_changing_the_value() -> None:
    """Ordering by the heuristic finds cutoffs sooner: the same draw for far fewer nodes."""
    from plies.games.ordering import by_evaluation

    game = TicTacToe()
    plain = alphabeta(game, game.initial_state())
    ordered = alphabeta(game, game.initial_state(), order=by_evaluation(game))
    assert plain.value == ordered.value == 0.0
    assert ordered.nodes * 4 < plain.nodes
    assert game.action_text(ordered.move) == "b2"  # the centre looks best and is searched first
