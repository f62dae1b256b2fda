"""A human player at a text console: prompts, reads a move, explains bad input, asks again."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TextIO

from plies.games.protocol import A, Game, S, TextGame


class PlayerQuitError(Exception):
    """The person asked to stop (typed ``quit``) or the input ended."""


@dataclass(eq=False)
class ConsolePlayer(Generic[S, A]):
    """Asks a person for moves on ``output`` and reads them from ``input``.

    Bad input (nonsense, an occupied cell, a full column) gets a one-line explanation and
    a new prompt. ``quit`` or the end of input raises :class:`PlayerQuitError`. When the
    input is not a terminal (piped, scripted play) each line read is echoed after the
    prompt, so the transcript reads like a session.
    """

    game: TextGame[S, A]
    """The game played, which reads and writes its moves as text."""
    name: str = "You"
    """Who is asked to move."""
    input: TextIO = field(default_factory=lambda: sys.stdin)
    """Where the moves are read."""
    output: TextIO = field(default_factory=lambda: sys.stdout)
    """Where the prompts go."""
    echo: bool | None = None
    """Whether each line read is written after its prompt (None: when ``input`` is not a
    terminal)."""

    def __post_init__(self) -> None:
        """Settle ``echo``."""
        if self.echo is None:
            self.echo = not _is_tty(self.input)

    def _ask(self, prompt: str) -> str | None:
        """Prompt until a line is read: its text, or None when the person asked for help
        (``help``, ``?`` or nothing); PlayerQuitError on ``quit`` or the end of input."""
        while True:
            self.output.write(f"{self.name} to move ({prompt}): ")
            self.output.flush()
            try:
                line = self.input.readline()
            except UnicodeDecodeError:
                self.output.write("could not read that line as text\n")
                continue
            if not line:
                self.output.write("\n")
                raise PlayerQuitError("end of input")
            if self.echo:
                self.output.write(line if line.endswith("\n") else line + "\n")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise PlayerQuitError("quit")
            return None if text.lower() in ("", "?", "h", "help") else text

    def __call__(self, game: Game[S, A], state: S) -> A:
        """Prompt until a legal move is typed and return it (``game`` is the one given)."""
        text_game = self.game
        while True:
            text = self._ask("help, quit")
            if text is None:
                legal = ", ".join(text_game.action_text(a) for a in game.actions(state))
                self.output.write(f"legal moves: {legal}\n")
                continue
            try:
                return text_game.parse_action(state, text)
            except ValueError as exc:
                self.output.write(f"{exc}\n")


def _is_tty(stream: TextIO) -> bool:
    """Return whether ``stream`` is an interactive terminal (False if it cannot tell)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def action_label(game: Game[S, A], state: S, action: A) -> str:
    """Return how ``action`` is written at ``state``: per state if the game can, else as text."""
    per_state = getattr(game, "state_action_text", None)
    if callable(per_state):
        return str(per_state(state, action))
    text = getattr(game, "action_text", None)
    return str(text(action)) if callable(text) else str(action)


@dataclass(eq=False)
class MenuPlayer(ConsolePlayer[S, A]):
    """Lists the legal actions by number and reads a number or an action's text.

    Works for any game: the list is what a person needs when the game's notation is
    new to them. ``help`` lists again, ``quit`` or the end of input raises
    :class:`PlayerQuitError`, anything else unreadable gets a one-line reason.
    """

    label: Callable[[Any, Any, Any], str] = action_label
    """How an action is written in the list (``action_label``: the game's own text)."""

    def _menu(self, state: S, actions: Sequence[A]) -> str:
        """Return the numbered list of ``actions``."""
        return "  ".join(
            f"{n}) {self.label(self.game, state, a)}" for n, a in enumerate(actions, start=1)
        )

    def __call__(self, game: Game[S, A], state: S) -> A:
        """List the actions, then prompt until one is chosen; return it."""
        from plies.games.spec import read_action

        actions = list(game.actions(state))
        self.output.write(f"actions: {self._menu(state, actions)}\n")
        while True:
            text = self._ask("number or action; help, quit")
            if text is None:
                self.output.write(f"actions: {self._menu(state, actions)}\n")
                continue
            for n, action in enumerate(actions, start=1):
                if text == str(n) or text == self.label(self.game, state, action):
                    return action
            try:
                return read_action(self.game, state, text)  # type: ignore[no-any-return]
            except ValueError as exc:
                self.output.write(f"{exc}; type a number from 1 to {len(actions)}\n")
