"""Every first action's value: the searched value of a state and all its best actions.

A plain search returns one best action; whoever asks "which moves win?" needs each
action searched with the full window. :func:`root_values` does that with one
alpha-beta and one transposition table shared by all actions, so that transpositions
between their subtrees are searched once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic

from plies.engine.limits import Limit, Meter, SearchStoppedError
from plies.games.alphabeta import UNLIMITED, AlphaBetaSearch
from plies.games.protocol import WIN, A, Game, Ordering, S
from plies.games.ttable import TranspositionTable


@dataclass(frozen=True)
class RootValues(Generic[A]):
    """The value of each first action, for the player to move at the searched state."""

    #: The best value (the state's value), for the player to move.
    value: float
    #: Every action reaching ``value``, in the game's action order.
    best_actions: tuple[A, ...]
    #: Each action with its value.
    values: tuple[tuple[A, float], ...]
    #: States visited.
    nodes: int
    #: Transposition-table probes that answered outright.
    tt_hits: int
    #: Wall-clock seconds.
    seconds: float
    #: Plies searched below the state (None: to the end).
    depth: int | None
    #: Whether every value is proven (no depth cutoff or time limit touched it).
    exact: bool


def root_values(
    game: Game[S, A],
    state: S,
    limit: Limit | None = None,
    order: Ordering[S, A] | None = None,
) -> RootValues[A]:
    """Search every action of ``state`` to the end, or to ``limit.depth`` plies, or within
    the limit's time or nodes (player 0's clock is ``wtime``, player 1's ``btime``).

    Without limits the values are exact. With a time or node limit the search deepens
    one ply at a time and answers with the deepest depth it completed (depth 1 always
    completes). The result says whether the values are proven or heuristic.
    """
    depth = None if limit is None else limit.depth
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth}")
    me = game.to_move(state)
    meter = Meter(limit, me == 0)
    if game.is_terminal(state):
        return RootValues(game.utility(state, me) + 0.0, (), (), 0, 0, 0.0, 0, True)
    table: TranspositionTable[A] = TranspositionTable()
    if not meter.limited:
        values, hits, exact = _one_depth(game, state, me, UNLIMITED if depth is None else depth,
                                         order, table, meter)
        done = depth
    else:
        meter.armed = False  # the first depth always completes: there is always an answer
        values, hits, exact, done = [], 0, False, 0
        deepest = UNLIMITED if depth is None else depth
        current = 1
        while current <= deepest:
            try:
                values, new_hits, exact = _one_depth(game, state, me, current, order, table, meter)
            except SearchStoppedError:
                break
            finally:
                meter.armed = True
            hits += new_hits
            done = current
            if exact or meter.spent():
                break
            current += 1
        if exact and depth is None:
            done = None
    best = max(v for _, v in values)
    return RootValues(
        value=best,
        best_actions=tuple(a for a, v in values if v == best),
        values=tuple(values),
        nodes=meter.nodes,
        tt_hits=hits,
        seconds=meter.elapsed(),
        depth=done,
        exact=exact,
    )


def _one_depth(
    game: Game[S, A],
    state: S,
    me: int,
    depth: int,
    order: Ordering[S, A] | None,
    table: TranspositionTable[A],
    meter: Meter,
) -> tuple[list[tuple[A, float]], int, bool]:
    """Search each action of ``state`` to ``depth``; return values, table hits, exactness."""
    search = AlphaBetaSearch(game, order, table, meter)
    meter.tick()
    values: list[tuple[A, float]] = []
    exact = True
    for action in game.actions(state):
        child = game.result(state, action)
        horizon = search.horizon
        value, _ = search.search(child, depth - 1, -WIN, WIN)
        if game.to_move(child) != me:
            value = -value
        values.append((action, value + 0.0))  # +0.0 turns a negated draw's -0.0 into 0.0
        if search.horizon != horizon and abs(value) < WIN:
            exact = False
    return values, search.tt_hits, exact
