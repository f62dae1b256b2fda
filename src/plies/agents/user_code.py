"""A user's Python mind: where its code is, checking it without running it, and loading it.

A mind is named ``FILE.py[:NAME]`` or ``package.module[:NAME]``; ``NAME`` defaults to
:data:`DEFAULT_NAME` (``choose``).  It is either

- a function ``NAME(board) -> move``, where ``board`` is a :class:`plies.board.Board`
  and the move a :class:`plies.board.Move`, a UCI string (``"e2e4"``) or a SAN string
  (``"e4"``, ``"Nf3"``); or
- a class whose instance, made with no arguments, has such a ``choose(board)``
  method (a fresh instance every game); a subclass of :class:`plies.agents.Agent`
  is reset with the game's seed instead, and gets the move's :class:`Budget`
  (``choose(board, budget)``) and may report what it saw in ``last``; or
- a :class:`~plies.agents.player.Player` (``play(board, limit) -> Info``), class or
  instance, used as it is.

:func:`as_mind` makes any of them a :class:`~plies.agents.player.Player`.

The parent process only *checks* the code (:func:`check_file`, :func:`check_module`:
the file exists and compiles, the name is defined, the package is installed);
the code itself is imported and run in a child process
(:mod:`plies.agents.mind_child`), so that a mind that loops forever can be
stopped.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import importlib.util
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from plies.agents.player import Player

if TYPE_CHECKING:
    from plies.agents.base import Agent
    from plies.board import Board, Move
    from plies.engine.limits import Info, Limit

#: The name a mind file or module is asked for when the spec names none.
DEFAULT_NAME = "choose"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def is_identifier(text: str) -> bool:
    """True if ``text`` is a Python identifier (ASCII)."""
    return bool(_IDENTIFIER.match(text))


def is_dotted(text: str) -> bool:
    """True if ``text`` looks like a module path ``a.b.c``."""
    return bool(_DOTTED.match(text))


class LoadError(ValueError):
    """The user's code does not provide a usable mind (the reason is the message)."""


def _top_level_names(tree: ast.Module) -> tuple[set[str], bool]:
    """Names bound at a module's top level (inside if/try/with too); True if it star-imports."""
    names: set[str] = set()
    star = False
    body: list[ast.stmt] = list(tree.body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    star = True
                else:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                body.extend(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                body.extend(handler.body)
    return names, star


def check_file(path: Path, name: str) -> str | None:
    """Why the mind file cannot load (missing, unreadable, a syntax error, no ``name``), or None."""
    if not path.exists():
        return f"no such file: {path}"
    if not path.is_file():
        return f"not a file: {path}"
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}"
    try:
        tree = ast.parse(source, filename=str(path))
        compile(tree, str(path), "exec")
    except SyntaxError as exc:
        return f"syntax error in {path.name} line {exc.lineno}: {exc.msg}"
    except ValueError as exc:  # e.g. a NUL byte in the source
        return f"cannot compile {path.name}: {exc}"
    names, star = _top_level_names(tree)
    if name not in names and not star:
        hint = "" if name != DEFAULT_NAME else f" (name one: {path.name}:NAME)"
        return f"{path.name} defines no {name}{hint}"
    return None


def check_module(module: str, search_path: Sequence[str]) -> str | None:
    """Why ``module`` cannot be found on ``search_path`` (its top package only), or None.

    Only the top-level package is looked up, without importing anything: the rest
    (sub-modules, the name) is found when the child process imports it.
    """
    top = module.split(".")[0]
    if top in sys.builtin_module_names:
        return None
    if importlib.machinery.PathFinder.find_spec(top, list(search_path)) is None:
        return f"no module named {top!r}"
    return None


def module_location(module: str, search_path: Sequence[str]) -> str | None:
    """Where ``module``'s top package lives (its folder; a plain module's file), found on
    ``search_path`` then ``sys.path`` without importing anything; None if nowhere."""
    top = module.split(".")[0]
    if top in sys.builtin_module_names:
        return None
    spec = importlib.machinery.PathFinder.find_spec(top, [*search_path, *sys.path])
    if spec is None:
        return None
    folders = list(spec.submodule_search_locations or ())
    if folders:
        return str(folders[0])
    return spec.origin if spec.origin and spec.has_location else None


def load_object(kind: str, target: str, name: str) -> object:
    """Import the user's file or module and return its ``name``; ValueError with a reason."""
    if kind == "file":
        path = Path(target)
        sys.path.insert(0, str(path.parent))  # so the mind can import its sibling files
        module_name = "plies_mind_" + re.sub(r"\W", "_", path.stem)
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise LoadError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        where = path.name
    else:
        module = importlib.import_module(target)
        where = target
    try:
        return getattr(module, name)
    except AttributeError:
        raise LoadError(f"{where} defines no {name}") from None


class BadAnswerError(ValueError):
    """The mind returned something that is not a legal move here."""


def answer_move(board: Board, answer: object) -> Move:
    """The legal move the mind's ``answer`` names (a Move, a UCI or a SAN string);
    BadAnswerError saying why when it names none."""
    from plies.board import Move

    if isinstance(answer, str):
        text = answer.strip()
        for parse in (board.parse_uci, board.parse_san):
            try:
                move = parse(text)
            except ValueError:
                continue
            if not move:  # "0000" or "--": python-chess reads a null move, no move of a game
                break
            return move
        raise BadAnswerError(f"returned {text[:40]!r}, not a legal move in UCI or SAN")
    uci = getattr(answer, "uci", None)
    if not callable(uci):
        raise BadAnswerError(f"returned {type(answer).__name__} {answer!r:.40}, not a move")
    text = str(uci())
    try:
        move = Move.from_uci(text)
    except ValueError:
        raise BadAnswerError(f"returned {text[:40]!r}, not a move") from None
    if not move or not board.is_legal(move):
        raise BadAnswerError(f"returned {text}, not a legal move")
    return move


class FunctionMind(Player):
    """A user's function ``choose(board) -> move`` as a player (``make`` gives a fresh one
    every game: a class's ``choose`` on a new instance)."""

    def __init__(self, name: str, choose: Callable[[Board], object],
                 make: Callable[[], Callable[[Board], object]] | None = None) -> None:
        """The mind called ``name`` answering with ``choose``."""
        self.name = name
        self._choose = choose
        self._make = make

    def new_game(self, seed: int | None = None) -> None:
        """A fresh instance for a class's mind."""
        self.last = None
        if self._make is not None:
            self._choose = self._make()

    def play(self, board: Board, limit: Limit) -> Info:
        """Ask the function (on a copy of ``board``); BadAnswerError if it names no legal move."""
        from plies.engine.limits import Info

        info = Info(move=answer_move(board, self._choose(board.copy())))
        self.last = info
        return info


class AgentMind(Player):
    """A user's :class:`~plies.agents.base.Agent` as a player: asked with the budget the
    limit gives, reporting what it saw in ``last``."""

    def __init__(self, agent: Agent, name: str) -> None:
        """The agent, shown as its own name or ``name``."""
        self.agent = agent
        self.name = agent.name or name

    def new_game(self, seed: int | None = None) -> None:
        """Reset the agent with the game's seed."""
        self.last = None
        self.agent.reset(seed)

    def play(self, board: Board, limit: Limit) -> Info:
        """Ask the agent (on a copy of ``board``) and report its thought."""
        from plies.agents.move_player_view import limit_budget
        from plies.engine.limits import Info
        from plies.engine.score import Cp, Mate, pov

        white = bool(board.turn)
        self.agent.last = None
        move = answer_move(board, self.agent.choose(board.copy(), limit_budget(limit, white)))
        thought = self.agent.last
        info = Info(move=move)
        if thought is not None:
            score = None
            if thought.mate_in is not None:
                score = pov(Mate(thought.mate_in), white)
            elif thought.score_cp is not None:
                score = pov(Cp(thought.score_cp), white)
            info = Info(move=move, score=score, depth=thought.depth, nodes=thought.nodes,
                        pv=list(thought.pv))
        self.last = info
        return info

    def stop(self) -> None:
        """Ask the agent to answer now."""
        self.agent.stop()


def as_mind(obj: object, name: str) -> Player:
    """The user's object (a function, a class with ``choose(board)``, an Agent or a Player,
    class or instance) as a player; LoadError saying why it cannot be one."""
    from plies.agents.base import Agent

    if isinstance(obj, type):
        cls = obj
        try:
            instance = cls()
        except TypeError as exc:
            raise LoadError(f"{name}() cannot be made without arguments: {exc}") from None
        if isinstance(instance, Player):
            return instance
        if not callable(getattr(instance, "choose", None)):
            raise LoadError(f"class {name} has no choose(board) method")
        if isinstance(instance, Agent):
            return AgentMind(instance, name)
        return FunctionMind(name, instance.choose, lambda: cls().choose)
    if isinstance(obj, Player):
        return obj
    if isinstance(obj, Agent):
        return AgentMind(obj, name)
    method = getattr(obj, "choose", None)
    func = method if callable(method) else obj
    if not callable(func):
        raise LoadError(f"{name} is not a function or a class with choose(board)")
    return FunctionMind(name, func)
