"""The project's test tables: every 3- and 4-man Syzygy table, and copies of a chosen few."""

from __future__ import annotations

import shutil
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy"
"""Every 3- and 4-man WDL and DTZ table (``tests/data/README.md``)."""


def copy_tables(names: list[str], into: Path) -> Path:
    """Writable copies of the named table files in ``into`` (a set with chosen holes)."""
    into.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(DATA / name, into / name)
    return into
