"""Playing one game between two players."""

from __future__ import annotations

from collections.abc import Callable

from plies.games.protocol import A, Game, Player, S


def play_match(
    game: Game[S, A],
    players: tuple[Player[S, A], Player[S, A]],
    state: S | None = None,
    on_move: Callable[[S, A, S], None] | None = None,
) -> tuple[S, list[A]]:
    """Play from ``state`` (the start by default) to the end; return the final state and moves.

    ``players[0]`` moves for player 0, ``players[1]`` for player 1. ``on_move(before,
    action, after)`` is called after every move. An action that is not legal raises
    ``ValueError`` naming it.
    """
    current = game.initial_state() if state is None else state
    moves: list[A] = []
    while not game.is_terminal(current):
        action = players[game.to_move(current)](game, current)
        if action not in game.actions(current):
            raise ValueError(f"player {game.to_move(current)} chose an illegal action: {action!r}")
        after = game.result(current, action)
        moves.append(action)
        if on_move is not None:
            on_move(current, action, after)
        current = after
    return current, moves
