"""A :class:`~plies.agents.player.Player` answering the referees that still call ``move``.

The outside players (UCI and xboard engines, mind programs, HTTP minds, a Python mind's
child) implement :class:`~plies.agents.player.Player`.  Until every referee asks them with
``play(board, limit)``, this mix-in also lets them be asked the :class:`MovePlayer` way:
``move(board, MoveRequest) -> MoveReply`` with a hard timeout, and ``abort()``; and the
agents still taking a :class:`Budget` are given one for a :class:`Limit`.
"""

from __future__ import annotations

import functools
from abc import abstractmethod
from typing import TYPE_CHECKING, Any, cast

from plies.agents.player import MovePlayer, MoveReply, MoveRequest

if TYPE_CHECKING:
    import chess

    from plies.agents.base import Budget
    from plies.board import Board
    from plies.engine.limits import Info, Limit


@functools.lru_cache(maxsize=256)
def budget_limit(budget: Budget, white: bool) -> Limit:
    """The :class:`Limit` a ``budget`` sets for the side ``white`` says is to move."""
    from plies.engine.limits import Limit

    clocks: dict[str, Any] = {}
    if budget.time_left_ms is not None:
        mine = budget.time_left_ms
        theirs = mine if budget.opponent_time_ms is None else budget.opponent_time_ms
        inc = budget.increment_ms or 0
        wtime, btime = (mine, theirs) if white else (theirs, mine)
        clocks = {"wtime": wtime, "btime": btime, "winc": inc, "binc": inc,
                  "movestogo": budget.moves_to_go}  # fmt: skip
    return Limit(depth=budget.depth, nodes=budget.nodes, movetime=budget.movetime_ms, **clocks)


def limit_budget(limit: Limit, white: bool) -> Budget:
    """The :class:`Budget` an agent asked the old way gets for ``limit``."""
    from plies.agents.base import Budget

    mine, theirs = (limit.wtime, limit.btime) if white else (limit.btime, limit.wtime)
    return Budget(depth=limit.depth, nodes=limit.nodes, movetime_ms=limit.movetime,
                  time_left_ms=mine, increment_ms=(limit.winc if white else limit.binc) or 0,
                  opponent_time_ms=theirs, moves_to_go=limit.movestogo)  # fmt: skip


class MovePlayerView(MovePlayer):
    """``move`` and ``abort`` on top of a player's ``play_within`` and ``stop``."""

    @abstractmethod
    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """``play``, failing with PlayerError('hang') once ``timeout_s`` has passed."""

    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """The move for ``board`` (a python-chess board works: the players read its API)."""
        from plies.engine.score import score_int

        limit = budget_limit(request.budget, bool(board.turn))
        info = self.play_within(cast("Board", board), limit, request.timeout_s)
        score = None if info.score is None else score_int(info.score.relative)
        return MoveReply(info.move, score, info.depth or None, info.resigned)

    def abort(self) -> None:
        """Stop at once: the game in progress is being abandoned."""
        self.abandon()

    @abstractmethod
    def abandon(self) -> None:
        """End the current move hard (a process is killed); the player is then unhealthy."""
