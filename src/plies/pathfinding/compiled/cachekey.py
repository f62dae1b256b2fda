"""Keep numba's on-disk cache of the compiled grid searches in step with their sources.

numba keys each cached function on the stamp of its own file, so editing a
helper (say ``heap.py``) leaves its callers' cached machine code stale.
This module hashes every source file of the package; when the hash differs
from the one recorded beside the cache, it deletes the package's cached
``.nbi``/``.nbc`` files so everything recompiles once.  When
``NUMBA_CACHE_DIR`` is set (by the user, or by ``plies.core.cachedir``, which
``import plies`` always runs first), the package's files live in numba's
subdirectory for this folder there, and that subdirectory is purged instead.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_STAMP = "plies_pathfinding_sources.sha1"


def sources_hash(folder: Path = _HERE) -> str:
    """SHA-1 over the names and contents of the package's ``.py`` files."""
    digest = hashlib.sha1()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def purge_stale_cache(folder: Path = _HERE) -> bool:
    """Delete this package's numba cache files if the sources changed; True if it did."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        # Deferred: plies.core imports numba, and this module is imported first.
        from plies.core.cachedir import purge_if_changed

        return purge_if_changed(Path(given), sources_hash(folder), folder)
    cache = folder / "__pycache__"
    stamp = cache / _STAMP
    current = sources_hash(folder)
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for path in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            path.unlink()
        stamp.write_text(current)
    except OSError:
        return False  # a read-only install: numba falls back to its own checks
    return True
