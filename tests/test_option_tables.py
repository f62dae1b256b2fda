"""The UCI option tables of the README and the docs agree with ``plies.options`` in every column."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from plies.options import OPTIONS, TUNE_OPTIONS, markdown_table

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/engine.md", "docs/architecture.md")


def load_tool() -> ModuleType:
    """``tools/option_tables.py`` (the generator) as a module."""
    spec = importlib.util.spec_from_file_location("option_tables", ROOT / "tools/option_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("option_tables", module)
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()


def rows(lines: list[str]) -> list[tuple[str, ...]]:
    """The data rows of a table (header and separator dropped) as cell tuples."""
    return [TOOL.cells(line) for line in lines[2:]]


@pytest.mark.parametrize("page", PAGES)
def test_every_option_table_matches_options_py(page: str) -> None:
    """Each option table lists exactly the declared options, cell for cell."""
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    found = TOOL.tables(lines)
    assert found, f"{page} has no option table"
    for start, end in found:
        table = lines[start:end]
        want = rows(TOOL.expected(table))
        got = rows(table)
        for k, (g, w) in enumerate(zip(got, want, strict=False)):
            assert g == w, f"{page} line {start + 3 + k}: {g} differs from options.py's {w}"
        assert len(got) == len(want), f"{page} line {start + 1}: {len(got)} rows, want {len(want)}"


def test_the_gui_options_appear_on_every_page() -> None:
    """Every page carries the full table of the options a GUI sees."""
    gui = rows(markdown_table(OPTIONS))
    for page in PAGES:
        lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
        assert any(rows(lines[a:b]) == gui for a, b in TOOL.tables(lines)), page


def test_a_changed_cell_is_caught() -> None:
    """The comparison sees a one-cell change (a default), so the test above can fail."""
    table = markdown_table(OPTIONS)
    changed = [table[0], table[1], table[2].replace("| 64 |", "| 32 |"), *table[3:]]
    assert rows(changed) != rows(TOOL.expected(changed))
    assert TOOL.rewrite("\n".join(changed)) == "\n".join(table)


def test_tune_table_is_generated_from_the_parameters() -> None:
    """The ``--tune`` table in docs/engine.md is the parameters' own table."""
    lines = (ROOT / "docs/engine.md").read_text(encoding="utf-8").split("\n")
    tune = rows(markdown_table(TUNE_OPTIONS))
    assert any(rows(lines[a:b]) == tune for a, b in TOOL.tables(lines))
