"""Any :class:`~plies.agents.player.Player` as an :class:`~plies.agents.base.Agent`.

The terminal game and ``plies mind`` ask an agent ``choose(board, budget)``; this
adapter lets them seat a user's mind, a ``mind:`` program or an outside engine.
A fault (or a resignation) is not raised: ``choose`` returns the null move and
``fault`` says why, so the caller decides (``plies mind`` answers ``0,0``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget, Thought
from plies.agents.player import MATE_CP, MoveRequest, PlayerError

if TYPE_CHECKING:
    from plies.agents.player import MovePlayer
    from plies.board import Board, Move

#: Thinking time per move when the caller gives no budget (an engine told nothing
#: would think forever).
DEFAULT_MOVETIME_MS = 1000
#: How long a move may take beyond its budget before the player is declared hung.
GRACE_S = 5.0
#: The timeout when the budget sets no time (depth or nodes only).
UNTIMED_TIMEOUT_S = 60.0


class PlayerAgent(Agent):
    """Wraps a player: ``choose`` asks it for a move on a python-chess copy of the board."""

    def __init__(self, player: MovePlayer, seed: int | None = None) -> None:
        """Wrap ``player`` (already started); its name is the agent's."""
        super().__init__(seed)
        self.player = player
        self.name = player.name
        self.fault: str | None = None
        self._fresh = True

    def reset(self, seed: int | None = None) -> None:
        """A new game: the player is told so before its next move."""
        super().reset(seed)
        self._fresh = True

    def warm_up(self) -> None:
        """Nothing to do: the player's process is started when the player is made."""
        return None

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """The player's move, or the null move (``fault`` set) if it failed or resigned."""
        from plies.board import Move

        budget = budget or Budget(movetime_ms=DEFAULT_MOVETIME_MS)
        allot = budget.allotment_seconds()
        timeout = allot + GRACE_S if allot is not None else UNTIMED_TIMEOUT_S
        self.fault = None
        self.last = None
        try:
            if self._fresh:
                self.player.new_game(self.seed)
                self._fresh = False
            reply = self.player.move(board.to_chess(), MoveRequest(budget, timeout))
        except PlayerError as exc:
            self._fresh = True  # a broken player is restarted by its next new_game
            self.fault = f"{exc.kind}: {exc.detail}"
            return Move.null()
        if reply.resigned or reply.move is None:
            self.fault = "resigned"
            return Move.null()
        if reply.score_cp is not None or reply.depth is not None:
            score, mate = reply.score_cp, None
            if score is not None and abs(score) >= MATE_CP - 1000:
                plies = MATE_CP - abs(score)
                mate = (plies + 1) // 2 * (1 if score > 0 else -1)
                score = None
            self.last = Thought(depth=reply.depth or 0, score_cp=score, mate_in=mate)
        return Move.from_uci(reply.move.uci())

    def stop(self) -> None:
        """Abort the player's thinking."""
        super().stop()
        self.player.abort()

    def close(self) -> None:
        """Close the player."""
        self.player.close()
