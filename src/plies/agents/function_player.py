"""A function ``board -> move`` seated as a :class:`~plies.agents.player.Player`, and how a
function's answer is read: a :class:`plies.board.Move`, a UCI or a SAN string."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from plies.agents.player import Player, PlayerError
from plies.engine.limits import Info, Limit

if TYPE_CHECKING:
    from plies.board import Board, Move


class BadAnswerError(PlayerError):
    """The function returned something that is not a legal move here."""

    def __init__(self, detail: str) -> None:
        """A fault of kind 'illegal' saying what was returned."""
        super().__init__("illegal", detail)


def answer_move(board: Board, answer: object) -> Move:
    """The legal move the function's ``answer`` names (a Move, a UCI or a SAN string);
    BadAnswerError saying why when it names none."""
    from plies.board import Move

    if isinstance(answer, str):
        text = answer.strip()
        for parse in (board.parse_uci, board.parse_san):
            try:
                move = parse(text)
            except ValueError:
                continue
            if not move:  # "0000" or "--": python-chess reads a null move, no move of a game
                break
            return move
        raise BadAnswerError(f"returned {text[:40]!r}, not a legal move in UCI or SAN")
    uci = getattr(answer, "uci", None)
    if not callable(uci):
        raise BadAnswerError(f"returned {type(answer).__name__} {answer!r:.40}, not a move")
    text = str(uci())
    try:
        move = Move.from_uci(text)
    except ValueError:
        raise BadAnswerError(f"returned {text[:40]!r}, not a move") from None
    if not move or not board.is_legal(move):
        raise BadAnswerError(f"returned {text}, not a legal move")
    return move


class FunctionPlayer(Player):
    """Asks the function for each move, on a copy of the board; it is told nothing of
    limits.  ``make`` gives a fresh function every game (a class's ``choose`` on a new
    instance)."""

    def __init__(self, func: Callable[[Board], object], name: str | None = None,
                 make: Callable[[], Callable[[Board], object]] | None = None) -> None:
        """Wrap ``func``; the name defaults to the function's name."""
        self.func = func
        self.name = name or str(getattr(func, "__name__", "function"))
        self._make = make

    def new_game(self, seed: int | None = None) -> None:
        """A fresh function for a class's mind."""
        self.last = None
        if self._make is not None:
            self.func = self._make()

    def play(self, board: Board, limit: Limit | None = None) -> Info:
        """The function's move; BadAnswerError (a PlayerError) if it names no legal move."""
        self.last = Info(move=answer_move(board, self.func(board.copy())))
        return self.last


def as_function_player(player: Player | Callable[[Board], object],
                       name: str | None = None) -> Player:
    """``player`` itself if it is a Player, else the function wrapped as one."""
    return player if isinstance(player, Player) else FunctionPlayer(player, name)
