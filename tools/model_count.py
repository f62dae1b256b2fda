"""Count the kinds of things a player, a limit, a score and a report are, and the re-export
modules: ``python tools/model_count.py`` (``--json`` for a machine-readable answer).

Each concept is counted by the classes (or int mate scales) the package defines for it, by
name, read from the source with ``ast`` (nothing is imported, so a broken tree still counts):

- player protocols: the classes a chess player was written against (``Agent``, ``Player``,
  ``Mind``, ``LoadedMind``) and any other abstract class in ``plies.agents``;
- limit types: ``Budget``, ``Limit``, ``MoveRequest``, and ``GameSettings`` while it carries
  its own depth/node/time fields (settings that hold a ``Limit`` are rules, not a limit);
- score types: score classes defined in plies (python-chess's ``Cp``/``Mate`` re-used count
  once, under ``plies.engine.score``) and every int mate scale (``MATE_CP``);
- report types: ``Thought``, ``Info``, ``MoveReply`` and the search-result classes outside
  path finding (whose ``SearchResult`` is a path, another concept);
- UCI clients: modules outside the UCI server (``plies.uci``) that talk UCI to an engine
  (they wait for ``uciok`` or open python-chess's UCI client);
- re-export modules: modules other than a package's ``__init__`` whose body is only imports.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "plies"

PLAYER_NAMES = frozenset({"Agent", "Player", "Mind", "LoadedMind"})
LIMIT_NAMES = frozenset({"Budget", "Limit", "MoveRequest", "GameSettings"})
LIMIT_FIELDS = frozenset({"depth", "nodes", "movetime", "movetime_ms"})
REPORT_NAMES = frozenset({"Thought", "Info", "MoveReply", "SearchResult"})
SCORE_NAMES = frozenset({"Score", "Cp", "Mate", "PovScore"})
MATE_SCALES = frozenset({"MATE_CP"})
UCI_SERVER = "plies.uci"
PATH_FINDING = "plies.pathfinding"


@dataclass
class Counts:
    """Where each concept is defined, as ``module.Name`` strings."""

    player: list[str] = field(default_factory=list)
    limit: list[str] = field(default_factory=list)
    score: list[str] = field(default_factory=list)
    report: list[str] = field(default_factory=list)
    uci_client: list[str] = field(default_factory=list)
    reexport: list[str] = field(default_factory=list)


def module_name(path: Path, src: Path) -> str:
    """The dotted name of the module at ``path`` (a package by its own name)."""
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


ROOT_BASES = frozenset({"ABC", "Protocol", "Generic", "object"})
"""Bases that make a class a root of its own (an abstract class on another is a partial one)."""


def _is_protocol_root(node: ast.ClassDef) -> bool:
    """Whether ``node`` is an abstract class that extends no other class: a protocol of its
    own, not a partial implementation of one (an abstract search base on ``Player``)."""
    bases = {ast.unparse(base).split("[")[0].rsplit(".", 1)[-1] for base in node.bases}
    if not bases <= ROOT_BASES:
        return False
    if bases & {"ABC", "Protocol"}:
        return True
    return any(
        isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        and any("abstractmethod" in ast.unparse(d) for d in item.decorator_list)
        for item in node.body
    )


def _own_fields(node: ast.ClassDef) -> set[str]:
    """The annotated fields a class declares itself."""
    return {
        item.target.id
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }


def is_reexport(tree: ast.Module) -> bool:
    """Whether a module's body is only imports (besides its docstring and ``__all__``)."""
    own = [
        node
        for node in tree.body
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        and not isinstance(node, ast.Import | ast.ImportFrom)
        and not (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        )
    ]
    return not own and any(isinstance(node, ast.Import | ast.ImportFrom) for node in tree.body)


def _talks_uci(tree: ast.Module) -> bool:
    """Whether a module waits for an engine's ``uciok`` or opens python-chess's UCI client."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and str(node.value).strip() == "uciok":
            return True
        if isinstance(node, ast.Attribute) and node.attr in {"popen_uci", "SimpleEngine"}:
            return True
    return False


def _score_names(tree: ast.Module) -> list[str]:
    """The score classes a module defines, or imports from python-chess to be plies's own."""
    found = [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name in SCORE_NAMES
    ]
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "chess.engine":
            names = {alias.name for alias in node.names}
            if names & {"Cp", "Mate"}:
                found.append("Cp/Mate (python-chess's)")
    return found


def count(src: Path = SRC) -> Counts:
    """Count every concept over the package at ``src``."""
    counts = Counts()
    for path in sorted(src.rglob("*.py")):
        name = module_name(path, src)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.name != "__init__.py" and is_reexport(tree):
            counts.reexport.append(name)
        if not name.startswith(UCI_SERVER + ".") and name != UCI_SERVER and _talks_uci(tree):
            counts.uci_client.append(name)
        for node in tree.body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in MATE_SCALES:
                        counts.score.append(f"{name}.{target.id}")
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id in MATE_SCALES
            ):
                counts.score.append(f"{name}.{node.target.id}")
        if name != "plies.board" and not name.startswith("plies.board."):
            counts.score.extend(f"{name}.{n}" for n in _score_names(tree))
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            where = f"{name}.{node.name}"
            in_agents = name.startswith("plies.agents")
            if node.name in PLAYER_NAMES or (in_agents and _is_protocol_root(node)):
                counts.player.append(where)
            if node.name in LIMIT_NAMES and (
                node.name != "GameSettings" or _own_fields(node) & LIMIT_FIELDS
            ):
                counts.limit.append(where)
            if node.name in REPORT_NAMES and not name.startswith(PATH_FINDING):
                counts.report.append(where)
    return counts


def main(argv: list[str] | None = None) -> int:
    """Print the counts (one line per concept, with where each is defined)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    counts = count()
    if args.json:
        print(json.dumps(counts.__dict__, indent=2))
        return 0
    labels = {
        "player": "player protocols",
        "limit": "limit types",
        "score": "score types",
        "report": "report types",
        "uci_client": "UCI clients",
        "reexport": "re-export modules",
    }
    for key, label in labels.items():
        found: list[str] = getattr(counts, key)
        print(f"{label:18} {len(found):2}  {', '.join(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
