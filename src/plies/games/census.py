"""Counting a whole game tree: games by outcome, reachable and terminal positions."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from plies.games.protocol import A, Game, S


@dataclass(frozen=True)
class Census:
    """What an exhaustive walk of a game found."""

    #: Distinct complete games (move sequences from the start to an end).
    games: int
    #: Games won by player 0 and by player 1.
    wins: tuple[int, int]
    #: Games that ended drawn.
    draws: int
    #: Distinct positions reachable from the start, the start included.
    positions: int
    #: Reachable positions where the game is over.
    terminal: int


def census(game: Game[S, A], state: S | None = None) -> Census:
    """Walk every line of ``game`` from ``state`` (the start by default) and count.

    The future of a position depends only on the position, so games are counted once
    per position (by ``game.key``) and summed over the paths into it: the work is
    proportional to the positions, not to the far more numerous games.
    """
    start = game.initial_state() if state is None else state
    # key -> (wins for 0, wins for 1, draws) of the games continuing from that position
    counts: dict[Hashable, tuple[int, int, int]] = {}
    terminal = 0

    def walk(s: S) -> tuple[int, int, int]:
        """Return the games from ``s`` by outcome, filling ``counts``."""
        nonlocal terminal
        key = game.key(s)
        known = counts.get(key)
        if known is not None:
            return known
        if game.is_terminal(s):
            terminal += 1
            if game.utility(s, 0) > 0:
                out = (1, 0, 0)
            elif game.utility(s, 1) > 0:
                out = (0, 1, 0)
            else:
                out = (0, 0, 1)
        else:
            w0 = w1 = d = 0
            for action in game.actions(s):
                a, b, c = walk(game.result(s, action))
                w0, w1, d = w0 + a, w1 + b, d + c
            out = (w0, w1, d)
        counts[key] = out
        return out

    w0, w1, d = walk(start)
    return Census(w0 + w1 + d, (w0, w1), d, len(counts), terminal)
