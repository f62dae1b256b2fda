"""The ``Game`` protocol: what a two-player, perfect-information game offers to search.

Players are numbered 0 (moves first) and 1. Values follow one convention everywhere:
``utility`` is +1 for a win, -1 for a loss and 0 for a draw (anything in [-1, 1] is
allowed), and ``evaluate`` guesses at a non-terminal state strictly inside (-1, 1), so
that a searched value of +1 or -1 is always a proven result, never a heuristic guess.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Protocol, TypeAlias, TypeVar

S = TypeVar("S")
A = TypeVar("A")

#: The largest value a search can return: a proven win for the player it is scored for.
WIN = 1.0


class Game(Protocol[S, A]):
    """A two-player, zero-sum, perfect-information game over states ``S`` and actions ``A``."""

    def initial_state(self) -> S:
        """Return the state the game starts from."""
        ...

    def to_move(self, state: S) -> int:
        """Return the player to move in ``state``: 0 or 1."""
        ...

    def actions(self, state: S) -> Sequence[A]:
        """Return the legal actions in ``state``: none when it is terminal, else at least one."""
        ...

    def result(self, state: S, action: A) -> S:
        """Return the state after ``action``; ``state`` itself is left unchanged."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Return whether the game is over in ``state``."""
        ...

    def utility(self, state: S, player: int) -> float:
        """Return the final value of terminal ``state`` for ``player``, in [-1, 1]."""
        ...

    def evaluate(self, state: S, player: int) -> float:
        """Return a heuristic value of non-terminal ``state`` for ``player``, inside (-1, 1)."""
        ...

    def key(self, state: S) -> Hashable:
        """Return a hashable key equal for states that play identically (transpositions)."""
        ...

    def render(self, state: S) -> str:
        """Return a multi-line text picture of ``state``."""
        ...


class BaseGame(Generic[S, A]):
    """Defaults for the optional parts of :class:`Game`: no heuristic, state-as-key, text."""

    def evaluate(self, state: S, player: int) -> float:
        """Know nothing: every non-terminal state looks like a draw."""
        return 0.0

    def key(self, state: S) -> Hashable:
        """Use the state itself, which must then be hashable."""
        return state  # type: ignore[return-value]

    def action_text(self, action: A) -> str:
        """Return how ``action`` is written for people (and read back by ``parse_action``)."""
        return str(action)

    def parse_action(self, state: S, text: str) -> A:
        """Read an action typed by a person; raise ``ValueError`` with a one-line reason."""
        raise ValueError("this game does not read typed moves")


class TextGame(Game[S, A], Protocol[S, A]):
    """A :class:`Game` that people can play by typing moves."""

    def action_text(self, action: A) -> str:
        """Return how ``action`` is written for people."""
        ...

    def parse_action(self, state: S, text: str) -> A:
        """Read an action typed by a person; raise ``ValueError`` with a one-line reason."""
        ...


#: A player chooses an action for the player to move: ``player(game, state) -> action``.
Player: TypeAlias = Callable[[Game[S, A], S], A]

#: A move-ordering hook: returns the actions of ``state`` in the order to search them.
Ordering: TypeAlias = Callable[[S, Sequence[A]], Sequence[A]]
