"""The player protocol: what a referee (the arena, the terminal, the web) asks of one side.

Every kind of player plies can seat at a board implements :class:`Player`: the
ladder agents (through :class:`plies.agents.agent_player.AgentPlayer`), a user's
Python mind run in a child process, a ``mind:`` program, a ``mind+http://``
server, and outside ``uci:`` and ``xboard:`` engines.  The protocol is:

- ``name`` (str): how the player is shown in tables and PGN headers;
- ``healthy`` (bool): False once the player broke (its process died, hung or
  broke the protocol); whoever keeps players replaces an unhealthy one before
  the next game (``close()`` it and create a fresh one from its spec);
- ``new_game(seed)``: get ready for a game (start or reset the process; ``seed``
  feeds the player's random choices); raises :class:`PlayerError` ('start')
  when it cannot;
- ``move(board, request) -> MoveReply``: the move for ``board`` (a
  ``chess.Board`` with the game's history), within ``request.timeout_s``
  seconds; raises :class:`PlayerError` for a fault ('crash', 'hang',
  'illegal');  the referee judges the move's legality itself;
- ``abort()``: stop thinking now (called from another thread; may kill a process);
- ``close()``: release everything (processes, sockets); safe to call twice.

A fault costs the faulty player the game it happened in, never the match:
the referee records the :attr:`PlayerError.kind` and detail, and the player,
no longer healthy, is replaced for the next game.

Players are made from spec strings by :func:`plies.agents.spec.parse_player`
(``PlayerSpec.create()``).  :class:`plies.agents.base.Agent` is the other, smaller
interface: a search that runs in this process on a :class:`plies.board.Board`
(``choose(board, budget)``), which is what the ladder and a user's ``Agent``
subclass implement.  :class:`~plies.agents.agent_player.AgentPlayer` seats an
agent as a player; :class:`~plies.agents.player_agent.PlayerAgent` goes the
other way, for the front ends that drive an agent (the terminal game,
``plies mind``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import chess

from plies.agents.base import Budget

# Scores beyond this are mates; used to put a mate on the centipawn scale.
MATE_CP = 100_000

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


@dataclass(frozen=True)
class MoveRequest:
    """What the referee asks for one move: a thinking budget and a hard timeout."""

    budget: Budget = field(default_factory=Budget)
    timeout_s: float | None = None


@dataclass(frozen=True)
class MoveReply:
    """A player's answer: the move (None = it offered nothing) and what it reported.

    ``resigned`` is True when the player gave the game up (a mind's ``0,0``, an
    xboard engine's ``resign``): the game ends as a loss, not as a fault.
    """

    move: chess.Move | None
    score_cp: int | None = None
    depth: int | None = None
    resigned: bool = False


class Player(ABC):
    """One side in games: started per game, asked for moves, aborted or closed."""

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
