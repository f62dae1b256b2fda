"""What the ladder's players share: a seeded RNG, their own limits and one meter per move.

Every rung (``random``, ``capture``, ``minimax``, ``alphabeta``, ``engine``) is a
:class:`~plies.agents.player.Player` thinking in this process.  A limit the player was
made with (``depth=``, ``nodes=``, ``movetime=``, ``level=`` in its spec) wins over the
one the game gives it; the rest of the game's limit (the clocks, say) still applies.
``new_game(seed)`` reseeds the player's RNG, so a seeded game replays move for move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from plies.agents.player import Player
from plies.engine.limits import DEFAULT_MOVETIME_MS, Info, Limit, Meter

if TYPE_CHECKING:
    from plies.board import Board

#: The limits a player's own options may fix, as :class:`Limit` names them.
OWN_LIMITS = ("depth", "nodes", "movetime")


class LadderPlayer(Player):
    """A player of the ladder: a name, a seeded RNG, its own limits and a stoppable meter."""

    name = "agent"

    def __init__(self, seed: int | None = None, depth: int | None = None,
                 nodes: int | None = None, movetime: int | None = None) -> None:
        """``seed`` makes the choices reproducible; the limits given here win over the game's."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.last: Info | None = None
        self.own = Limit(depth=depth, nodes=nodes, movetime=movetime)
        #: Which of :data:`OWN_LIMITS` win over the game's limit (those given here).
        self.fixed: frozenset[str] = frozenset(k for k in OWN_LIMITS if getattr(self.own, k))
        self.meter: Meter | None = None

    def fix(self, names: Iterable[str]) -> None:
        """Let only the limits ``names`` win over the game's (the ones a spec gave)."""
        self.fixed = frozenset(n for n in names if n in OWN_LIMITS)

    def new_game(self, seed: int | None = None) -> None:
        """Forget the previous game; a new ``seed`` reseeds the player's RNG."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self.last = None

    def limit_for(self, limit: Limit | None) -> Limit:
        """The limit for this move: the game's, with the player's own fixed limits over it."""
        limit = limit or Limit()
        mine = {k: getattr(self.own, k) for k in self.fixed}
        return replace(limit, **mine) if mine else limit

    def start(self, board: Board, limit: Limit | None, meter: type[Meter] = Meter) -> Meter:
        """A fresh meter for one move's search under ``limit`` (``stop()`` reaches it)."""
        self.meter = meter(self.limit_for(limit), bool(board.turn))
        return self.meter

    def report(self, info: Info) -> Info:
        """Keep ``info`` as the last report and tell ``on_info``."""
        self.last = info
        if self.on_info is not None:
            self.on_info(info)
        return info

    def warm_up(self) -> None:
        """Pay one-off costs (loading the board's compiled code) before the first move."""
        from plies.board import Board

        self.play(Board(), Limit(depth=1))
        self.last = None

    def stop(self) -> None:
        """Ask a running ``play`` (maybe in another thread) to answer as soon as it can."""
        meter = self.meter
        if meter is not None:
            meter.stop()

    def __repr__(self) -> str:
        """Name and seed, for logs."""
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed!r})"


def warm_up(player: Player) -> None:
    """Pay ``player``'s one-off costs now (compiling the engine), if it has any."""
    warm = getattr(player, "warm_up", None)
    if callable(warm):
        warm()


def bounded(player: Player, limit: Limit) -> Limit:
    """``limit``, or a second a move when it bounds nothing and ``player`` is not a ladder
    player (those have their own default: a depth, the engine's second), nor one behind an
    opening book."""
    seated = getattr(player, "inner", player)  # a book's player
    if isinstance(seated, LadderPlayer) or not limit.is_unbounded() or limit.infinite:
        return limit
    return replace(limit, movetime=DEFAULT_MOVETIME_MS)
