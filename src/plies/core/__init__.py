"""The compiled chess core: plain numba functions over numpy arrays.

Nothing here is called per search node from Python: the Python layers call in a
few times per user action. See ``types`` for the move and position layouts.

The compiled cache is keyed on all core sources (``cachedir``). numba caches
each ``cache=True`` function keyed on the file that defines it only, so a
cached ``search`` would keep running an old ``evaluate`` after ``evaluate.py``
changed. Importing this package therefore, before any numba function is
defined:

1. hashes the names and contents of every ``core/*.py`` file (16 hex digits);
2. sets ``NUMBA_CACHE_DIR`` to ``core/__pycache__/plies-numba-<path>-<hash>``
   (``<path>`` tells installs apart), or, when the install is read-only, to
   ``$XDG_CACHE_HOME/plies/plies-numba-<path>-<hash>`` (``~/.cache/plies/...``).
   Any edit to any core file thus starts an empty cache (one full compile),
   and an unchanged core loads everything from the cache;
3. deletes this install's directories for other hashes, except those a
   running process still uses (each process leaves a ``.pid-N`` marker in its
   directory; dead processes' markers do not count), so old caches do not
   pile up and a long-running engine never loses its cache under it.

A ``NUMBA_CACHE_DIR`` the user set is respected: there plies keeps the hash of
the sources in ``plies-sources.sha256`` beside its files and deletes its own
``.nbi``/``.nbc`` files when the hash changes. A ``NUMBA_CACHE_DIR`` inherited
from a parent plies process (recognised by ``PLIES_NUMBA_CACHE_DIR``) is
replaced, since the child may run other sources. numba's writes are atomic
renames, so processes sharing a directory do not corrupt it.
"""

from plies.core.cachedir import configure

configure()
