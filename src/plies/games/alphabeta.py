"""Alpha-beta search (fail-soft negamax) with depth cutoff, move ordering and transpositions."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from typing import Generic

from plies.engine.limits import Info, Meter, SearchStoppedError
from plies.games.line import Line, unroll
from plies.games.protocol import WIN, A, Game, Ordering, S
from plies.games.report import report
from plies.games.ttable import RESOLVED, Bound, Entry, TranspositionTable

#: The depth used for "search to the end": deeper than any game here, shallower than RESOLVED.
UNLIMITED = 1 << 20

# Longest principal variation read back from the transposition table (a guard, since
# states may repeat in some games).
_MAX_PV = 256


class AlphaBetaSearch(Generic[S, A]):
    """One alpha-beta search: its game, options and running statistics.

    :func:`alphabeta` runs one; :func:`~plies.games.deepening.iterative_deepening` runs
    several, deeper each time, sharing the transposition table and the meter.
    """

    def __init__(
        self,
        game: Game[S, A],
        order: Ordering[S, A] | None = None,
        tt: TranspositionTable[A] | None = None,
        meter: Meter | None = None,
    ) -> None:
        """Prepare a search; ``meter`` counts nodes and may stop the search by raising
        :class:`~plies.engine.limits.SearchStoppedError`."""
        self.game = game
        self.order = order
        self.tt = tt
        self.meter = meter if meter is not None else Meter(None)
        self.cutoffs = 0
        self.tt_hits = 0
        #: How many values so far came from a depth cutoff (a heuristic, not the game's end).
        self.horizon = 0
        self._search = self._build()

    def root(self, state: S, depth: int) -> tuple[float, list[A]]:
        """Search ``state`` to ``depth`` plies; return its value and principal variation."""
        value, line = self.search(state, depth, -WIN, WIN, True)
        return value, self._extend_pv(state, unroll(line))

    def search(
        self, state: S, depth: int, alpha: float, beta: float, root: bool = False
    ) -> tuple[float, Line[A]]:
        """Return the fail-soft value of ``state`` for its player to move, and its line.

        Inside the window (alpha, beta) the value is exact; at or below alpha it is an
        upper bound, at or above beta a lower bound.
        """
        try:
            return self._search(state, depth, alpha, beta, root)
        finally:
            self.meter.nodes += self._counted()

    def _build(self) -> Callable[[S, int, float, float, bool], tuple[float, Line[A]]]:
        """Return the recursive search as a closure over the game's methods.

        Python looks names up in a closure faster than as attributes, which is most of a
        node's cost in a quick game: the closure is the whole algorithm, the class its home.
        """
        game = self.game
        to_move, is_terminal, utility = game.to_move, game.is_terminal, game.utility
        actions_of, result_of, evaluate = game.actions, game.result, game.evaluate
        key_of = game.key
        order = self.order
        tt = self.tt
        meter = self.meter
        tick, out_of_time = meter.tick, meter.out_of_time
        # A meter with a limit counts each node itself; one without only needs a look
        # at its stop request now and then.
        limited = meter.limited
        exact_bound, lower_bound, upper_bound = Bound.EXACT, Bound.LOWER, Bound.UPPER
        below_all = -math.inf
        # Without a limit to watch, nodes are counted here (a closure cell is quicker than
        # the meter's attribute) and handed to the meter when the search returns.
        count = 0

        def counted() -> int:
            """Return the nodes counted here since the last call, and start again."""
            nonlocal count
            done, count = count, 0
            return done

        self._counted = counted

        def search(
            state: S, depth: int, alpha: float, beta: float, root: bool = False
        ) -> tuple[float, Line[A]]:
            """One node: see :meth:`AlphaBetaSearch.search`."""
            nonlocal count
            if limited:
                tick()
            else:
                count += 1
                if not count % Meter.STOP_EVERY and meter.armed and out_of_time():
                    raise SearchStoppedError
            me = to_move(state)
            if is_terminal(state):
                return utility(state, me), None

            # Step 1: a stored result may answer outright (never at the root, which owes
            # us a move) or at least name the move to try first.
            key: Hashable = None
            first: A | None = None
            if tt is not None:
                key = key_of(state)
                entry = tt.get(key)
                if entry is not None:
                    first = entry.action
                    if (
                        not root
                        and entry.depth >= depth
                        and (
                            entry.bound is exact_bound
                            or (entry.bound is lower_bound and entry.value >= beta)
                            or (entry.bound is upper_bound and entry.value <= alpha)
                        )
                    ):
                        self.tt_hits += 1
                        if entry.depth != RESOLVED:
                            self.horizon += 1
                        return entry.value, None

            # Step 2: at the horizon, guess.
            if depth <= 0:
                self.horizon += 1
                return evaluate(state, me), None

            # Step 3: order the moves: the stored best move, then the hook's order.
            actions = actions_of(state)
            if order is not None:
                actions = order(state, actions)
            if first is not None and first in actions:
                actions = [first, *(a for a in actions if a != first)]

            # Step 4: the moves, narrowing the window; stop once one refutes the
            # opponent's alternative (value >= beta).
            horizon_before = self.horizon if tt is not None else 0
            alpha_before = alpha
            best = below_all
            best_line: Line[A] = None
            for action in actions:
                child = result_of(state, action)
                if to_move(child) == me:
                    v, line = search(child, depth - 1, alpha, beta)
                else:
                    v, line = search(child, depth - 1, -beta, -alpha)
                    v = -v
                if v > best:
                    best, best_line = v, (action, line)
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self.cutoffs += 1
                            break

            # Step 5: remember the result; a value no depth cutoff touched holds at any
            # depth.
            if tt is not None and best_line is not None:
                # Nothing lies beyond a proven win or loss: such a bound is the exact value.
                if abs(best) >= WIN or alpha_before < best < beta:
                    bound = exact_bound
                elif best <= alpha_before:
                    bound = upper_bound
                else:
                    bound = lower_bound
                stored = RESOLVED if self.horizon == horizon_before else depth
                tt.put(key, Entry(stored, best, bound, best_line[0]))
            return best, best_line

        return search

    def _extend_pv(self, state: S, pv: list[A]) -> list[A]:
        """Continue ``pv`` with exact best moves stored in the table (cut off by its hits)."""
        if self.tt is None:
            return pv
        game = self.game
        for action in pv:
            state = game.result(state, action)
        out = list(pv)
        seen: set[Hashable] = set()
        while len(out) < _MAX_PV and not game.is_terminal(state):
            key = game.key(state)
            entry = self.tt.get(key)
            if entry is None or entry.bound is not Bound.EXACT or entry.action is None:
                break
            if key in seen:
                break
            seen.add(key)
            out.append(entry.action)
            state = game.result(state, entry.action)
        return out


def alphabeta(
    game: Game[S, A],
    state: S,
    depth: int | None = None,
    order: Ordering[S, A] | None = None,
    tt: TranspositionTable[A] | None = None,
    meter: Meter | None = None,
) -> Info:
    """Search ``state`` by alpha-beta, to the end or ``depth`` plies; same value as minimax.

    ``order`` lists the actions in the order to try them (good moves first means more
    cutoffs); ``tt`` stores results by ``game.key`` so that transpositions are searched
    once. The search window starts at [-1, +1]: nothing beats a proven win. ``meter``
    counts the nodes and may stop the search by raising
    :class:`~plies.engine.limits.SearchStoppedError`.
    """
    start = time.perf_counter()
    me = game.to_move(state)
    if game.is_terminal(state):
        return report(game.utility(state, me), exact=True)
    search = AlphaBetaSearch(game, order, tt, meter)
    limit = UNLIMITED if depth is None else depth
    value, pv = search.root(state, limit)
    return report(
        value,
        pv,
        nodes=search.meter.nodes,
        cutoffs=search.cutoffs,
        tt_hits=search.tt_hits,
        seconds=time.perf_counter() - start,
        depth=len(pv) if depth is None else depth,
        exact=search.horizon == 0 or abs(value) >= WIN,
    )
