"""Alpha-beta: minimax that skips lines which cannot change the decision.

The search carries a window (alpha, beta): alpha is what the side to move is
already sure of, beta what the opponent already holds elsewhere.  As soon as
one reply refutes a move (scores >= beta), the remaining replies are not
looked at, because the opponent would never allow this position anyway.  The
answer is exactly minimax's, but with good move ordering (captures of big
pieces first) it visits a small fraction of the nodes, roughly the square
root of minimax's count, so it can look twice as deep.  Default depth: 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.search_player import SearchPlayer

if TYPE_CHECKING:
    from plies.agents.practical import PracticalChess, PracticalState
    from plies.board import Move
    from plies.engine.limits import Meter


class AlphaBetaPlayer(SearchPlayer):
    """Alpha-beta, captures first: :class:`plies.games.alphabeta.AlphaBetaSearch`."""

    name = "alphabeta"
    default_depth = 4

    def search_root(
        self, game: PracticalChess, root: PracticalState, depth: int, meter: Meter
    ) -> tuple[int, Move, list[Move]]:
        """Search the root moves in the shared order; the first strictly best one wins."""
        from plies.agents.practical import centipawns
        from plies.games.alphabeta import AlphaBetaSearch

        search = AlphaBetaSearch(game, order=game.order, meter=meter)
        value, pv = search.root(root, depth)
        return centipawns(value), pv[0], list(pv)
