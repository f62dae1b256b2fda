"""Iterative deepening: alpha-beta to depth 1, 2, 3, ... until a time or node budget runs out."""

from __future__ import annotations

from plies.games.alphabeta import AlphaBetaSearch
from plies.games.budget import Budget, BudgetExceededError, Meter
from plies.games.protocol import WIN, A, Game, Ordering, S
from plies.games.result import SearchResult
from plies.games.ttable import TranspositionTable


def iterative_deepening(
    game: Game[S, A],
    state: S,
    budget: Budget | None = None,
    max_depth: int | None = None,
    order: Ordering[S, A] | None = None,
    tt: TranspositionTable[A] | None = None,
) -> SearchResult[A]:
    """Search ``state`` ever deeper and return the result of the deepest completed depth.

    Stops when the ``budget`` is spent (the unfinished iteration is dropped, but depth 1
    always completes, so there is always a move), at ``max_depth``, when the value is
    proven (+1 or -1, found at the shallowest depth that proves it, which favours quick
    wins over slow ones), or when a search saw every line to its end. The transposition
    table (a fresh one unless ``tt`` is given) carries each iteration's best moves into
    the next, which orders them first. Statistics add up all iterations.
    """
    if max_depth is not None and max_depth < 1:
        raise ValueError(f"max_depth must be >= 1, not {max_depth}")
    meter = Meter(budget)
    me = game.to_move(state)
    if game.is_terminal(state):
        return SearchResult(None, game.utility(state, me), exact=True)
    table: TranspositionTable[A] = tt if tt is not None else TranspositionTable()
    meter.armed = False
    cutoffs = tt_hits = 0
    best: tuple[float, tuple[A, ...], int, bool] | None = None
    depth = 1
    while max_depth is None or depth <= max_depth:
        search = AlphaBetaSearch(game, order, table, meter)
        try:
            value, pv = search.root(state, depth)
        except BudgetExceededError:
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
    return SearchResult(
        action=pv[0] if pv else None,
        value=value + 0.0,  # turns a negated draw's -0.0 into 0.0
        pv=pv,
        nodes=meter.nodes,
        cutoffs=cutoffs,
        tt_hits=tt_hits,
        seconds=meter.elapsed(),
        depth=done,
        exact=exact,
    )
