"""The weights module (``core/weights.py``): write it from weight vectors, read it back."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from types import ModuleType

import numpy as np

from plies.core.layout import N_FEATURES, OFFSET, TABLES, Table

_HEADER = '''"""Evaluation weights in centipawns, middlegame (``_MG``) and endgame (``_EG``).

{written}
The layout (which tables, their order and index meaning) is ``plies.core.layout``;
``core/evaluate.py`` compiles these numbers in, and ``core/trace.py`` counts how
often each is used. Fixed, not tuned: the king-attack danger (units squared,
capped), the endgame scale factors and the game-phase weights (``core/evaluate.py``).
"""
'''


class WeightsFileError(ValueError):
    """A weights module that does not hold every table of the layout."""


def _format_values(table: Table, values: np.ndarray) -> str:
    """The right-hand side of one constant: an int, or a tuple wrapped in rows."""
    if table.size == 1:
        return str(int(values[0]))
    if table.size <= 10:
        return "(" + ", ".join(str(int(v)) for v in values) + ")"
    width = 8 if table.size == 64 else 10
    rows = []
    for start in range(0, table.size, width):
        rows.append("    " + " ".join(f"{int(v):4d}," for v in values[start : start + width]))
    return "(\n" + "\n".join(rows) + "\n)"


def format_weights(mg: np.ndarray, eg: np.ndarray, tempo: int, note: str) -> str:
    """Source text of a weights module holding ``mg``/``eg`` (feature order) and ``tempo``."""
    if len(mg) != N_FEATURES or len(eg) != N_FEATURES:
        raise ValueError(f"expected {N_FEATURES} weights per phase, got {len(mg)} and {len(eg)}")
    written = textwrap.fill(f"Written by ``plies tune``: {note}.", width=88)
    parts = [_HEADER.format(written=written), f"TEMPO = {int(tempo)}\n"]
    for table in TABLES:
        at = OFFSET[table.name]
        parts.append(f"\n# {table.doc}")
        for suffix, values in (("MG", mg), ("EG", eg)):
            text = _format_values(table, values[at : at + table.size])
            parts.append(f"{table.name}_{suffix} = {text}")
    return "\n".join(parts) + "\n"


def _vectors(lookup: dict[str, object], source: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Weight vectors from a name -> value mapping; WeightsFileError if anything is off."""
    mg = np.zeros(N_FEATURES, dtype=np.int64)
    eg = np.zeros(N_FEATURES, dtype=np.int64)
    for table in TABLES:
        at = OFFSET[table.name]
        for suffix, out in (("MG", mg), ("EG", eg)):
            name = f"{table.name}_{suffix}"
            value = lookup.get(name)
            values = (value,) if table.size == 1 else value
            if not isinstance(values, tuple) or len(values) != table.size:
                raise WeightsFileError(f"{source}: {name} must hold {table.size} integers")
            if not all(isinstance(v, int) for v in values):
                raise WeightsFileError(f"{source}: {name} must hold integers")
            out[at : at + table.size] = values
    tempo = lookup.get("TEMPO")
    if not isinstance(tempo, int):
        raise WeightsFileError(f"{source}: TEMPO must be an integer")
    return mg, eg, tempo


def read_weights(path: str | Path) -> tuple[np.ndarray, np.ndarray, int]:
    """(mg, eg, tempo) of a weights module file, parsed without running it."""
    source = str(path)
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=source)
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise WeightsFileError(f"{source}: cannot read ({exc})") from None
    lookup: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    lookup[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
    return _vectors(lookup, source)


def module_weights(module: ModuleType) -> tuple[np.ndarray, np.ndarray, int]:
    """(mg, eg, tempo) of an imported weights module (the shipped one by default)."""
    return _vectors(vars(module), module.__name__)


def write_weights(path: str | Path, mg: np.ndarray, eg: np.ndarray, tempo: int, note: str) -> None:
    """Write a weights module to ``path`` (whole, through a temporary file)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(format_weights(mg, eg, tempo, note), encoding="utf-8")
    tmp.replace(target)
