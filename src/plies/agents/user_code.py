"""A user's Python mind: where its code is, checking it without running it, and loading it.

A mind is named ``FILE.py[:NAME]`` or ``package.module[:NAME]``; ``NAME`` defaults to
:data:`DEFAULT_NAME` (``choose``).  It is either

- a function ``NAME(board) -> move``, where ``board`` is a :class:`plies.board.Board`
  and the move a :class:`plies.board.Move`, a UCI string (``"e2e4"``) or a SAN string
  (``"e4"``, ``"Nf3"``); or
- a class whose instance, made with no arguments, has such a ``choose(board)``
  method (a fresh instance every game); or
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
from collections.abc import Sequence
from pathlib import Path

from plies.agents.player import Player

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


def as_mind(obj: object, name: str) -> Player:
    """The user's object (a function, a class with ``choose(board)`` or a Player, class or
    instance) as a player; LoadError saying why it cannot be one."""
    from plies.agents.function_player import FunctionPlayer

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
        return FunctionPlayer(instance.choose, name, make=lambda: cls().choose)
    if isinstance(obj, Player):
        return obj
    method = getattr(obj, "choose", None)
    func = method if callable(method) else obj
    if not callable(func):
        raise LoadError(f"{name} is not a function or a class with choose(board)")
    return FunctionPlayer(func, name)
