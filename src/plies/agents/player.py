"""The player protocol: what a referee (the arena, the terminal, the web) asks of one side.

Everything plies can seat at a board implements :class:`Player`, modelled on
python-chess's engine protocol: the ladder agents, a user's Python mind, a ``mind:``
program, a ``mind+http://`` server, outside ``uci:`` and ``xboard:`` engines.

- ``name`` (str): how the player is shown in tables and PGN headers;
- ``healthy`` (bool): False once the player broke (its process died, hung or broke the
  protocol); whoever keeps players replaces an unhealthy one before the next game
  (``close()`` it and create a fresh one from its spec);
- ``last`` (:class:`~plies.engine.limits.Info` or None): what it reported on its last move;
- ``on_info``: called with each :class:`~plies.engine.limits.Info` the player reports
  while it thinks (a search's iterations, an engine's ``info`` lines), if set;
- ``new_game(seed)``: get ready for a game (start or reset a process; ``seed`` feeds the
  player's random choices); raises :class:`PlayerError` ('start') when it cannot;
- ``play(board, limit) -> Info``: the move for ``board`` (a :class:`plies.board.Board`
  with the game's history) within ``limit``, in ``Info.move``; ``move`` None with
  ``resigned`` True gives the game up.  A fault raises :class:`PlayerError` ('crash',
  'hang', 'illegal'); the referee judges the move's legality itself;
- ``stop()``: from another thread, answer as soon as possible.  The referee's hard
  per-move timeout calls it: ``play`` then returns the best move found so far, or, if the
  player cannot answer (a hung process), raises ``PlayerError('hang')`` once it has
  killed it;
- ``close()``: release everything (processes, sockets); safe to call twice.

A fault costs the faulty player the game it happened in, never the match: the referee
records the :attr:`PlayerError.kind` and detail, and the player, no longer healthy, is
replaced for the next game.  Players are made from spec strings by
:func:`plies.agents.spec.parse_player` (``PlayerSpec.create()``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Info, Limit

FAULT_KINDS = ("start", "crash", "hang", "illegal")
"""The kinds of :class:`PlayerError`: could not start, died or raised, answered nothing in
time, answered something unreadable or illegal."""


class PlayerError(Exception):
    """A player could not produce a move: it crashed, hung or broke the protocol."""

    def __init__(self, kind: str, detail: str) -> None:
        """``kind`` is one of :data:`FAULT_KINDS`; ``detail`` says what happened."""
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Player(ABC):
    """One side in games: told of a new game, asked for moves, stopped and closed."""

    name: str = "player"
    healthy: bool = True
    last: Info | None = None
    on_info: Callable[[Info], None] | None = None

    def new_game(self, seed: int | None = None) -> None:
        """Get ready for a new game (``seed`` feeds the player's random choices)."""
        self.last = None

    @abstractmethod
    def play(self, board: Board, limit: Limit) -> Info:
        """The move for ``board`` within ``limit`` (``Info.move``), or raise PlayerError."""

    def stop(self) -> None:
        """Answer as soon as possible (called from another thread)."""
        return None

    def close(self) -> None:
        """Release the player's resources."""
        return None

    def __repr__(self) -> str:
        """The class and the player's name, for logs."""
        return f"{type(self).__name__}(name={self.name!r})"
