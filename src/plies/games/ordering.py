"""Move-ordering hooks: try promising actions first so that alpha-beta cuts off sooner."""

from __future__ import annotations

from collections.abc import Sequence

from plies.games.protocol import A, Game, Ordering, S


def by_evaluation(game: Game[S, A]) -> Ordering[S, A]:
    """Return a hook ordering actions by the heuristic value of where they lead, best first.

    Works for any game with an ``evaluate``; a finished game counts as its utility, so
    winning moves come first. It costs one extra ``result`` per action, which pays
    where cutoffs save whole subtrees.
    """

    def order(state: S, actions: Sequence[A]) -> Sequence[A]:
        """Sort ``actions`` of ``state`` by how good they look for the player to move."""
        me = game.to_move(state)

        def score(action: A) -> float:
            """Return the mover's guess at the value after ``action``."""
            child = game.result(state, action)
            if game.is_terminal(child):
                return game.utility(child, me)
            return game.evaluate(child, me)

        return sorted(actions, key=score, reverse=True)

    return order
