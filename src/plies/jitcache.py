"""One compile-cache policy for every compiled package: each file keyed on what it compiles from.

numba caches a ``cache=True`` function keyed on the stamp of the one file that
defines it, so after an edit to ``core/evaluate.py`` a cached ``core/search.py``
would keep running the old evaluation (a compiled caller embeds its callees).
``install()`` puts a cache locator in front of numba's own for files inside
the ``plies`` package: it keeps numba's choice of directory (beside the
sources when writable, else numba's user-wide cache, or ``NUMBA_CACHE_DIR``
when the user set one) and replaces the stamp numba checks with a hash of the
file and of every ``plies`` module it imports, directly or not.

So an edit recompiles exactly the files whose compiled code can contain it:
an edit to ``search.py`` leaves the move generator's and the evaluation's
cached code valid, an edit to ``bits.py`` (imported by all) recompiles
everything. numba overwrites a stale index in place, so nothing piles up.
Where numba finds no writable cache folder (the sandbox a mind runs in binds
plies read-only), the cache is read where it is and never written: what is
missing compiles in memory.
It must run before the first compiled function of a package is defined
(``plies.core`` and the compiled path finding call it first).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
"""The ``plies`` package directory: files below it get sources-keyed stamps."""
STAMP_TAG = "plies-sources-v2"
"""First element of every stamp, so numba's own (mtime, size) stamps never match ours."""


def _module_path(name: str) -> Path | None:
    """The file of module ``plies.x.y`` (a module or a package's ``__init__``), if any."""
    parts = name.split(".")
    if not parts or parts[0] != "plies":
        return None
    base = PACKAGE_DIR.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(path: Path) -> str:
    """The dotted package name that contains ``path`` (for relative imports)."""
    relative = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(relative.parts)
    return ".".join(parts if path.name == "__init__.py" else parts[:-1])


# Import statements found by a scan, not a parse: parsing every compiled file's
# source on each start costs a warm start a quarter of a second. The scan may
# only over-report (an import-like line inside a string makes a larger key);
# tests/test_jitcache.py checks it against the parser on every plies file.
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)"
    rb"|import[ \t]+([^\n#]*))",
    re.MULTILINE,
)


def _names(clause: bytes) -> list[str]:
    """The imported names of an import clause (``a as b, c`` or ``(a, b)``), aliases dropped."""
    names = []
    for item in re.sub(rb"#[^\n]*", b"", clause).strip().strip(b"()").split(b","):
        words = item.split()
        if words:
            names.append(words[0].decode())
    return names


def _resolve(path: Path, module: str) -> str:
    """The absolute name of ``module`` (``..x`` relative to ``path``'s package)."""
    level = len(module) - len(module.lstrip("."))
    if not level:
        return module
    anchor = _package_of(path).split(".")
    anchor = anchor[: len(anchor) - (level - 1)]
    rest = module[level:]
    return ".".join([*anchor, rest] if rest else anchor)


@functools.cache
def direct_imports(path: Path) -> frozenset[Path]:
    """The ``plies`` files that ``path`` imports by name (its own statements only)."""
    found: set[Path] = set()
    for match in _IMPORT.finditer(path.read_bytes()):
        module, clause, plain = match.groups()
        if plain is not None:
            for name in _names(plain):
                target = _module_path(name)
                if target is not None:
                    found.add(target)
            continue
        package = _resolve(path, module.decode())
        for name in _names(clause):
            # ``from plies.core import position`` names a module; other names
            # live in the package's ``__init__`` (a conservative, larger key).
            target = _module_path(f"{package}.{name}") or _module_path(package)
            if target is not None:
                found.add(target)
    found.discard(path)
    return frozenset(found)


def closure(path: Path) -> list[Path]:
    """``path`` and every ``plies`` file it imports, directly or not, sorted."""
    seen = {path}
    todo = [path]
    while todo:
        for target in direct_imports(todo.pop()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(seen)


@functools.cache
def _file_digest(path: Path) -> bytes:
    """SHA-256 of one file's bytes (each file is read once however many stamps include it)."""
    return hashlib.sha256(path.read_bytes()).digest()


@functools.cache
def sources_stamp(path: Path) -> str:
    """Hex digest (16 digits) of the names and contents of ``closure(path)``."""
    digest = hashlib.sha256()
    for source in closure(path):
        name = source.relative_to(PACKAGE_DIR).as_posix()
        digest.update(name.encode() + b"\0" + _file_digest(source))
    return digest.hexdigest()[:16]


def _inner_locator(py_func: Any, py_file: str) -> tuple[Any, bool]:
    """The locator numba itself would choose for ``py_func``, and True; where numba finds no
    writable folder, one to read the cache from, and False (None if none fits)."""
    from numba.core.caching import CacheImpl

    classes: list[Any] = CacheImpl._locator_classes
    for cls in classes:
        if cls is SourcesKeyedLocator:
            continue
        locator = cls.from_function(py_func, py_file)
        if locator is not None:
            return locator, True
    return _readable_locator(classes, py_func, py_file), False


def _readable_locator(classes: list[Any], py_func: Any, py_file: str) -> Any:
    """The first of numba's locators whose folder holds an index for ``py_file``, else the
    first that can be made (numba's own choice would insist on a writable folder)."""
    from numba.core.caching import _SourceFileBackedLocatorMixin as FileBacked

    stem = Path(py_file).stem + "."
    first = None
    for cls in classes:
        # Only locators for source files (IPython's would import IPython to say where).
        if cls is SourcesKeyedLocator or not issubclass(cls, FileBacked):
            continue
        try:
            locator = cls(py_func, py_file)
            folder = str(locator.get_cache_path())
        except Exception:  # a zip file's locator, for a file not in a zip
            continue
        if os.path.isabs(folder):
            first = first or locator
            if any(n.startswith(stem) and n.endswith(".nbi") for n in _listing(folder)):
                return locator
    return first


@functools.cache
def _listing(folder: str) -> tuple[str, ...]:
    """The names in ``folder`` (empty if it cannot be read), read once per process."""
    try:
        return tuple(os.listdir(folder))
    except OSError:
        return ()


def _locator_base() -> type:
    """numba's abstract locator class (imported late: numba loads only when needed)."""
    from numba.core.caching import _CacheLocator

    return _CacheLocator  # type: ignore[no-any-return]


class SourcesKeyedLocator(_locator_base()):  # type: ignore[misc]
    """numba's own locator for a ``plies`` file, with the stamp replaced by its sources' hash."""

    def __init__(self, inner: Any, path: Path, writable: bool = True) -> None:
        """Wrap numba's locator ``inner`` for the source file ``path`` (a cache only read
        unless ``writable``)."""
        self._inner = inner
        self._path = path
        self._writable = writable

    def ensure_cache_path(self) -> None:
        """Create the cache directory (numba's choice) and check that it is writable."""
        if self._writable:
            self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        """The directory numba's own locator chose (remembered: its files get the load guard,
        and are never written when the folder is only read)."""
        path = os.path.normpath(str(self._inner.get_cache_path()))
        _OWN_CACHE_DIRS.add(path)
        if not self._writable:
            _READ_ONLY_DIRS.add(path)
        return path

    def get_source_stamp(self) -> tuple[str, str]:
        """The hash of this file and of every ``plies`` module it imports."""
        return (STAMP_TAG, sources_stamp(self._path))

    def get_disambiguator(self) -> str:
        """As numba's own locator: tells same-named functions of one file apart."""
        return str(self._inner.get_disambiguator())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> SourcesKeyedLocator | None:
        """A locator for functions defined in ``plies`` files; None for any other file."""
        try:
            path = Path(py_file).resolve()
            path.relative_to(PACKAGE_DIR)
        except (OSError, ValueError):
            return None
        if not path.is_file():
            return None
        inner, writable = _inner_locator(py_func, py_file)
        return None if inner is None else cls(inner, path, writable)


_OWN_CACHE_DIRS: set[str] = set()
"""Cache directories chosen for ``plies`` files (only their files get the load guard)."""
_READ_ONLY_DIRS: set[str] = set()
"""Those of them that are only read (no writable folder was found): never written."""

# What unpickling a cache written by other sources can raise: a module or a class that
# the compiled code's types named has since moved or gone.
_STALE_ERRORS = (ImportError, AttributeError, EOFError, TypeError, ValueError,
                 pickle.UnpicklingError)


def _is_own(cache_file: Any) -> bool:
    """Whether a numba cache file object lives in a ``plies`` cache directory."""
    return os.path.normpath(str(cache_file._cache_path)) in _OWN_CACHE_DIRS


def _guard_cache_files() -> None:
    """Make an index or data file that no longer unpickles a cache miss, not an error.

    numba unpickles a whole index before comparing its stamp, so an index written
    before a module of the package moved or went (its pickled signatures name that
    module's types) raises ``ModuleNotFoundError`` instead of reading as stale. For
    files of ``plies`` such an index reads as empty (the next save overwrites it) and
    such a data file as missing (numba compiles anew).
    """
    from numba.core.caching import IndexDataCacheFile

    cache_file: Any = IndexDataCacheFile  # numba is untyped: set its methods as plain attributes
    if getattr(cache_file, "_plies_guarded", False):
        return
    load_index = cache_file._load_index
    load_data = cache_file._load_data
    save = cache_file.save

    def guarded_load_index(self: Any) -> Any:
        """numba's index load; an index that cannot be unpickled reads as empty."""
        try:
            return load_index(self)
        except _STALE_ERRORS:
            if not _is_own(self):
                raise
            return {}

    def guarded_load_data(self: Any, name: str) -> Any:
        """numba's data load; data that cannot be unpickled reads as a missing file."""
        try:
            return load_data(self, name)
        except _STALE_ERRORS as exc:
            if not _is_own(self):
                raise
            raise OSError(f"stale compile cache entry {name}: {exc}") from None

    def guarded_save(self: Any, key: Any, data: Any) -> None:
        """numba's save, skipped where the cache is only read (the code stays in memory)."""
        if os.path.normpath(str(self._cache_path)) in _READ_ONLY_DIRS:
            return
        save(self, key, data)

    cache_file._load_index = guarded_load_index
    cache_file._load_data = guarded_load_data
    cache_file.save = guarded_save
    cache_file._plies_guarded = True


def install() -> None:
    """Put the sources-keyed locator first in numba's list (once per process)."""
    from numba.core.caching import CacheImpl

    if SourcesKeyedLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, SourcesKeyedLocator)
    _guard_cache_files()
