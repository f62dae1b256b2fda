"""A ladder agent as a :class:`~plies.agents.player.Player`, thinking in this process.

The referee plays on a python-chess board; the agent searches a mirror
:class:`plies.board.Board` kept in step with it move by move.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

import chess

from plies.agents.base import Agent, Budget
from plies.agents.player import MATE_CP, MovePlayer, MoveReply, MoveRequest, PlayerError

if TYPE_CHECKING:
    from plies.board import Board


class AgentPlayer(MovePlayer):
    """A ladder agent playing on a mirror :class:`plies.board.Board` of the referee's board."""

    def __init__(
        self, name: str, agent: str | Agent, options: dict[str, str] | None = None
    ) -> None:
        """Create the agent now (by ladder name, or take this one), so a bad option fails
        before the first game."""
        from plies.agents.registry import make_agent

        options = options or {}
        self.name = name
        self.agent: Agent = make_agent(agent, options) if isinstance(agent, str) else agent
        # Limits given to this player explicitly win over the match-wide ones.
        self._own_limits = {k for k in options if k in ("depth", "nodes", "movetime", "level")}
        self.agent.warm_up()
        self._mirror: Board | None = None
        self._moves: list[chess.Move] = []
        self._root_fen = ""

    def new_game(self, seed: int | None) -> None:
        """Reset the agent (reseeded) and drop the mirror board."""
        self.agent.reset(seed)
        self._mirror = None
        self._moves = []

    def _sync(self, board: chess.Board) -> Board:
        """Bring the mirror up to the referee's position, rebuilding it if the games differ."""
        from plies.board import Board, Move

        stack = board.move_stack
        n = len(self._moves)
        if (
            self._mirror is None
            or len(stack) < n
            or stack[:n] != self._moves
            or board.root().fen() != self._root_fen
            or self._mirror.chess960 != board.chess960
        ):
            self._root_fen = board.root().fen()
            self._mirror = Board(self._root_fen, chess960=board.chess960)
            self._moves = []
            n = 0
        for move in stack[n:]:
            self._mirror.push(Move.from_uci(move.uci()))
            self._moves.append(move)
        return self._mirror

    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Ask the agent for a move; any exception it raises is reported as a crash."""
        mirror = self._sync(board)
        timer: threading.Timer | None = None
        if request.timeout_s is not None:
            timer = threading.Timer(request.timeout_s, self.agent.stop)
            timer.daemon = True
            timer.start()
        try:
            choice = self.agent.choose(mirror.copy(), self._budget(request.budget))
        except Exception as exc:  # an agent bug costs its game, not the match
            raise PlayerError("crash", f"{type(exc).__name__}: {exc}") from exc
        finally:
            if timer is not None:
                timer.cancel()
        if not choice:
            return MoveReply(None)
        thought = self.agent.last
        score = None
        depth = None
        if thought is not None:
            depth = thought.depth or None
            if thought.mate_in is not None:
                sign = 1 if thought.mate_in > 0 else -1
                score = sign * (MATE_CP - abs(thought.mate_in))
            else:
                score = thought.score_cp
        try:
            return MoveReply(chess.Move.from_uci(choice.uci()), score, depth)
        except ValueError:
            return MoveReply(None)

    def _budget(self, budget: Budget) -> Budget:
        """The match budget without the limits this player has set for itself."""
        if "depth" in self._own_limits or "level" in self._own_limits:
            budget = replace(budget, depth=None)
        if "nodes" in self._own_limits:
            budget = replace(budget, nodes=None)
        if "movetime" in self._own_limits:
            budget = replace(budget, movetime_ms=None)
        return budget

    def abort(self) -> None:
        """Stop the agent's search."""
        self.agent.stop()

    def close(self) -> None:
        """Let the agent release its resources."""
        self.agent.close()
