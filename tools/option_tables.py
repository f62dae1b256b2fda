"""Rewrite the UCI option tables of the README and the docs from ``plies.options``.

Every Markdown table whose header is ``| option | type | default | range | what it does |``
is replaced by ``plies.options.markdown_table`` of the option set it lists (the
``plies uci --tune`` parameters when its first row is one of them, else the
options every GUI sees). ``tests/test_option_tables.py`` fails while a copy differs.

Usage: ``python tools/option_tables.py`` (rewrite), ``--check`` (exit 1 if any differs).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from plies.options import OPTIONS, TUNE_OPTIONS, markdown_table  # noqa: E402

FILES = ("README.md", "docs/engine.md", "docs/architecture.md")
"""The pages that carry an option table."""
HEADER = ("option", "type", "default", "range", "what it does")
"""The header cells that mark an option table."""


def cells(line: str) -> tuple[str, ...]:
    """The stripped cells of a Markdown table row."""
    return tuple(c.strip() for c in line.strip().strip("|").split("|"))


def tables(lines: list[str]) -> list[tuple[int, int]]:
    """(first, past-last) line indexes of every option table in ``lines``."""
    found = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and cells(lines[i]) == HEADER:
            j = i + 1
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            found.append((i, j))
            i = j
        else:
            i += 1
    return found


def expected(table: list[str]) -> list[str]:
    """The generated table for the option set that ``table`` lists."""
    tune_names = {f"`{o.name}`" for o in TUNE_OPTIONS}
    first = cells(table[2])[0] if len(table) > 2 else ""
    return markdown_table(TUNE_OPTIONS if first in tune_names else OPTIONS)


def rewrite(text: str) -> str:
    """``text`` with every option table regenerated."""
    lines = text.split("\n")
    for start, end in reversed(tables(lines)):
        lines[start:end] = expected(lines[start:end])
    return "\n".join(lines)


def main() -> int:
    """Rewrite the tables (or with ``--check`` report the pages that differ)."""
    check = "--check" in sys.argv[1:]
    stale = []
    for name in FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            stale.append(name)
            if not check:
                path.write_text(new, encoding="utf-8")
    verb = "differ" if check else "rewritten"
    print(f"option tables {verb}: {', '.join(stale) or 'none'}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
