"""The compile-cache policy: each compiled file keyed on itself and the plies modules it imports.

The unit tests read the real package's import graph; the end-to-end test runs
a copy of the package in fresh processes and asks numba whether a cached
function was loaded from the cache or compiled again after an edit.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plies import jitcache

CORE = jitcache.PACKAGE_DIR / "core"
COMPILED = jitcache.PACKAGE_DIR / "pathfinding" / "compiled"


def test_closure_follows_imports_down_and_never_up() -> None:
    search = jitcache.closure(CORE / "search.py")
    assert CORE / "evaluate.py" in search
    assert CORE / "movegen.py" in search
    assert CORE / "bits.py" in search  # imported indirectly too
    assert CORE / "search.py" not in jitcache.closure(CORE / "movegen.py")
    assert CORE / "position.py" not in jitcache.closure(CORE / "tables.py")
    assert jitcache.closure(CORE / "bits.py") == [CORE / "bits.py"]


def test_the_move_generator_is_not_keyed_on_the_evaluation() -> None:
    """An edit to the evaluation (classical, net or policy) recompiles the search, not the
    board's moves or perft."""
    evaluation = {CORE / name for name in ("evaluate.py", "weights.py", "layout.py",
                                           "nnue.py", "netfile.py", "static_eval.py")}  # fmt: skip
    for compiled in ("position.py", "movegen.py", "perft.py", "entry.py", "see.py"):
        assert not evaluation & set(jitcache.closure(CORE / compiled)), compiled
    assert evaluation <= set(jitcache.closure(CORE / "search.py"))


def test_relative_imports_are_followed() -> None:
    direct = jitcache.direct_imports(COMPILED / "searcher.py")
    assert any(path.parent == COMPILED for path in direct)


def _parsed_imports(path: Path) -> frozenset[Path]:
    """The oracle: the ``plies`` files ``path`` imports, from Python's own parser."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                anchor = jitcache._package_of(path).split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                module = ".".join([*anchor, module] if module else anchor)
            names = []
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                names.append(sub if jitcache._module_path(sub) else module)
        else:
            continue
        found.update(t for t in map(jitcache._module_path, names) if t is not None)
    found.discard(path)
    return frozenset(found)


def test_import_scan_agrees_with_the_parser_on_every_file() -> None:
    files = sorted(jitcache.PACKAGE_DIR.rglob("*.py"))
    assert len(files) > 100
    for path in files:
        assert jitcache.direct_imports(path) == _parsed_imports(path), path


def test_import_scan_reads_every_statement_form(tmp_path: Path) -> None:
    source = (
        "import plies.core.bits as b, plies.core.tt\n"
        "from plies.core import (\n    movegen,  # a comment\n    see as s,\n)\n"
        "def f():\n    from plies.core.tables import rook_attacks\n"
    )
    fake = tmp_path / "probe.py"
    fake.write_text(source)
    names = {p.name for p in jitcache.direct_imports(fake)}
    assert names == {"bits.py", "tt.py", "movegen.py", "see.py", "tables.py"}


def test_stamps_differ_between_files_and_are_stable() -> None:
    assert jitcache.sources_stamp(CORE / "search.py") != jitcache.sources_stamp(CORE / "bits.py")
    assert jitcache.sources_stamp(CORE / "bits.py") == jitcache.sources_stamp(CORE / "bits.py")


def test_locator_is_first_and_applies_to_plies_files_only() -> None:
    from numba.core.caching import CacheImpl

    import plies.core  # noqa: F401 - installs the locator

    assert CacheImpl._locator_classes[0] is jitcache.SourcesKeyedLocator
    assert jitcache.SourcesKeyedLocator.from_function(len, __file__) is None


_PROBE = """
import json, sys
import numpy as np
import plies.core
from plies.core import bits
bits.popcount(np.uint64(7))
print(json.dumps({"hits": sum(bits.popcount.stats.cache_hits.values()),
                  "misses": sum(bits.popcount.stats.cache_misses.values())}))
"""


def _probe(src: Path) -> dict[str, int]:
    """Run the probe on the package copy under ``src``; numba's cache hit/miss counts."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(src)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, int] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_an_edit_recompiles_only_what_imports_it(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(
        jitcache.PACKAGE_DIR, src / "plies", ignore=shutil.ignore_patterns("__pycache__")
    )
    core = src / "plies" / "core"
    assert _probe(src) == {"hits": 0, "misses": 1}  # empty cache: compiled
    assert _probe(src) == {"hits": 1, "misses": 0}  # loaded from the cache
    with (core / "search.py").open("a") as f:
        f.write("\n# an edit above bits.py: its cached code stays valid\n")
    assert _probe(src) == {"hits": 1, "misses": 0}
    with (core / "bits.py").open("a") as f:
        f.write("\n# an edit to bits.py itself\n")
    assert _probe(src) == {"hits": 0, "misses": 1}
    assert _probe(src) == {"hits": 1, "misses": 0}



STAMP = (jitcache.STAMP_TAG, "0")


def _write_index(path: Path, version: str, payload: bytes) -> None:
    """An index file as numba writes one: its version pickled, then the pickled payload."""
    with open(path, "wb") as f:
        pickle.dump(version, f)
        f.write(payload)


def _stale_cache(tmp_path: Path, own: bool) -> tuple[Any, bytes, bytes]:
    """A numba cache file object, and an index payload and data bytes naming a gone module.

    The module exists while they are pickled, as it did when an older plies wrote its
    cache, and is deleted before the test reads them.
    """
    from numba.core.caching import IndexDataCacheFile

    module_dir = tmp_path / "modules"
    module_dir.mkdir()
    (module_dir / "plies_gone_module.py").write_text("class Gone:\n    pass\n")
    sys.path.insert(0, str(module_dir))
    try:
        gone = importlib.import_module("plies_gone_module").Gone
        index = pickle.dumps((STAMP, {(gone,): "f.1.nbc"}))
        data = pickle.dumps(gone)
    finally:
        sys.path.remove(str(module_dir))
        sys.modules.pop("plies_gone_module", None)
        shutil.rmtree(module_dir)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    jitcache.install()
    if own:
        jitcache._OWN_CACHE_DIRS.add(os.path.normpath(str(cache_dir)))
    return IndexDataCacheFile(str(cache_dir), "f", STAMP), index, data


def test_an_index_naming_a_gone_module_reads_as_a_cache_miss(tmp_path: Path) -> None:
    """An index written before a module moved reads as empty for plies files: numba
    compiles anew and the next save overwrites it, instead of the import failing."""
    cache_file, index, _ = _stale_cache(tmp_path, own=True)
    _write_index(Path(cache_file._index_path), cache_file._version, index)
    assert cache_file._load_index() == {}
    assert cache_file.load(("any key",)) is None
    cache_file.save(("new",), b"compiled")
    assert cache_file._load_index() == {("new",): "f.1.nbc"}


def test_data_naming_a_gone_module_reads_as_missing(tmp_path: Path) -> None:
    """A sound index whose data file names a gone class: that entry is a miss."""
    cache_file, _, data = _stale_cache(tmp_path, own=True)
    _write_index(Path(cache_file._index_path), cache_file._version,
                 pickle.dumps((STAMP, {("plain",): "f.1.nbc"})))
    (tmp_path / "cache" / "f.1.nbc").write_bytes(data)
    assert cache_file.load(("plain",)) is None


def test_the_guard_leaves_other_packages_caches_alone(tmp_path: Path) -> None:
    """Cache files outside plies's directories keep numba's own behaviour."""
    cache_file, index, _ = _stale_cache(tmp_path, own=False)
    _write_index(Path(cache_file._index_path), cache_file._version, index)
    with pytest.raises(ModuleNotFoundError):
        cache_file._load_index()
