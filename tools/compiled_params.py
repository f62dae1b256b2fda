"""Compiled functions by parameter count: ``python tools/compiled_params.py [--over N] [PATH ...]``.

A function counts as compiled when a decorator names ``njit``, ``jit`` or
``register_jitable``. The rule the core keeps is one argument per concept:
more than a handful of parameters usually means loose arrays that belong in
one structref.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

COMPILERS = frozenset({"njit", "jit", "register_jitable"})
"""Decorator names that make a function compiled."""
ROOT = Path(__file__).resolve().parent.parent / "src" / "plies"
"""The package scanned when no path is given."""


def _decorator_name(node: ast.expr) -> str:
    """The bare name of a decorator (``njit`` for ``@njit(cache=True)`` or ``@numba.njit``)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def compiled_functions(path: Path) -> list[tuple[str, int, int]]:
    """``(name, line, parameter count)`` of every compiled function defined in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
            _decorator_name(d) in COMPILERS for d in node.decorator_list
        ):
            a = node.args
            count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
            count += (a.vararg is not None) + (a.kwarg is not None)
            found.append((node.name, node.lineno, count))
    return found


def main() -> None:
    """Print every compiled function over ``--over`` parameters and the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT])
    parser.add_argument("--over", type=int, default=8, help="list functions above this count")
    args = parser.parse_args()
    files = sorted(f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*.py")))
    total = 0
    over = []
    for f in files:
        for name, line, count in compiled_functions(f):
            total += 1
            if count > args.over:
                over.append((count, f"{f}:{line}", name))
    for count, where, name in sorted(over, reverse=True):
        print(f"{count:3d}  {where}  {name}")
    print(f"{len(over)} of {total} compiled functions take more than {args.over} parameters")


if __name__ == "__main__":
    main()
