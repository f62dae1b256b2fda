"""What minimax and alpha-beta share: scores, game history and the driver.

The searches themselves are the generic ones of :mod:`plies.games` (minimax and
alpha-beta), run on :class:`plies.agents.practical.PracticalChess`: chess with the
practical's evaluation.  Scores are negamax scores (from the side to move) in
centipawns.  A checkmate is worth ``MATE - ply``, so a mate found sooner scores
higher and the player plays the quickest one; stalemate, the fifty-move rule,
insufficient material and a repeated position are all 0.  The root's move order
is fixed (optionally shuffled by the seed, always identically for both players),
and a move only replaces the best one if it scores strictly better: that is why
minimax and alpha-beta pick the very same move at equal depth.  This module
keeps what a game needs across moves (who castled, which positions occurred) and
the deepening under a time or node limit.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING

from plies.agents.ladder import LadderPlayer
from plies.agents.practical import MATE, SCALE, PracticalChess
from plies.engine.limits import Info, Limit, Meter, SearchStoppedError
from plies.engine.score import Cp, Mate, Score, pov

if TYPE_CHECKING:
    from plies.agents.practical import PracticalState
    from plies.board import Board, Move

#: Scores lie strictly between -INFINITY and INFINITY (the generic searches' -1 and +1).
INFINITY = SCALE
# Scores this close to MATE are mates (we never search anywhere near 1000 plies).
MATE_BOUND = MATE - 1000


def mate_in(score: int) -> int | None:
    """Moves to mate (+ we mate, - we are mated) if ``score`` is a mate score."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


def typed_score(score: int) -> Score:
    """A negamax centipawn score as a typed one: ``Mate(n)`` moves, or ``Cp``."""
    mate = mate_in(score)
    return Mate(mate) if mate is not None else Cp(score)


class SearchPlayer(LadderPlayer):
    """A fixed-depth negamax player; subclasses supply the recursion."""

    default_depth = 2

    def __init__(self, depth: int | None = None, seed: int | None = None) -> None:
        """``depth`` in plies (the default differs per player); ``seed`` breaks ties at random."""
        super().__init__(seed, depth=depth)
        self.depth = depth if depth is not None else self.default_depth
        if self.depth < 1:
            raise ValueError("depth must be at least 1")
        self.total_nodes = 0
        self._seen: set[int] = set()
        self._history: list[Move] = []
        self._history_keys: list[int] = []
        self._castled = (False, False)

    def new_game(self, seed: int | None = None) -> None:
        """Forget the game history and counters."""
        super().new_game(seed)
        self._history = []
        self._history_keys = []
        self.total_nodes = 0

    # -- game history: who castled, which positions occurred ---------------------

    def _sync_history(self, board: Board) -> None:
        """Learn the game's past: castling (for the bonus) and earlier positions (repetition)."""
        stack = board.move_stack
        n = len(self._history)
        known = (
            n <= len(stack)
            and bool(self._history_keys)
            and stack[:n] == self._history
        )
        replay = board.copy()
        if known:
            new = [replay.pop() for _ in range(len(stack) - n)]
            if replay.zobrist_key() != self._history_keys[-1]:
                known = False
                new.extend(replay.pop() for _ in range(len(replay.move_stack)))
        else:
            new = [replay.pop() for _ in range(len(stack))]
        if not known:
            self._history = []
            self._history_keys = [replay.zobrist_key()]
            self._castled = (False, False)
        castled = list(self._castled)
        for move in reversed(new):
            if replay.is_castling(move):
                castled[0 if replay.turn else 1] = True  # (White, Black)
            replay.push(move)
            self._history.append(move)
            self._history_keys.append(replay.zobrist_key())
        self._castled = (castled[0], castled[1])
        # The current position is the root; earlier ones count as repeated if reached.
        self._seen = set(self._history_keys[:-1])

    #: Whether the search tries captures first below the root (alpha-beta does).
    captures_below_root = True

    @abstractmethod
    def search_root(
        self, game: PracticalChess, root: PracticalState, depth: int, meter: Meter
    ) -> tuple[int, Move, list[Move]]:
        """Search ``root`` to ``depth`` ticking ``meter``; return (score, best move, line)."""

    def play(self, board: Board, limit: Limit | None = None) -> Info:
        """Search to the player's depth (deepening step by step when time or nodes are
        limited); report each finished depth to ``on_info``."""
        meter = self.start(board, limit)
        moves = list(board.legal_moves)
        if not moves:
            return self.report(Info())
        self._sync_history(board)
        own = self.limit_for(limit)
        depth = own.depth or self.depth
        game = PracticalChess(frozenset(self._seen), self.seed, self.captures_below_root)
        root = game.root(board.copy(), self._castled)
        best = game.order(root, moves)[0]
        white = bool(board.turn)
        info = Info(move=best, pv=[best])
        for d in range(1 if meter.limited else depth, depth + 1):
            try:
                score, move, pv = self.search_root(game, root, d, meter)
            except SearchStoppedError:
                break
            best = move
            info = Info(move=best, score=pov(typed_score(score), white), depth=d,
                        nodes=meter.nodes, time_ms=round(meter.elapsed() * 1000), pv=pv)
            if self.on_info is not None:
                self.on_info(info)
            if score >= MATE_BOUND:
                break  # a forced mate will not get any better
            if meter.past_soft_deadline():
                break
        self.total_nodes += meter.nodes
        self.last = Info(move=best, score=info.score, depth=info.depth, nodes=meter.nodes,
                         time_ms=round(meter.elapsed() * 1000), pv=info.pv)
        return self.last
