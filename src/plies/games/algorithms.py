"""The search algorithms by name: one registry for the command line, the web page and the
drawn search trees.

Every factory takes the options its entry lists (``depth``, ``seconds``, ``playouts``)
and, passed as they are, an ordering hook ``order`` and a random generator ``rng``.
Installed packages add algorithms through the ``plies.searches`` entry-point group.
Entries with the trait ``tree`` can be recorded and drawn by
:func:`~plies.games.searchtree.search_tree`.
"""

from __future__ import annotations

import random
from typing import Any

from plies.engine.limits import Limit
from plies.games.protocol import Ordering
from plies.games.search_players import (
    DeepeningPlayer,
    MCTSPlayer,
    MinimaxPlayer,
    NegamaxPlayer,
    SearchPlayer,
)
from plies.registry import Option, Registry

#: The game searches, by name.
SEARCHES: Registry[SearchPlayer] = Registry("algorithm", "plies.searches")

DEPTH = Option("depth", int, minimum=1, help="plies searched (none: to the end)")
SECONDS = Option("seconds", float, help="time per move in seconds")
PLAYOUTS = Option("playouts", int, minimum=1, help="playouts per move")


def _movetime(seconds: float | None) -> int | None:
    """``seconds`` as a move time in milliseconds; ValueError unless positive."""
    if seconds is None:
        return None
    if seconds <= 0:
        raise ValueError(f"time must be positive, not {seconds}")
    return round(seconds * 1000)


@SEARCHES.register("minimax", "plain minimax, every line searched", DEPTH, traits=("tree",))
def minimax_player(depth: int | None = None, order: Ordering[Any, Any] | None = None,
                   rng: random.Random | None = None) -> SearchPlayer:
    """Minimax to ``depth`` plies (None: to the end)."""
    return MinimaxPlayer(depth)


@SEARCHES.register("negamax", "minimax written once, for the player to move", DEPTH)
def negamax_player(depth: int | None = None, order: Ordering[Any, Any] | None = None,
                   rng: random.Random | None = None) -> SearchPlayer:
    """Negamax to ``depth`` plies (None: to the end)."""
    return NegamaxPlayer(depth)


@SEARCHES.register("alphabeta", "iterative deepening alpha-beta with a transposition table",
                   DEPTH, SECONDS, traits=("tree",))
def alphabeta_player(depth: int | None = None, seconds: float | None = None,
                     order: Ordering[Any, Any] | None = None,
                     rng: random.Random | None = None) -> SearchPlayer:
    """Alpha-beta deepening within ``seconds`` per move, up to ``depth`` plies."""
    return DeepeningPlayer(Limit(depth=depth, movetime=_movetime(seconds)), order)


@SEARCHES.register("mcts", "Monte Carlo tree search (UCT) with random playouts",
                   SECONDS, PLAYOUTS)
def mcts_player(seconds: float | None = None, playouts: int | None = None,
                order: Ordering[Any, Any] | None = None,
                rng: random.Random | None = None) -> SearchPlayer:
    """UCT for ``playouts`` per move and/or ``seconds`` (1000 playouts if neither)."""
    if playouts is None and seconds is None:
        playouts = 1000
    movetime = _movetime(seconds)
    limit = None if movetime is None else Limit(movetime=movetime)
    return MCTSPlayer(playouts, limit, rng if rng is not None else random.Random())


def make_player(
    algorithm: str,
    depth: int | None = None,
    seconds: float | None = None,
    playouts: int | None = None,
    order: Ordering[Any, Any] | None = None,
    rng: random.Random | None = None,
) -> SearchPlayer:
    """Build a search player by name, as the command line offers them.

    ``minimax`` and ``negamax`` search to ``depth`` (None: to the end); ``alphabeta``
    deepens iteratively within ``seconds`` per move up to ``depth``; ``mcts`` runs
    ``playouts`` per move (1000 if neither they nor ``seconds`` are given). A limit the
    algorithm does not use is ignored; limits that make no sense raise ``ValueError``
    with a one-line reason.
    """
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"time must be positive, not {seconds}")
    if playouts is not None and playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    entry = SEARCHES.get(algorithm)
    given = {k: v for k, v in (("depth", depth), ("seconds", seconds), ("playouts", playouts))
             if v is not None}
    if entry.open:
        return entry.make(given)
    taken = entry.option_names()
    return entry.make({k: v for k, v in given.items() if k in taken}, order=order, rng=rng)
