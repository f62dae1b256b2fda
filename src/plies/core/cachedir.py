"""Key numba's on-disk cache on a hash of every source file of the compiled core.

numba re-compiles a cached function only when the file defining it changes, so
an edit to a callee in another file (``evaluate.py`` under ``search.py``) would
leave callers running stale code. ``configure`` runs before any core module is
imported and points numba (``NUMBA_CACHE_DIR``) at a directory named after the
hash of all ``core/*.py`` files, so any edit anywhere in the core starts a
fresh cache; the scheme is described in the package docstring of
``plies.core``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, MutableMapping
from pathlib import Path

ENV = "NUMBA_CACHE_DIR"
"""numba's variable naming its cache directory."""
MARK = "PLIES_NUMBA_CACHE_DIR"
"""The value plies gave ENV, so that a child process can tell it from a user's own."""
PREFIX = "plies-numba-"
"""Name prefix of the per-hash cache directories."""
STAMP = "plies-sources.sha256"
"""File recording the sources hash in a user's own cache directory."""
_MARKER = ".pid-"
_WINDOWS_MARKER_LIFE = 86400.0

CORE_DIR = Path(os.path.dirname(os.path.abspath(__file__)))
"""The directory of the compiled core (as numba names it: absolute, links kept)."""


def sources_hash(core_dir: Path = CORE_DIR) -> str:
    """Hex digest (16 digits) of the names and contents of every ``*.py`` file in ``core_dir``."""
    digest = hashlib.sha256()
    for path in sorted(core_dir.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def default_bases(core_dir: Path = CORE_DIR) -> list[Path]:
    """Where per-hash directories may live: beside the sources, else the user's cache."""
    user = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [core_dir / "__pycache__", Path(user) / "plies"]


def numba_subdir(cache_dir: Path, core_dir: Path = CORE_DIR) -> Path:
    """The directory numba uses for ``core_dir``'s functions inside ``cache_dir``."""
    hashed = hashlib.sha1(str(core_dir).encode()).hexdigest()
    return cache_dir / f"{core_dir.name}_{hashed}"


def _writable(path: Path) -> bool:
    """Create ``path`` if needed and check that a file can be written in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _alive(marker: Path) -> bool:
    """Whether the process that left ``marker`` (``.pid-N``) may still be running."""
    if os.name == "nt":
        # os.kill would terminate the process on Windows: trust recent markers instead.
        try:
            return time.time() - marker.stat().st_mtime < _WINDOWS_MARKER_LIFE
        except OSError:
            return False
    try:
        pid = int(marker.name[len(_MARKER) :])
    except ValueError:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _in_use(directory: Path) -> bool:
    """Whether a live process uses ``directory`` (left a marker and still runs)."""
    with contextlib.suppress(OSError):
        return any(_alive(marker) for marker in directory.glob(_MARKER + "*"))
    return False


def _claim(directory: Path) -> None:
    """Mark ``directory`` as used by this process and drop the markers of dead ones."""
    with contextlib.suppress(OSError):
        for marker in directory.glob(_MARKER + "*"):
            if not _alive(marker):
                marker.unlink(missing_ok=True)
        (directory / f"{_MARKER}{os.getpid()}").touch()


def _remove_stale(base: Path, tag: str, keep: Path) -> None:
    """Delete this install's per-hash directories for other sources, unless in use."""
    with contextlib.suppress(OSError):
        for directory in base.glob(f"{PREFIX}{tag}-*"):
            if directory != keep and not _in_use(directory):
                shutil.rmtree(directory, ignore_errors=True)
        # Files of numba's own per-file scheme, from before this one.
        if base.name == "__pycache__":
            for pattern in ("*.nbi", "*.nbc"):
                for old in base.glob(pattern):
                    old.unlink(missing_ok=True)


def purge_if_changed(cache_dir: Path, digest: str, core_dir: Path = CORE_DIR) -> bool:
    """In a user's own cache directory, delete the core's cached code if the sources changed.

    Returns True when files were purged. The hash of the sources the cached code
    was compiled from is kept in a stamp file beside numba's index files.
    """
    sub = numba_subdir(cache_dir, core_dir)
    stamp = sub / STAMP
    try:
        if stamp.read_text(encoding="ascii").strip() == digest:
            return False
    except OSError:
        pass
    purged = False
    with contextlib.suppress(OSError):
        for pattern in ("*.nbi", "*.nbc"):
            for old in sub.glob(pattern):
                old.unlink(missing_ok=True)
                purged = True
        sub.mkdir(parents=True, exist_ok=True)
        # Written whole then renamed, so a concurrent reader never sees half a hash.
        temporary = sub / f"{STAMP}.{os.getpid()}"
        temporary.write_text(digest + "\n", encoding="ascii")
        os.replace(temporary, stamp)
    return purged


def configure(
    core_dir: Path = CORE_DIR,
    environ: MutableMapping[str, str] | None = None,
    bases: Iterable[Path] | None = None,
) -> Path | None:
    """Point numba at the cache directory for the current core sources; return it.

    A ``NUMBA_CACHE_DIR`` the user set is kept (only purged when the sources
    changed); one inherited from a parent plies process is replaced by this
    process's own. Returns None when no location is writable (numba then uses
    its defaults).
    """
    env = os.environ if environ is None else environ
    digest = sources_hash(core_dir)
    given = env.get(ENV)
    if given and given != env.get(MARK):
        purge_if_changed(Path(given), digest, core_dir)
        return Path(given)
    tag = hashlib.sha1(str(core_dir).encode()).hexdigest()[:8]
    for base in default_bases(core_dir) if bases is None else bases:
        target = base / f"{PREFIX}{tag}-{digest}"
        if _writable(target):
            _claim(target)
            _remove_stale(base, tag, target)
            env[ENV] = env[MARK] = str(target)
            _reload_numba_config(env)
            return target
    if given:
        # Inherited from a parent plies process for other sources: do not use it.
        del env[ENV]
        _reload_numba_config(env)
    return None


def _reload_numba_config(env: MutableMapping[str, str]) -> None:
    """Make an already imported numba read the new cache directory."""
    config = sys.modules.get("numba.core.config")
    if config is not None and env is os.environ:
        config.reload_config()
