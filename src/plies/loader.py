"""Loading code named in a spec: a Python file, an importable module, a name in either,
or an installed entry point, with one error type for every way that fails.

The player specs (``FILE.py[:NAME]``, ``package.module[:NAME]``) and the game specs
(``FILE.py[:NAME]``, ``package.module:NAME``, an entry point of ``plies.games``) load
through here, and so do the registries' lazily imported factories.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType


class LoadError(ValueError):
    """Code that cannot be loaded, or a spec that names nothing usable.

    The message is one line: the ``reason``, or ``KIND 'SPEC': reason`` when the spec
    and its kind (``game``, ``player``) are given.
    """

    def __init__(self, reason: str, spec: str | None = None, kind: str = "") -> None:
        """Record the reason (folded onto one line) and what it is about."""
        self.reason = " ".join(reason.split())
        self.spec = spec
        self.kind = kind
        named = f"{kind} {spec!r}".strip() if spec is not None else ""
        super().__init__(f"{named}: {self.reason}" if named else self.reason)

    def about(self, spec: str, kind: str) -> LoadError:
        """The same reason, naming ``spec`` of ``kind`` (for a spec parser to raise)."""
        return LoadError(self.reason, spec, kind)


def describe(exc: BaseException) -> str:
    """An exception as ``Type: message`` on one line."""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def load_file(path: Path, prefix: str = "plies_user_", siblings: bool = False) -> ModuleType:
    """Run the Python file ``path`` as a fresh module and return it.

    The module is named ``prefix`` + the file's stem + a hash of its path, so two files of
    the same name do not collide. With ``siblings`` the file's folder goes first on
    ``sys.path``, so that the file can import the modules beside it.
    """
    if not path.is_file():
        raise LoadError(f"no such file: {path}")
    stem = re.sub(r"\W", "_", path.stem)
    module_name = f"{prefix}{stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise LoadError(f"cannot load {path} as Python")
    if siblings:
        sys.path.insert(0, str(path.parent))
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would, so dataclasses and pickling find it.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise LoadError(f"{path} failed to run: {describe(exc)}") from None
    return module


def import_module(name: str) -> ModuleType:
    """Import the module ``name``; LoadError if it is missing or fails to import."""
    if not name:
        raise LoadError("no module named")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise LoadError(f"no module named {name!r}") from None
        raise LoadError(f"importing {name} failed: {describe(exc)}") from None
    except Exception as exc:
        raise LoadError(f"importing {name} failed: {describe(exc)}") from None


def attribute(module: ModuleType, name: str, where: str | None = None) -> object:
    """``name`` in ``module``; LoadError saying ``where`` (the file's name; the module's
    by default) defines no such name."""
    try:
        return getattr(module, name)
    except AttributeError:
        raise LoadError(f"{where or module.__name__} defines no {name}") from None


def load_object(kind: str, target: str, name: str, prefix: str = "plies_user_") -> object:
    """``name`` in the file (``kind`` 'file', its folder importable) or the module
    (``kind`` 'module') ``target``; LoadError with the reason if it cannot be had."""
    if kind == "file":
        path = Path(target)
        return attribute(load_file(path, prefix, siblings=True), name, path.name)
    if kind == "module":
        return attribute(import_module(target), name)
    raise LoadError(f"cannot load code of kind {kind!r}: 'file' or 'module'")


def load_text(text: str) -> object:
    """The object ``module:attr`` names (a registry's lazily imported factory)."""
    module, _, attr = text.partition(":")
    return attribute(import_module(module.strip()), attr.strip())


def load_entry_point(entry: EntryPoint) -> object:
    """What an installed package's entry point names; LoadError if it fails to load."""
    try:
        return entry.load()
    except Exception as exc:
        raise LoadError(f"entry point {entry.value} failed to load: {describe(exc)}") from None
