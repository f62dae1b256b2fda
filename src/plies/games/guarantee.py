"""Checking a player against every possible opponent strategy, exhaustively."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic

from plies.games.protocol import A, Game, Player, S


@dataclass(frozen=True)
class WorstCase(Generic[A]):
    """The worst result a player can be held to, and a line of play that does it."""

    #: The lowest final utility any opponent strategy achieves against the player.
    value: float
    #: Moves (of both sides) from the start to that result.
    line: tuple[A, ...]
    #: Distinct positions examined.
    positions: int


def worst_case(
    game: Game[S, A], player: Player[S, A], seat: int, state: S | None = None
) -> WorstCase[A]:
    """Return the worst outcome for ``player`` sitting at ``seat`` (0 or 1) from ``state``.

    At the player's turns its own choice is followed; at the opponent's every action is
    tried, so the result covers every opponent strategy at once. The player is asked
    once per position, so it is assumed to answer the same position the same way.
    """
    start = game.initial_state() if state is None else state
    memo: dict[Hashable, tuple[float, tuple[A, ...]]] = {}

    def walk(s: S) -> tuple[float, tuple[A, ...]]:
        """Return the worst final utility for ``seat`` from ``s``, with its line."""
        key = game.key(s)
        known = memo.get(key)
        if known is not None:
            return known
        if game.is_terminal(s):
            out: tuple[float, tuple[A, ...]] = (game.utility(s, seat), ())
        elif game.to_move(s) == seat:
            action = player(game, s)
            value, line = walk(game.result(s, action))
            out = (value, (action, *line))
        else:
            worst: tuple[float, tuple[A, ...]] | None = None
            for a in game.actions(s):
                value, line = walk(game.result(s, a))
                if worst is None or value < worst[0]:
                    worst = (value, (a, *line))
            assert worst is not None  # a state that is not over has an action
            out = worst
        memo[key] = out
        return out

    value, line = walk(start)
    return WorstCase(value, line, len(memo))
