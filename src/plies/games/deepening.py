"""Iterative deepening: alpha-beta to depth 1, 2, 3, ... until the limit is spent."""

from __future__ import annotations

from plies.engine.limits import Info, Limit, Meter, SearchStoppedError
from plies.games.alphabeta import AlphaBetaSearch
from plies.games.protocol import WIN, A, Game, Ordering, S
from plies.games.report import report
from plies.games.ttable import TranspositionTable


def iterative_deepening(
    game: Game[S, A],
    state: S,
    limit: Limit | None = None,
    order: Ordering[S, A] | None = None,
    tt: TranspositionTable[A] | None = None,
    meter: Meter | None = None,
) -> Info:
    """Search ``state`` ever deeper and return the result of the deepest completed depth.

    Stops when the ``limit``'s time or nodes are spent or the meter is told to ``stop()``
    (the unfinished iteration is dropped, but depth 1 always completes, so there is
    always a move), after ``limit.depth`` plies, when the value is proven (+1 or -1,
    found at the shallowest depth that proves it, which favours quick wins over slow
    ones), or when a search saw every line to its end. Player 0's clock is ``wtime``,
    player 1's ``btime``. ``meter`` (made from ``limit`` if not given) lets the caller
    stop the search from another thread. The transposition table (a fresh one unless
    ``tt`` is given) carries each iteration's best moves into the next, which orders
    them first. Statistics add up all iterations.
    """
    max_depth = None if limit is None else limit.depth
    if max_depth is not None and max_depth < 1:
        raise ValueError(f"depth must be >= 1, not {max_depth}")
    me = game.to_move(state)
    if meter is None:
        meter = Meter(limit, me == 0)
    if game.is_terminal(state):
        return report(game.utility(state, me), exact=True)
    table: TranspositionTable[A] = tt if tt is not None else TranspositionTable()
    meter.armed = False
    cutoffs = tt_hits = 0
    best: tuple[float, list[A], int, bool] | None = None
    depth = 1
    while max_depth is None or depth <= max_depth:
        search = AlphaBetaSearch(game, order, table, meter)
        try:
            value, pv = search.root(state, depth)
        except SearchStoppedError:
            cutoffs += search.cutoffs
            tt_hits += search.tt_hits
            break
        finally:
            meter.armed = True
        cutoffs += search.cutoffs
        tt_hits += search.tt_hits
        exact = search.horizon == 0 or abs(value) >= WIN
        best = (value, pv, depth, exact)
        if exact or meter.spent():
            break
        depth += 1
    assert best is not None  # depth 1 ran unarmed, so it completed
    value, pv, done, exact = best
    return report(
        value,
        pv,
        nodes=meter.nodes,
        seconds=meter.elapsed(),
        depth=done,
        exact=exact,
        cutoffs=cutoffs,
        tt_hits=tt_hits,
    )
