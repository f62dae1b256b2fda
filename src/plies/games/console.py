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


#: How menu numbers may be written, plainest first: ``3``, else ``#3``.
_NUMBER_MARKS = ("", "#")


@dataclass(eq=False)
class MenuPlayer(ConsolePlayer[S, A]):
    """Lists the legal actions by their own text and reads one back, or its menu number.

    Works for any game: the list is what a person needs when the game's notation is new
    to them. What is typed is read as an action first: its text in the list, else the
    game's own notation. So menu numbers never shadow an action: they are plain (``3``)
    while no plain number reads as an action, else written ``#3``, and left out when every
    action is written as a number already (pins 0 to 6, columns 1 to 7). Once a game's
    numbers change form they keep the new one, so the menu reads the same at every turn.
    ``help`` lists again, ``quit`` or the end of input raises :class:`PlayerQuitError`,
    anything else unreadable gets a one-line reason.
    """

    label: Callable[[Any, Any, Any], str] = action_label
    """How an action is written in the list (``action_label``: the game's own text)."""
    mark: str | None = field(default=_NUMBER_MARKS[0], init=False)
    """What menu numbers are written after (``""``, ``"#"``), or None: no numbers."""

    def _settle_mark(self, state: S, actions: Sequence[A]) -> None:
        """Move ``mark`` on past every form of menu number that reads as an action here."""
        if all(self.label(self.game, state, a).isdecimal() for a in actions):
            self.mark = None
        while self.mark is not None and any(
            self._reads(state, actions, f"{self.mark}{n}") for n in range(1, len(actions) + 1)
        ):
            later = _NUMBER_MARKS.index(self.mark) + 1
            self.mark = _NUMBER_MARKS[later] if later < len(_NUMBER_MARKS) else None

    def _reads(self, state: S, actions: Sequence[A], text: str) -> bool:
        """Return whether ``text`` names an action of ``actions``."""
        try:
            self._read(state, actions, text)
        except ValueError:
            return False
        return True

    def _read(self, state: S, actions: Sequence[A], text: str) -> A:
        """Return the action ``text`` names: its label in the list first, then the game's
        own notation (tic-tac-toe's cell 5 is b2, whatever its action 5 is), then any other
        text of it (``action_text``, the action itself, in any case); else ``ValueError``
        with the game's reason, if it gave one."""
        from plies.games.spec import match_action

        for action in actions:
            if text == self.label(self.game, state, action):
                return action
        reason = f"not a legal action here: {text!r}"
        try:
            action = self.game.parse_action(state, text)
        except ValueError as exc:
            reason = str(exc) or reason
        except Exception:  # a user's parse_action may raise anything at text it cannot read
            pass
        else:
            if action in actions:
                return action
            raise ValueError(reason)  # the game read it, as an action not legal here
        try:
            return match_action(self.game, state, text)  # type: ignore[no-any-return]
        except ValueError:
            raise ValueError(reason) from None

    def _menu(self, state: S, actions: Sequence[A]) -> str:
        """Return the list of ``actions``, with their menu numbers if they have any."""
        labels = [self.label(self.game, state, a) for a in actions]
        if self.mark is None:
            return "  ".join(labels)
        return "  ".join(f"{self.mark}{n}) {text}" for n, text in enumerate(labels, start=1))

    def _number(self, text: str, count: int) -> int | None:
        """Return the menu number ``text`` is (1 to ``count``), else None."""
        if self.mark is None or not text.startswith(self.mark):
            return None
        digits = text[len(self.mark):]
        return int(digits) if digits.isdecimal() and 1 <= int(digits) <= count else None

    def __call__(self, game: Game[S, A], state: S) -> A:
        """List the actions, then prompt until one is chosen; return it."""
        actions = list(game.actions(state))
        self._settle_mark(state, actions)
        self.output.write(f"actions: {self._menu(state, actions)}\n")
        if self.mark is None:
            prompt, hint = "an action as listed", ""
        else:
            prompt = f"an action or its {self.mark}number"
            hint = f" or its number from {self.mark}1 to {self.mark}{len(actions)}"
        while True:
            text = self._ask(f"{prompt}; help, quit")
            if text is None:
                self.output.write(f"actions: {self._menu(state, actions)}\n")
                continue
            try:
                return self._read(state, actions, text)
            except ValueError as exc:
                reason = str(exc)
            number = self._number(text, len(actions))
            if number is not None:
                return actions[number - 1]
            self.output.write(f"{reason}; type an action as listed{hint}\n")
