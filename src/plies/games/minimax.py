"""Plain minimax: every line searched, MAX and MIN taking turns, no pruning."""

from __future__ import annotations

import math
import time

from plies.engine.limits import Info, Meter
from plies.games.line import Line
from plies.games.protocol import A, Game, Ordering, S
from plies.games.report import line_report


def minimax(
    game: Game[S, A],
    state: S,
    depth: int | None = None,
    order: Ordering[S, A] | None = None,
    meter: Meter | None = None,
) -> Info:
    """Search ``state`` by minimax, to the end or ``depth`` plies, and return the best action.

    Values are for the player to move at ``state`` (MAX); the opponent minimises them.
    Beyond ``depth`` plies a state is scored by ``game.evaluate``. Ties go to the first
    action in ``game.actions`` order, or in ``order``'s if given (which changes no
    value). ``meter`` counts the nodes; when its limit is spent or it is told to
    ``stop()``, the search raises :class:`~plies.engine.limits.SearchStoppedError`.
    The :class:`~plies.engine.limits.Info` returned has the action as ``move`` and its
    ``value`` for the player to move.
    """
    start = time.perf_counter()
    root = game.to_move(state)
    count = meter if meter is not None else Meter(None)
    horizon = False

    def value(s: S, d: int) -> tuple[float, Line[A]]:
        """Return the minimax value of ``s`` for the root player, and its line."""
        nonlocal horizon
        count.tick()
        if game.is_terminal(s):
            return game.utility(s, root), None
        if d == 0:
            horizon = True
            return game.evaluate(s, root), None
        maximise = game.to_move(s) == root
        best = -math.inf if maximise else math.inf
        best_line: Line[A] = None
        actions = game.actions(s)
        if order is not None:
            actions = order(s, actions)
        for action in actions:
            v, line = value(game.result(s, action), d - 1)
            if (v > best) if maximise else (v < best):
                best, best_line = v, (action, line)
        return best, best_line

    limit = -1 if depth is None else depth
    v, line = value(state, limit)
    return line_report(v, line, depth, count.nodes, time.perf_counter() - start, horizon)
