"""A plain function ``board -> Move`` seated as a :class:`~plies.agents.player.Player`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from plies.agents.player import Player
from plies.engine.limits import Info, Limit

if TYPE_CHECKING:
    from plies.board import Board, Move


class FunctionPlayer(Player):
    """Asks the function for each move; it is told nothing of limits or games."""

    def __init__(self, func: Callable[[Board], Move], name: str | None = None) -> None:
        """Wrap ``func``; the name defaults to the function's name."""
        self.func = func
        self.name = name or str(getattr(func, "__name__", "function"))

    def play(self, board: Board, limit: Limit | None = None) -> Info:
        """The function's move (None when it answers the null move)."""
        move = self.func(board)
        self.last = Info(move=move if move else None)
        return self.last


def as_function_player(player: Player | Callable[[Board], Move],
                       name: str | None = None) -> Player:
    """``player`` itself if it is a Player, else the function wrapped as one."""
    return player if isinstance(player, Player) else FunctionPlayer(player, name)
