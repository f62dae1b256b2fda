"""Game specs: one string names any game, built-in, the user's own, installed or OpenSpiel's.

The forms, tried in this order:

* ``openspiel:NAME[(params)]``: an OpenSpiel game through :mod:`plies.games.openspiel`
  (``openspiel:nim(pile_sizes=1;3;5)``);
* ``FILE.py[:NAME]``: ``NAME`` in a Python file (without ``:NAME``, the one game the file
  defines);
* ``package.module:NAME``: ``NAME`` in an importable module;
* ``NAME[(key=value,...)]``: a game of the :data:`GAMES` registry: a built-in game
  (``tictactoe(width=4,height=4)``, ``connect4``, ``chess``) or one an installed package
  registers in the ``plies.games`` entry-point group.

``NAME`` is a class instantiated without arguments or an instance; either way the object
must have the methods of :class:`~plies.games.protocol.Game`. Files, modules and entry
points load through :mod:`plies.loader`, and every failure is one
:class:`~plies.loader.LoadError` whose message is one line naming the spec and the reason
(``game 'go': ...``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Hashable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from plies.games.protocol import TextGame
from plies.loader import LoadError, attribute, describe, import_module, load_file
from plies.registry import Option, Registry, parse_options

#: The games by name: the built-ins, and those installed packages register in the
#: ``plies.games`` entry-point group.
GAMES: Registry[Any] = Registry("game", "plies.games")
GAMES.add("tictactoe", "plies.games.tictactoe:TicTacToe", "m x n tic-tac-toe, k in a row",
          Option("width", int, help="columns (1..26)"), Option("height", int, help="rows"),
          Option("k", int, help="marks in a row that win"))
GAMES.add("connect4", "plies.games.connect4:Connect4", "connect four",
          Option("width", int, help="columns (4..16)"),
          Option("height", int, help="rows (4..16)"))
GAMES.add("chess", "plies.games.chessgame:ChessGame", "chess as a generic game",
          Option("fen", str, help="the start position"),
          Option("claim_draw", bool, help="end a game on a claimable draw"))

#: Methods a game must have; without them nothing can be searched.
REQUIRED = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
#: Methods with a default when a game leaves them out (see :class:`CompletedGame`).
OPTIONAL = ("evaluate", "key", "render", "action_text", "parse_action")

_CALL = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)
_OTHER_FORMS = "FILE.py[:NAME], package.module:NAME or openspiel:NAME"


def load_game(spec: str) -> TextGame[Any, Any]:
    """Load the game ``spec`` names; raise :class:`~plies.loader.LoadError` if it cannot."""
    try:
        return _load(spec)
    except LoadError as exc:
        raise exc.about(spec, "game") from None


def _load(spec: str) -> TextGame[Any, Any]:
    """Load the game ``spec`` names; the LoadError raised does not name the spec yet."""
    text = spec.strip()
    if not text:
        raise LoadError("empty game spec")
    if text.lower().startswith("openspiel:"):
        return _openspiel(text[len("openspiel:") :])
    path, name = _split_file(text)
    if path is not None:
        module = load_file(path, "plies_game_")
        return complete(_from_object(module, name, path.name))
    if ":" in text:
        module_name, _, attr = text.partition(":")
        module = import_module(module_name.strip())
        return complete(_from_object(module, attr.strip() or None))
    return _named(text)


def _split_file(text: str) -> tuple[Path | None, str | None]:
    """Return (path, NAME) for ``FILE.py[:NAME]``, or (None, None) for the other forms."""
    match = re.match(r"^(.*\.py)(?::([^:]*))?$", text)
    if match is None:
        return None, None
    name = match.group(2)
    return Path(match.group(1)), (name.strip() or None) if name is not None else None


def _from_object(module: ModuleType, name: str | None, where: str | None = None) -> Any:
    """Return the game ``name`` in ``module`` (or its only game), instantiated if a class."""
    if name is None:
        name = _only_game(module)
    target = attribute(module, name, where)
    if inspect.isclass(target):
        try:
            return target()
        except Exception as exc:
            raise LoadError(f"{name}() failed: {describe(exc)}") from None
    return target


def _only_game(module: ModuleType) -> str:
    """Return the name of the one game class ``module`` defines (else its one game object)."""
    classes, objects = [], []
    for attr, value in vars(module).items():
        if attr.startswith("_") or _missing(value):
            continue
        if inspect.isclass(value):
            if value.__module__ == module.__name__ and not _is_protocol(value):
                classes.append(attr)
        elif not inspect.ismodule(value) and not inspect.isroutine(value):
            objects.append(attr)
    found = classes or objects
    if len(found) == 1:
        return found[0]
    where = getattr(module, "__file__", module.__name__)
    if not found:
        raise LoadError(f"{where} defines no game (no class or object with the "
                        f"methods {', '.join(REQUIRED)})")
    raise LoadError(f"{where} defines several games ({', '.join(found)}): name one after ':'")


def _is_protocol(cls: type) -> bool:
    """Return whether ``cls`` is a typing Protocol (an interface, not a game)."""
    return bool(getattr(cls, "_is_protocol", False))


def _missing(obj: Any) -> list[str]:
    """Return the required game methods ``obj`` lacks."""
    return [m for m in REQUIRED if not callable(getattr(obj, m, None))]


def complete(game: Any) -> TextGame[Any, Any]:
    """Check ``game`` has the required methods; fill in the optional ones it lacks."""
    missing = _missing(game)
    if missing:
        raise LoadError(f"{type(game).__name__} is not a game: it has no {', '.join(missing)}")
    if all(callable(getattr(game, m, None)) for m in OPTIONAL):
        return game  # type: ignore[no-any-return]
    return CompletedGame(game)


def _named(text: str) -> TextGame[Any, Any]:
    """Load ``NAME[(params)]``: a game of the :data:`GAMES` registry."""
    match = _CALL.match(text)
    if match is None:
        raise LoadError(f"not a game spec: use a game name ({', '.join(GAMES.names())}), "
                        f"{_OTHER_FORMS}")
    name, raw = match.group(1), match.group(2)
    entry = GAMES.get(name) if name in GAMES else None
    if entry is None:
        raise LoadError(f"unknown game {name!r}: use one of {', '.join(GAMES.names())}, "
                        f"{_OTHER_FORMS}")
    options = parse_options(raw or "")
    try:
        game = entry.make(options)
    except LoadError:
        raise
    except Exception as exc:
        raise LoadError(f"{entry.name}() failed: {describe(exc)}") from None
    return complete(game)


def _openspiel(rest: str) -> TextGame[Any, Any]:
    """Load an OpenSpiel game through the adapter."""
    from plies.games.openspiel import OpenSpielError, OpenSpielGame

    try:
        return OpenSpielGame(rest.strip())
    except OpenSpielError as exc:
        raise LoadError(str(exc)) from None


class CompletedGame:
    """A game given the optional methods it leaves out: no heuristic, state as key, text.

    Every other attribute is the wrapped game's, so its own methods always win.
    """

    def __init__(self, game: Any) -> None:
        """Wrap ``game``."""
        self.game = game

    def __getattr__(self, name: str) -> Any:
        """Forward everything else to the wrapped game."""
        return getattr(self.game, name)

    def __repr__(self) -> str:
        """Show the wrapped game."""
        return repr(self.game)

    def initial_state(self) -> Any:
        """Return the wrapped game's start."""
        return self.game.initial_state()

    def to_move(self, state: Any) -> int:
        """Return the player to move."""
        return int(self.game.to_move(state))

    def actions(self, state: Any) -> Sequence[Any]:
        """Return the legal actions."""
        return self.game.actions(state)  # type: ignore[no-any-return]

    def result(self, state: Any, action: Any) -> Any:
        """Return the state after ``action``."""
        return self.game.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        """Return whether the game is over."""
        return bool(self.game.is_terminal(state))

    def utility(self, state: Any, player: int) -> float:
        """Return the final value for ``player``."""
        return float(self.game.utility(state, player))

    def evaluate(self, state: Any, player: int) -> float:
        """Use the game's heuristic, or know nothing (0)."""
        own = getattr(self.game, "evaluate", None)
        return float(own(state, player)) if callable(own) else 0.0

    def key(self, state: Any) -> Hashable:
        """Use the game's key, or the state itself."""
        own = getattr(self.game, "key", None)
        return own(state) if callable(own) else state  # type: ignore[no-any-return]

    def render(self, state: Any) -> str:
        """Use the game's picture, or the state's text."""
        own = getattr(self.game, "render", None)
        return str(own(state)) if callable(own) else str(state)

    def action_text(self, action: Any) -> str:
        """Use the game's action text, or the action's."""
        own = getattr(self.game, "action_text", None)
        return str(own(action)) if callable(own) else str(action)

    def parse_action(self, state: Any, text: str) -> Any:
        """Use the game's reader, or match ``text`` against the legal actions' text."""
        own = getattr(self.game, "parse_action", None)
        if callable(own):
            return own(state, text)
        return match_action(self, state, text)


def match_action(game: TextGame[Any, Any], state: Any, text: str) -> Any:
    """Return the legal action of ``state`` written ``text``; ``ValueError`` if none is."""
    wanted = text.strip()
    actions = list(game.actions(state))
    for action in actions:
        if game.action_text(action) == wanted or str(action) == wanted:
            return action
    folded = wanted.lower()
    hits = [a for a in actions if game.action_text(a).lower() == folded]
    if len(hits) == 1:
        return hits[0]
    raise ValueError(f"not a legal action here: {wanted!r}")


def read_action(game: TextGame[Any, Any], state: Any, text: str) -> Any:
    """Read a typed action: its text, or else the game's own reader; ``ValueError`` if neither."""
    try:
        return match_action(game, state, text)
    except ValueError:
        pass
    try:
        action = game.parse_action(state, text)
    except ValueError:
        raise ValueError(f"not a legal action here: {text.strip()!r}") from None
    if action not in list(game.actions(state)):
        raise ValueError(f"not a legal action here: {text.strip()!r}")
    return action


def play_line(game: TextGame[Any, Any], text: str) -> Any:
    """Return the state after the actions in ``text`` from the start.

    Actions are separated by spaces (or commas); an action whose own text holds spaces
    or commas, like ``(2, 3)`` or OpenSpiel's ``pile:3, take:3;``, is matched whole.
    """
    state = game.initial_state()
    rest = text
    number = 0
    while True:
        rest = rest.lstrip(" \t\n,")
        if not rest:
            return state
        number += 1
        written = _written_action(game, state, rest)
        if written is not None:
            action, length = written
        else:
            word = re.split(r"[\s,]", rest, maxsplit=1)[0]
            length = len(word)
            if game.is_terminal(state):
                raise ValueError(f"action {number} ({word}): the game is already over")
            try:
                action = read_action(game, state, word)
            except ValueError as exc:
                raise ValueError(f"action {number}: {exc}") from None
        state = game.result(state, action)
        rest = rest[length:]


def _written_action(game: TextGame[Any, Any], state: Any, text: str) -> tuple[Any, int] | None:
    """Return the legal action whose text starts ``text`` (the longest), and that length."""
    if game.is_terminal(state):
        return None
    per_state = getattr(game, "state_action_text", None)
    best: tuple[Any, int] | None = None
    for action in game.actions(state):
        names = {game.action_text(action), str(action)}
        if callable(per_state):
            names.add(str(per_state(state, action)))
        for name in names:
            end = len(name)
            if (
                name
                and text.startswith(name)
                and (end == len(text) or text[end] in " \t\n,")
                and (best is None or end > best[1])
            ):
                best = (action, end)
    return best
