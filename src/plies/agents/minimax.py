"""Minimax (in its negamax form): look at every line to a fixed depth and assume best play.

At the horizon a position is scored by the classic evaluation; above it, a
position is worth the best of its children's scores, negated because the
children are scored for the other side ("my best is your worst").  Checkmate,
stalemate and the draw rules are scored exactly wherever they occur.  Minimax
visits every node of the tree, which is why it cannot look deep: at depth d
it sees roughly 30^d positions.  Default depth: 2 plies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.search import INFINITY, SearchAgent

if TYPE_CHECKING:
    from plies.agents.evaluation import EvalState
    from plies.board import Board, Move


class MinimaxAgent(SearchAgent):
    """Plain negamax over the classic evaluation."""

    name = "minimax"
    default_depth = 2

    def search_root(
        self, board: Board, depth: int, state: EvalState
    ) -> tuple[int, Move, list[Move]]:
        """Score every root move; the first strictly best one wins."""
        self._tick()
        best_score, best_line = -INFINITY, []
        moves = self.root_moves(board)
        for move in moves:
            score, line = self._child(board, move, depth, 0, state)
            if score > best_score:
                best_score, best_line = score, [move, *line]
        return best_score, best_line[0], best_line

    def _child(
        self, board: Board, move: Move, depth: int, ply: int, state: EvalState
    ) -> tuple[int, list[Move]]:
        """Play ``move``, score the resulting position for us, take it back."""
        return self._after(
            board, move, state, lambda after: self._negamax(board, depth - 1, ply + 1, after)
        )

    def _negamax(
        self, board: Board, depth: int, ply: int, state: EvalState
    ) -> tuple[int, list[Move]]:
        """The value of ``board`` for the side to move, and the line that achieves it."""
        self._tick()
        moves = board.legal_moves
        decided = self._terminal(board, moves, ply)
        if decided is not None:
            return decided, []
        if depth == 0:
            return state.score(board.turn), []
        best, best_line = -INFINITY, []
        for move in moves:
            score, line = self._child(board, move, depth, ply, state)
            if score > best:
                best, best_line = score, [move, *line]
        return best, best_line
