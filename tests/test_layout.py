"""The package's layout: no import cycles (the compiled core included), a compiled layer
that imports nothing above it, a documented ``__init__`` in every package."""

from __future__ import annotations

import ast
from pathlib import Path

import plies

SRC = Path(plies.__file__).resolve().parent

def _modules() -> dict[str, Path]:
    """Every module of plies by dotted name (a package by its own name)."""
    found = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The plies modules ``name`` imports when it runs (lazy imports too; not TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:
                    found.add(full)
                elif base in modules:
                    found.add(base)
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a loop (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        """Number ``node`` and close the group it roots, if any."""
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_the_package_has_no_import_cycles() -> None:
    """No module imports one that imports it back, the compiled core included."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    """A two-module loop and a three-module loop are found; a chain is not."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_cycles(graph)) == [["a", "b"], ["c", "d", "e"]]


COMPILED_SYZYGY = frozenset(
    f"plies.syzygy.{name}" for name in ("format", "tables", "decode", "probe", "dtz")
)
"""The tablebase modules compiled beside the core (the search probes through them)."""


def _compiled(name: str) -> bool:
    """Whether ``name`` is in the compiled layer: the core, or the compiled tablebase probe."""
    return name == "plies.core" or name.startswith("plies.core.") or name in COMPILED_SYZYGY


def test_the_compiled_layer_imports_nothing_above_it() -> None:
    """The core and the compiled tablebase probe import only each other and plies modules
    that import no plies module themselves (``jitcache``, ``params``): never the board, the
    engine or the tablebase's Python side."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    leaves = {name for name, found in graph.items() if not found}
    upward = sorted(
        (name, other)
        for name in graph
        if _compiled(name)
        for other in graph[name]
        if not _compiled(other) and other not in leaves
    )
    assert upward == []
    assert set(modules) >= COMPILED_SYZYGY


def test_every_package_has_a_documented_init() -> None:
    """Each folder of modules is a package whose ``__init__`` says what lives there."""
    for folder in sorted({path.parent for path in SRC.rglob("*.py")}):
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder} has no __init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} has no docstring"


def _only_imports(tree: ast.Module) -> bool:
    """Whether a module's body is nothing but imports (after its docstring and __all__)."""
    body = [
        node for node in tree.body
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        and not (isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__")
    ]  # fmt: skip
    return bool(body) and all(isinstance(n, ast.Import | ast.ImportFrom) for n in body)


def test_no_module_only_passes_names_on() -> None:
    """A module that only re-exports another's names is a second address for one thing:
    importers take a name from where it is defined (a package's ``__init__`` may gather)."""
    passing_on = sorted(
        name for name, path in _modules().items()
        if path.name != "__init__.py"
        and _only_imports(ast.parse(path.read_text(encoding="utf-8")))
    )  # fmt: skip
    assert passing_on == []


def test_the_re_export_finder_finds_one() -> None:
    """The check above tells an import-only module from one that defines something."""
    assert _only_imports(ast.parse('"""Doc."""\nfrom a import b as b\n__all__ = ["b"]\n'))
    assert not _only_imports(ast.parse("from a import b\n\ndef f() -> None:\n    b()\n"))
    assert not _only_imports(ast.parse('"""Only a docstring."""\n'))


def test_every_package_has_its_tests_folder() -> None:
    """``src/plies/X/`` is tested in ``tests/X/``: a package nobody tests is found at once."""
    tests = Path(__file__).resolve().parent
    packages = sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").is_file())
    assert packages, "no packages found"
    missing = [name for name in packages if not (tests / name).is_dir()]
    assert missing == []
