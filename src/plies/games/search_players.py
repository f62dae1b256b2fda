"""Ready-made players: callables ``player(game, state) -> action`` built on the searches."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from plies.engine.limits import Info, Limit
from plies.games.alphabeta import alphabeta
from plies.games.deepening import iterative_deepening
from plies.games.mcts import mcts
from plies.games.minimax import minimax
from plies.games.negamax import negamax
from plies.games.protocol import A, Game, Ordering, S
from plies.games.solver import Solver
from plies.games.ttable import TranspositionTable


class RandomPlayer:
    """Plays a uniformly random legal action."""

    def __init__(self, rng: random.Random | None = None) -> None:
        """Use ``rng`` (seed it for repeatable games) or a fresh generator."""
        self.rng = rng if rng is not None else random.Random()

    def __call__(self, game: Game[S, A], state: S) -> A:
        """Return a random action of ``state``."""
        return self.rng.choice(game.actions(state))


@dataclass(eq=False)
class SearchPlayer:
    """A player that runs a search each turn and keeps its last result for inspection."""

    last: Info | None = field(default=None, init=False, repr=False)
    """The report of the latest search (its action as ``move``, value, nodes, line...)."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Search ``state``; subclasses choose how."""
        raise NotImplementedError

    def __call__(self, game: Game[S, A], state: S) -> A:
        """Search ``state`` and return the chosen action."""
        result = self.search(game, state)
        self.last = result
        if result.move is None:
            raise ValueError("no action: the game is over")
        action: A = result.move
        return action


@dataclass(eq=False)
class MinimaxPlayer(SearchPlayer):
    """Plain minimax to the end or to ``depth`` plies."""

    depth: int | None = None
    """Plies searched (None: to the end)."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Run :func:`~plies.games.minimax.minimax`."""
        return minimax(game, state, self.depth)


class NegamaxPlayer(MinimaxPlayer):
    """Negamax to the end or to ``depth`` plies (same moves as minimax)."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Run :func:`~plies.games.negamax.negamax`."""
        return negamax(game, state, self.depth)


@dataclass(eq=False)
class AlphaBetaPlayer(SearchPlayer):
    """Alpha-beta to a fixed depth, with optional move ordering and a fresh table per move."""

    depth: int | None = None
    """Plies searched (None: to the end)."""
    order: Ordering[Any, Any] | None = None
    """How moves are ordered (None: the game's order)."""
    tt: bool = True
    """Whether each move's search has a transposition table."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Run :func:`~plies.games.alphabeta.alphabeta`."""
        table: TranspositionTable[A] | None = TranspositionTable() if self.tt else None
        return alphabeta(game, state, self.depth, self.order, table)


@dataclass(eq=False)
class DeepeningPlayer(SearchPlayer):
    """Iterative deepening alpha-beta under a limit per move."""

    limit: Limit | None = None
    """What each move may spend: time, nodes, the deepest iteration (None: to the end)."""
    order: Ordering[Any, Any] | None = None
    """How moves are ordered (None: the game's order)."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Run :func:`~plies.games.deepening.iterative_deepening`."""
        return iterative_deepening(game, state, self.limit, self.order)


@dataclass(eq=False)
class MCTSPlayer(SearchPlayer):
    """Monte Carlo tree search (UCT) with a playout count and/or a limit per move."""

    iterations: int | None = 1000
    """Playouts per move (None: as many as ``limit`` allows)."""
    limit: Limit | None = None
    """What each move may spend, in time or nodes (None: ``iterations`` alone)."""
    rng: random.Random = field(default_factory=random.Random)
    """Where the playouts draw from (seed it for repeatable games)."""

    def search(self, game: Game[S, A], state: S) -> Info:
        """Run :func:`~plies.games.mcts.mcts`."""
        return mcts(game, state, self.iterations, self.limit, rng=self.rng)


class PerfectPlayer:
    """Plays perfectly by solving the game exhaustively (small games only).

    Among optimal actions it wins as fast and loses as slowly as possible; ties go to the
    first in ``game.actions`` order, or to a random one if ``rng`` is given.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        """Create the player; the solution table is built on first use and kept."""
        self.rng = rng
        self._solver: Solver[Any, Any] | None = None

    def __call__(self, game: Game[S, A], state: S) -> A:
        """Return an optimal action of ``state``."""
        if self._solver is None or self._solver.game is not game:
            self._solver = Solver(game)
        best: list[A] = self._solver.best_actions(state)
        if not best:
            raise ValueError("no action: the game is over")
        return best[0] if self.rng is None else self.rng.choice(best)
