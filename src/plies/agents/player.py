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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from plies.games.budget import Budget

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


# The protocol :class:`Player` replaces: the players not yet moved onto it implement this.
MATE_CP = 100_000


@dataclass(frozen=True)
class MoveRequest:
    """What the referee asks for one move: a thinking budget and a hard timeout."""

    budget: Budget = field(default_factory=Budget)
    timeout_s: float | None = None


@dataclass(frozen=True)
class MoveReply:
    """A player's answer: the move (None = it offered nothing) and what it reported."""

    move: chess.Move | None
    score_cp: int | None = None
    depth: int | None = None
    resigned: bool = False


class MovePlayer(ABC):
    """One side in games on a python-chess board: the protocol :class:`Player` replaces."""

    name: str = "player"
    healthy: bool = True

    @abstractmethod
    def new_game(self, seed: int | None) -> None:
        """Prepare for a new game (the seed feeds the player's random choices)."""

    @abstractmethod
    def move(self, board: chess.Board, request: MoveRequest) -> MoveReply:
        """Return a move for ``board`` or raise :class:`PlayerError`."""

    def abort(self) -> None:
        """Stop thinking as soon as possible (called from another thread)."""
        return None

    def close(self) -> None:
        """Release the player's resources."""
        return None


# Until every player implements Player, the referees seat a MovePlayer through this bridge.
_GRACE_S = 5.0
_UNTIMED_TIMEOUT_S = 60.0


class MovePlayerBridge(Player):
    """A :class:`MovePlayer` seen as a :class:`Player` (python-chess board, Budget, MoveReply)."""

    def __init__(self, inner: MovePlayer) -> None:
        """Wrap ``inner``; its name and health are the bridge's."""
        self.inner = inner
        self.name = inner.name

    def new_game(self, seed: int | None = None) -> None:
        """Tell the wrapped player."""
        self.last = None
        try:
            self.inner.new_game(seed)
        finally:
            self.healthy = self.inner.healthy

    def play(self, board: Board, limit: Limit) -> Info:
        """Ask the wrapped player, translating the limit, the board and the reply."""
        from chess.engine import Cp, Mate

        from plies.engine.limits import Info
        from plies.engine.score import MATE_SCORE, pov

        white = bool(board.turn)
        mine, theirs = (limit.wtime, limit.btime) if white else (limit.btime, limit.wtime)
        budget = Budget(
            depth=limit.depth, nodes=limit.nodes, movetime_ms=limit.movetime,
            time_left_ms=mine, increment_ms=(limit.winc if white else limit.binc) or 0,
            opponent_time_ms=theirs, moves_to_go=limit.movestogo,
        )  # fmt: skip
        allot = limit.allotment_seconds(white)
        timeout = allot + _GRACE_S if allot is not None else _UNTIMED_TIMEOUT_S
        position = board.to_chess()
        try:
            reply = self.inner.move(position, MoveRequest(budget, timeout))
        finally:
            self.healthy = self.inner.healthy
        score = None
        if reply.score_cp is not None:
            value = reply.score_cp
            if abs(value) >= MATE_SCORE - 1000:
                moves = MATE_SCORE - abs(value)
                score = pov(Mate(moves if value > 0 else -moves), white)
            else:
                score = pov(Cp(value), white)
        info = Info(move=reply.move, score=score, depth=reply.depth or 0, resigned=reply.resigned)
        self.last = info
        return info

    def stop(self) -> None:
        """Abort the wrapped player's thinking."""
        self.inner.abort()

    def close(self) -> None:
        """Close the wrapped player."""
        self.inner.close()


def as_player(player: Player | MovePlayer) -> Player:
    """``player`` itself if it is a :class:`Player`, else bridged."""
    return player if isinstance(player, Player) else MovePlayerBridge(player)
