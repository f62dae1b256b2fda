"""The OpenSpiel adapter: plies's searches agree with OpenSpiel's own values."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")

from tests.games.playouts import random_states  # noqa: E402

from plies.games.alphabeta import alphabeta  # noqa: E402
from plies.games.check import check_game  # noqa: E402
from plies.games.openspiel import OpenSpielGame  # noqa: E402
from plies.games.rootsearch import root_values  # noqa: E402
from plies.games.ttable import TranspositionTable  # noqa: E402


def every_state(game: OpenSpielGame) -> list[Any]:
    """Return every non-terminal state of a small game, by depth-first walk."""
    out, todo, seen = [], [game.initial_state()], set()
    while todo:
        state = todo.pop()
        key = game.key(state)
        if key in seen or game.is_terminal(state):
            continue
        seen.add(key)
        out.append(state)
        todo.extend(game.result(state, a) for a in game.actions(state))
    return out


@pytest.mark.parametrize(
    ("spec", "states"),
    [
        ("tic_tac_toe", lambda g: [g.initial_state(), *random_states(g, 30, 4, 1, 6)]),
        ("nim(pile_sizes=1;2;3)", every_state),
        ("nim(pile_sizes=2;3;4,is_misere=false)", every_state),
    ],
)
def test_values_match_openspiel_alpha_beta(spec: str, states: Any) -> None:
    """At every state: the same value as OpenSpiel's alpha-beta, and its move among ours."""
    game = OpenSpielGame(spec)
    checked = 0
    for state in states(game):
        mover = state.current_player()
        theirs, their_action = minimax.alpha_beta_search(
            game.game, state=state.clone(), maximizing_player_id=mover
        )
        ours = root_values(game, state)
        assert ours.exact
        assert ours.value == pytest.approx(theirs), str(state)
        assert their_action in ours.best_actions, str(state)
        single = alphabeta(game, state, tt=TranspositionTable())
        assert single.value == pytest.approx(theirs)
        checked += 1
    assert checked >= 10


def test_adapter_keeps_the_protocol() -> None:
    """Random playouts find no breach in the adapter on a few games."""
    for spec in ("tic_tac_toe", "nim", "breakthrough(rows=4,columns=4)", "dots_and_boxes"):
        report = check_game(OpenSpielGame(spec), playouts=10, seed=2)
        assert report.ok, (spec, report.breaches)


def test_state_text_and_typed_actions() -> None:
    """Actions are named by OpenSpiel per state and read back by name or id."""
    game = OpenSpielGame("tic_tac_toe")
    state = game.result(game.initial_state(), 4)
    assert game.state_action_text(state, 0) == "o(0,0)"
    assert game.parse_action(state, "o(0,0)") == 0
    assert game.parse_action(state, "8") == 8
    with pytest.raises(ValueError, match="not a legal action"):
        game.parse_action(state, "4")
