"""Minimax: look at every line to a fixed depth and assume best play.

At the horizon a position is scored by the classic evaluation; above it, a
position is worth the best of its children's scores for the side to move there
("my best is your worst").  Checkmate,
stalemate and the draw rules are scored exactly wherever they occur.  Minimax
visits every node of the tree, which is why it cannot look deep: at depth d
it sees roughly 30^d positions.  Default depth: 2 plies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.search_player import SearchPlayer

if TYPE_CHECKING:
    from plies.agents.practical import PracticalChess, PracticalState
    from plies.board import Move
    from plies.engine.limits import Meter


class MinimaxPlayer(SearchPlayer):
    """Plain minimax over the classic evaluation: :func:`plies.games.minimax.minimax`."""

    name = "minimax"
    default_depth = 2
    captures_below_root = False

    def search_root(
        self, game: PracticalChess, root: PracticalState, depth: int, meter: Meter
    ) -> tuple[int, Move, list[Move]]:
        """Score every root move; the first strictly best one wins."""
        from plies.agents.practical import centipawns
        from plies.games.minimax import minimax

        result = minimax(game, root, depth, order=game.order, meter=meter)
        assert result.move is not None and result.value is not None
        return centipawns(result.value), result.move, list(result.pv)
