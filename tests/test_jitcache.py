"""The compile-cache policy: each compiled file keyed on itself and the plies modules it imports.

The unit tests read the real package's import graph; the end-to-end test runs
a copy of the package in fresh processes and asks numba whether a cached
function was loaded from the cache or compiled again after an edit.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

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
