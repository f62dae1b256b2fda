"""Game specs: one string names any game, built-in, the user's own, installed or OpenSpiel's.

The forms, tried in this order:

* ``openspiel:NAME[(params)]``: an OpenSpiel game through :mod:`plies.games.openspiel`
  (``openspiel:nim(pile_sizes=1;3;5)``);
* ``FILE.py[:NAME]``: ``NAME`` in a Python file (without ``:NAME``, the one game the file
  defines);
* ``package.module:NAME``: ``NAME`` in an importable module;
* ``NAME[(key=value,...)]``: a built-in game (``tictactoe(width=4,height=4)``,
  ``connect4``, ``chess``) or one an installed package registers in the ``plies.games``
  entry-point group.

``NAME`` is a class instantiated without arguments or an instance; either way the object
must have the methods of :class:`~plies.games.protocol.Game`. Every failure is one
:class:`GameSpecError` whose message is one line naming the spec and the reason.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from plies.games.protocol import TextGame

#: The entry-point group through which installed packages offer games.
ENTRY_POINT_GROUP = "plies.games"

#: Methods a game must have; without them nothing can be searched.
REQUIRED = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
#: Methods with a default when a game leaves them out (see :class:`CompletedGame`).
OPTIONAL = ("evaluate", "key", "render", "action_text", "parse_action")

_CALL = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


class GameSpecError(ValueError):
    """A game spec that cannot be loaded; the message is one line naming it and why."""

    def __init__(self, spec: str, reason: str) -> None:
        """Record the spec and the reason as one line."""
        super().__init__(f"game {spec!r}: {' '.join(reason.split())}")
        self.spec = spec
        self.reason = reason


def builtin_games() -> dict[str, Callable[..., Any]]:
    """Return the games plies ships, by name (constructors taking keyword parameters)."""
    from plies.games.chessgame import ChessGame
    from plies.games.connect4 import Connect4
    from plies.games.tictactoe import TicTacToe

    return {"tictactoe": TicTacToe, "connect4": Connect4, "chess": ChessGame}


#: Names of the built-in games.
BUILTIN_NAMES = ("tictactoe", "connect4", "chess")


def load_game(spec: str) -> TextGame[Any, Any]:
    """Load the game ``spec`` names; raise :class:`GameSpecError` if it cannot be loaded."""
    text = spec.strip()
    if not text:
        raise GameSpecError(spec, "empty game spec")
    if text.lower().startswith("openspiel:"):
        return _openspiel(spec, text[len("openspiel:") :])
    path, name = _split_file(text)
    if path is not None:
        return complete(spec, _from_object(spec, _load_file(spec, path), name))
    if ":" in text:
        module_name, _, attr = text.partition(":")
        module = _import(spec, module_name.strip())
        return complete(spec, _from_object(spec, module, attr.strip() or None))
    return _named(spec, text)


def _split_file(text: str) -> tuple[Path | None, str | None]:
    """Return (path, NAME) for ``FILE.py[:NAME]``, or (None, None) for the other forms."""
    match = re.match(r"^(.*\.py)(?::([^:]*))?$", text)
    if match is None:
        return None, None
    name = match.group(2)
    return Path(match.group(1)), (name.strip() or None) if name is not None else None


def _load_file(spec: str, path: Path) -> ModuleType:
    """Execute the Python file ``path`` as a fresh module and return it."""
    if not path.is_file():
        raise GameSpecError(spec, f"no such file: {path}")
    module_name = f"plies_game_{path.stem}_{abs(hash(str(path.resolve())))}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise GameSpecError(spec, f"cannot load {path} as Python")
    module = importlib.util.module_from_spec(loader_spec)
    # Registered before it runs, as an import would, so dataclasses and pickling find it.
    sys.modules[module_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise GameSpecError(spec, f"{path} failed to run: {_describe(exc)}") from None
    return module


def _import(spec: str, module_name: str) -> ModuleType:
    """Import ``module_name``, turning any failure into a GameSpecError."""
    if not module_name:
        raise GameSpecError(spec, "no module before ':'")
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise GameSpecError(spec, f"no module named {module_name!r}") from None
        raise GameSpecError(spec, f"importing {module_name} failed: {_describe(exc)}") from None
    except Exception as exc:
        raise GameSpecError(spec, f"importing {module_name} failed: {_describe(exc)}") from None


def _from_object(spec: str, module: ModuleType, name: str | None) -> Any:
    """Return the game ``name`` in ``module`` (or its only game), instantiated if a class."""
    if name is None:
        name = _only_game(spec, module)
    try:
        target = getattr(module, name)
    except AttributeError:
        raise GameSpecError(spec, f"{module.__name__} has no {name!r}") from None
    return _instantiate(spec, target, name)


def _only_game(spec: str, module: ModuleType) -> str:
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
        raise GameSpecError(spec, f"{where} defines no game (no class or object with the "
                                  f"methods {', '.join(REQUIRED)})")
    raise GameSpecError(spec, f"{where} defines several games ({', '.join(found)}): "
                              "name one after ':'")


def _is_protocol(cls: type) -> bool:
    """Return whether ``cls`` is a typing Protocol (an interface, not a game)."""
    return bool(getattr(cls, "_is_protocol", False))


def _instantiate(spec: str, target: Any, name: str, params: dict[str, Any] | None = None) -> Any:
    """Call a class with ``params`` (none by default); return an instance as it is."""
    if inspect.isclass(target):
        try:
            return target(**(params or {}))
        except Exception as exc:
            raise GameSpecError(spec, f"{name}() failed: {_describe(exc)}") from None
    if params:
        raise GameSpecError(spec, f"{name} is an instance; it takes no parameters")
    return target


def _missing(obj: Any) -> list[str]:
    """Return the required game methods ``obj`` lacks."""
    return [m for m in REQUIRED if not callable(getattr(obj, m, None))]


def complete(spec: str, game: Any) -> TextGame[Any, Any]:
    """Check ``game`` has the required methods; fill in the optional ones it lacks."""
    missing = _missing(game)
    if missing:
        raise GameSpecError(spec, f"{type(game).__name__} is not a game: it has no "
                                  f"{', '.join(missing)}")
    if all(callable(getattr(game, m, None)) for m in OPTIONAL):
        return game  # type: ignore[no-any-return]
    return CompletedGame(game)


def _named(spec: str, text: str) -> TextGame[Any, Any]:
    """Load ``NAME[(params)]``: a built-in game or an entry point of ``plies.games``."""
    match = _CALL.match(text)
    if match is None:
        raise GameSpecError(spec, "not a game spec: use a built-in name "
                                  f"({', '.join(BUILTIN_NAMES)}), FILE.py[:NAME], "
                                  "package.module:NAME or openspiel:NAME")
    name, raw = match.group(1), match.group(2)
    params = parse_params(spec, raw or "")
    builtins = builtin_games()
    if name.lower() in builtins:
        game = _instantiate(spec, builtins[name.lower()], name.lower(), params)
        return complete(spec, game)
    entry = _entry_point(name)
    if entry is not None:
        try:
            target = entry.load()
        except Exception as exc:
            raise GameSpecError(spec, f"entry point {entry.value} failed to load: "
                                      f"{_describe(exc)}") from None
        return complete(spec, _instantiate(spec, target, name, params))
    known = [*BUILTIN_NAMES, *sorted(ep.name for ep in _entry_points())]
    raise GameSpecError(spec, f"unknown game {name!r}: use one of {', '.join(known)}, "
                              "FILE.py[:NAME], package.module:NAME or openspiel:NAME")


def _entry_points() -> Sequence[importlib.metadata.EntryPoint]:
    """Return the installed entry points of the ``plies.games`` group."""
    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def _entry_point(name: str) -> importlib.metadata.EntryPoint | None:
    """Return the ``plies.games`` entry point called ``name``, if one is installed."""
    for entry in _entry_points():
        if entry.name == name:
            return entry
    return None


def parse_params(spec: str, raw: str) -> dict[str, Any]:
    """Read ``key=value,...``: integers, floats, true/false and otherwise text."""
    params: dict[str, Any] = {}
    for part in raw.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise GameSpecError(spec, f"parameter {part.strip()!r} is not key=value")
        params[key] = _value(value.strip())
    return params


def _value(text: str) -> Any:
    """Turn one parameter's text into an int, float or bool where it reads as one."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _openspiel(spec: str, rest: str) -> TextGame[Any, Any]:
    """Load an OpenSpiel game through the adapter."""
    from plies.games.openspiel import OpenSpielError, OpenSpielGame

    try:
        return OpenSpielGame(rest.strip())
    except OpenSpielError as exc:
        raise GameSpecError(spec, str(exc)) from None


def _describe(exc: BaseException) -> str:
    """Return an exception as ``Type: message`` on one line."""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


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
