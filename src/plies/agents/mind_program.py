"""``mind:COMMAND``: an outside program in any language that answers FENs with actions.

The program is started once and kept for the games that follow: for every
move it reads one FEN line on its standard input and writes one action line,
``from,to`` with squares numbered 0-63 (see :mod:`plies.agents.mind`), on its
standard output.  ``0,0`` resigns.  A program that dies, answers garbage or an
illegal move, or says nothing within the move's time (it cannot be told to stop:
``stop()`` kills it) loses that game, and the next game starts it afresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.mind import action_move
from plies.agents.player import PlayerError
from plies.agents.process_player import ProcessPlayer
from plies.engine.limits import Info

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Limit
    from plies.sandbox import Jail


def resolve_action(board: Board, text: str) -> Info:
    """The report for a mind's answer ``text``: its move, or a resignation for ``0,0``;
    PlayerError('illegal') if it plays nothing legal."""
    try:
        move = action_move(board, text)
    except ValueError as exc:
        shown = text.strip()[:60]
        raise PlayerError("illegal", f"answered {shown!r}: {exc}") from None
    if move is None:
        return Info(resigned=True)
    return Info(move=move)


class MindProgramPlayer(ProcessPlayer):
    """A program speaking the mind protocol on its standard input and output."""

    def __init__(self, name: str, command: list[str], jail: Jail | None = None) -> None:
        """Start the program now (in ``jail`` if given), so a command that cannot run fails
        before any game."""
        super().__init__(name, command, jail)
        self._start()

    def _start(self) -> None:
        """Launch the program in its own process group."""
        self._launch(self.command)
        self.healthy = True

    def new_game(self, seed: int | None = None) -> None:
        """Start a fresh program if the last one broke (the protocol has no new-game line)."""
        self.last = None
        self._restart_if_broken()

    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """Send the FEN, read one action within ``timeout_s`` and turn it into a move."""
        with self._answering(timeout_s):
            process = self._running()
            process.send(board.fen())
            info = resolve_action(board, process.read_line(timeout_s))
        self.last = info
        return info
