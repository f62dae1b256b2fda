"""Compiled code passes no bare literal to a compiled function that is not inlined.

numba types a constant argument (``True``, ``0``) as a literal and compiles a
separate copy of the callee, and of everything below it, for each value: two
such calls of the move generator from the tablebase probe once added two whole
move generators to every first-run compile. ``np.bool_(True)`` and ``np.int64(0)``
carry plain types. The few callees specialised per value on purpose are listed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import plies

PACKAGE = Path(plies.__file__).resolve().parent
COMPILERS = frozenset({"njit", "jit"})
"""Decorators (and wrapping calls) that make a compiled function."""
SPECIALISED = frozenset({"_generate", "_fill"})
"""Compiled per literal value on purpose: the move generator once listing and once
counting (each folds the other's code away), and the table decoder's small ``_fill``
(a fraction of a second each)."""


def _compiler_call(node: ast.expr) -> ast.Call | None:
    """The ``njit(...)`` call of a decorator or wrapper, if ``node`` is one."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in COMPILERS:
            return node
    elif getattr(node, "id", getattr(node, "attr", "")) in COMPILERS:
        return ast.Call(func=node, args=[], keywords=[])
    return None


def _inlined(call: ast.Call) -> bool:
    """Whether a compiler call asks for ``inline="always"``."""
    return any(k.arg == "inline" and getattr(k.value, "value", None) == "always"
               for k in call.keywords)  # fmt: skip


def _module_name(path: Path) -> str:
    """``plies.x.y`` of a file of the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _compiled(tree: ast.Module) -> dict[str, tuple[ast.FunctionDef | None, bool]]:
    """This module's compiled functions: name -> (definition, inlined)."""
    found: dict[str, tuple[ast.FunctionDef | None, bool]] = {}
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                call = _compiler_call(decorator)
                if call is not None:
                    found[node.name] = (node, _inlined(call))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            # ``name = njit(...)(function)``: a second compiled copy of ``function``.
            outer = node.value
            call = _compiler_call(outer.func) if isinstance(outer.func, ast.Call) else None
            if call is not None and outer.args and isinstance(outer.args[0], ast.Name):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = (defs.get(outer.args[0].id), _inlined(call))
    return found


def _literal(arg: ast.expr) -> bool:
    """Whether ``arg`` is a bare number or boolean (``-1`` included)."""
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
        arg = arg.operand
    return isinstance(arg, ast.Constant) and isinstance(arg.value, (bool, int, float))


def _violations() -> list[str]:
    """Every call in compiled code passing a bare literal to a compiled, not inlined function."""
    trees = {_module_name(p): ast.parse(p.read_text(encoding="utf-8"))
             for p in sorted(PACKAGE.rglob("*.py"))}  # fmt: skip
    compiled = {name: _compiled(tree) for name, tree in trees.items()}
    found = []
    for module, tree in trees.items():
        # What each name of this module refers to: its own functions, imported ones, modules.
        names: dict[str, tuple[str, str]] = {n: (module, n) for n in compiled[module]}
        modules: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    local = alias.asname or alias.name
                    if f"{node.module}.{alias.name}" in trees:
                        modules[local] = f"{node.module}.{alias.name}"
                    elif alias.name in compiled.get(node.module, {}):
                        names[local] = (node.module, alias.name)
        for caller, (definition, _) in compiled[module].items():
            if definition is None:
                continue
            for call in ast.walk(definition):
                if not isinstance(call, ast.Call):
                    continue
                func = call.func
                target = None
                if isinstance(func, ast.Name):
                    target = names.get(func.id)
                elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    owner = modules.get(func.value.id)
                    if owner is not None and func.attr in compiled[owner]:
                        target = (owner, func.attr)
                if target is None or target[1] in SPECIALISED:
                    continue
                if compiled[target[0]][target[1]][1]:
                    continue  # inlined: typed again at each call site anyway
                if any(_literal(a) for a in call.args):
                    found.append(f"{module}.{caller} line {call.lineno}: "
                                 f"{target[0]}.{target[1]}(...) with a literal")  # fmt: skip
    return found


def test_no_compiled_call_passes_a_bare_literal() -> None:
    assert _violations() == []


def test_the_check_sees_a_literal_call() -> None:
    tree = ast.parse("@njit(cache=True)\ndef f(x):\n    return x\n")
    assert "f" in _compiled(tree) and not _compiled(tree)["f"][1]
    assert _literal(ast.parse("g(True)").body[0].value.args[0])  # type: ignore[attr-defined]
    assert not _literal(ast.parse("g(np.bool_(True))").body[0].value.args[0])  # type: ignore[attr-defined]
