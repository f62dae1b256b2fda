"""Negamax: minimax written once, each state valued for its own player to move."""

from __future__ import annotations

import math
import time

from plies.engine.limits import Info, Meter
from plies.games.line import Line
from plies.games.protocol import A, Game, S
from plies.games.report import line_report


def negamax(
    game: Game[S, A], state: S, depth: int | None = None, meter: Meter | None = None
) -> Info:
    """Search ``state`` by negamax, to the end or ``depth`` plies; same answers as minimax.

    A child's value is negated when the turn passes to the opponent (and kept as it is
    when the same player moves again, so games with extra turns work too). ``meter``
    counts the nodes and may stop the search by raising
    :class:`~plies.engine.limits.SearchStoppedError`.
    """
    start = time.perf_counter()
    count = meter if meter is not None else Meter(None)
    horizon = False

    def value(s: S, d: int) -> tuple[float, Line[A]]:
        """Return the value of ``s`` for the player to move there, and its line."""
        nonlocal horizon
        count.tick()
        me = game.to_move(s)
        if game.is_terminal(s):
            return game.utility(s, me), None
        if d == 0:
            horizon = True
            return game.evaluate(s, me), None
        best = -math.inf
        best_line: Line[A] = None
        for action in game.actions(s):
            child = game.result(s, action)
            v, line = value(child, d - 1)
            if game.to_move(child) != me:
                v = -v
            if v > best:
                best, best_line = v, (action, line)
        return best, best_line

    v, line = value(state, -1 if depth is None else depth)
    return line_report(v, line, depth, count.nodes, time.perf_counter() - start, horizon)
