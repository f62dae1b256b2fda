"""What minimax and alpha-beta share: scores, game history and the driver.

The searches themselves are the generic ones of :mod:`plies.games` (minimax and
alpha-beta), run on :class:`plies.agents.practical.PracticalChess`: chess with the
practical's evaluation.  Scores are negamax scores (from the side to move) in
centipawns.  A checkmate is worth ``MATE - ply``, so a mate found sooner scores
higher and the agent plays the quickest one; stalemate, the fifty-move rule,
insufficient material and a repeated position are all 0.  The root's move order
is fixed (optionally shuffled by the seed, always identically for both agents),
and a move only replaces the best one if it scores strictly better: that is why
minimax and alpha-beta pick the very same move at equal depth.  This module
keeps what a game needs across moves (who castled, which positions occurred) and
the deepening under a time or node budget.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget, SearchStoppedError, Thought
from plies.agents.practical import MATE, SCALE, PracticalChess
from plies.engine.limits import Meter

if TYPE_CHECKING:
    from plies.agents.practical import PracticalState
    from plies.board import Board, Move

#: Scores lie strictly between -INFINITY and INFINITY (the generic searches' -1 and +1).
INFINITY = SCALE
# Scores this close to MATE are mates (we never search anywhere near 1000 plies).
MATE_BOUND = MATE - 1000
# How often (in nodes) a search looks at the clock.
_CHECK_EVERY = 8


def mate_in(score: int) -> int | None:
    """Moves to mate (+ we mate, - we are mated) if ``score`` is a mate score."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


class NodeMeter(Meter):
    """The agent's own node and time checks, as the meter a generic search ticks."""

    def __init__(self, agent: SearchAgent) -> None:
        """Tick through ``agent`` (its node limit, its clock, its stop request)."""
        super().__init__(None)
        self.agent = agent
        self.limited = True  # every node ticks through the agent

    def tick(self) -> None:
        """Count a node on the agent; it raises ``SearchStoppedError`` when out of budget."""
        self.agent._tick()


class SearchAgent(Agent):
    """A fixed-depth negamax agent; subclasses supply the recursion."""

    default_depth = 2

    def __init__(self, depth: int | None = None, seed: int | None = None) -> None:
        """``depth`` in plies (the default differs per agent); ``seed`` breaks ties at random."""
        super().__init__(seed)
        self.depth = depth if depth is not None else self.default_depth
        if self.depth < 1:
            raise ValueError("depth must be at least 1")
        self.nodes = 0
        self.total_nodes = 0
        self._node_limit: int | None = None
        self._seen: set[int] = set()
        self._history: list[Move] = []
        self._history_keys: list[int] = []
        self._castled = (False, False)

    def reset(self, seed: int | None = None) -> None:
        """Forget the game history and counters."""
        super().reset(seed)
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

    # -- the shared node logic --------------------------------------------------

    def _tick(self) -> None:
        """Count a node; abort the search when out of time or nodes."""
        self.nodes += 1
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise SearchStoppedError
        if self.nodes % _CHECK_EVERY == 0 and self._out_of_time():
            raise SearchStoppedError

    #: Whether the search tries captures first below the root (alpha-beta does).
    captures_below_root = True

    @abstractmethod
    def search_root(
        self, game: PracticalChess, root: PracticalState, depth: int
    ) -> tuple[int, Move, list[Move]]:
        """Search ``root`` to ``depth``; return (score, best move, principal variation)."""

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """Search to the agent's depth (deepening step by step when time or nodes are limited)."""
        self._begin(budget)
        self.nodes = 0
        moves = list(board.legal_moves)
        if not moves:
            from plies.board import Move

            return Move.null()
        self._sync_history(board)
        depth = budget.depth if budget is not None and budget.depth else self.depth
        self._node_limit = budget.nodes if budget is not None else None
        limited = self._deadline is not None or self._node_limit is not None
        game = PracticalChess(frozenset(self._seen), self.seed, self.captures_below_root)
        root = game.root(board.copy(), self._castled)
        best = game.order(root, moves)[0]
        self.last = Thought(depth=0, nodes=0, pv=[best])
        for d in range(1 if limited else depth, depth + 1):
            try:
                score, move, pv = self.search_root(game, root, d)
            except SearchStoppedError:
                break
            best = move
            self.last = Thought(d, score if mate_in(score) is None else None, mate_in(score),
                                self.nodes, pv)
            if self.on_info is not None:
                self.on_info(self.last)
            if mate_in(score) is not None and score > 0:
                break  # a forced mate will not get any better
            if self._past_soft_deadline():
                break
        self.last.nodes = self.nodes
        self.total_nodes += self.nodes
        return best
