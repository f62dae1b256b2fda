"""Positions reached by seeded random play, for the tests of any game."""

from __future__ import annotations

import random
from typing import Any

from plies.games.protocol import Game


def random_play(game: Game[Any, Any], rng: random.Random, low: int, high: int) -> Any:
    """The state after ``rng.randrange(low, high)`` random moves from the start (fewer if
    the game ends first)."""
    state = game.initial_state()
    for _ in range(rng.randrange(low, high)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(list(game.actions(state))))
    return state


def random_states(game: Game[Any, Any], count: int, seed: int, low: int, high: int) -> list[Any]:
    """``count`` states still in play, each after ``random_play(game, rng, low, high)``."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = random_play(game, rng, low, high)
        if not game.is_terminal(state):
            out.append(state)
    return out
