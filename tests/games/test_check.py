"""``check_game``: each broken game shows its breach, with the state that shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.games.check import KINDS, Breach, check_game
from plies.games.spec import load_game

BROKEN = Path(__file__).parent / "data" / "broken_games.py"


def check(name: str, playouts: int = 20, max_plies: int = 50) -> dict[str, Breach]:
    """Check the game ``name`` of the broken-games file; return its breaches by kind."""
    report = check_game(load_game(f"{BROKEN}:{name}"), playouts, seed=3, max_plies=max_plies)
    return dict(report.breaches)


def test_the_sound_game_and_the_builtins_pass() -> None:
    """No breach where the protocol is kept."""
    assert check("CountingGame") == {}
    for spec in ("tictactoe", "connect4", f"{Path(__file__).parent / 'data' / 'nim.py'}"):
        report = check_game(load_game(spec), playouts=20, seed=1)
        assert report.ok, (spec, report.breaches)
        assert report.plies > 0


@pytest.mark.parametrize(
    ("name", "kind", "detail", "picture"),
    [
        ("NoActionsGame", "no-actions", "actions returned nothing", "total 3"),
        ("ActionsAtEndGame", "actions-at-end", "is_terminal is True but actions lists 2",
         "total "),
        ("MutatingGame", "mutates", "changed the state it was given", "total 0, player 1"),
        ("BigUtilityGame", "utility", "utility(state, 0) = ", "total 6"),
        ("ProvenEvaluateGame", "evaluate", "evaluate(state, 0) = 1.0", "total 0"),
        ("IdentityKeyGame", "key", "key", "total"),
        ("EndlessGame", "no-end", "not over after 50 plies", "total"),
        ("RaisingGame", "error", "result raised RuntimeError: cannot move from 4", "total 4"),
        ("BadMoverGame", "to-move", "to_move returned 2", "player 2 to move"),
    ],
)
def test_each_breach_is_found_with_its_state(
    name: str, kind: str, detail: str, picture: str
) -> None:
    """The broken game's breach is reported, its detail names it, the picture shows it."""
    breaches = check(name)
    assert kind in KINDS
    assert kind in breaches, breaches
    breach = breaches[kind]
    assert detail in breach.detail
    assert picture in breach.picture


def test_the_line_reproduces_the_state() -> None:
    """The reported line, replayed, reaches the state the picture shows."""
    game = load_game(f"{BROKEN}:NoActionsGame")
    report = check_game(game, playouts=10, seed=5)
    breach = report.breaches["no-actions"]
    state = game.initial_state()
    for text in breach.line:
        state = game.result(state, int(text))
    assert game.render(state) == breach.picture
    assert report.counts["no-actions"] >= 1


def test_breaches_are_reproducible_by_seed() -> None:
    """The same seed finds the same first breach."""
    game = load_game(f"{BROKEN}:NoActionsGame")
    first = check_game(game, playouts=10, seed=9).breaches
    again = check_game(game, playouts=10, seed=9).breaches
    assert first == again
