"""The options table: its Markdown rendering, and the copy of it in the docs."""

from __future__ import annotations

from pathlib import Path

from plies.options import OPTIONS, markdown_table

DOCS = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def test_every_option_has_help_and_a_well_formed_row() -> None:
    """Each option says what it does; spins carry their range."""
    rows = markdown_table(OPTIONS)[2:]
    assert len(rows) == len(OPTIONS) == len({o.name.lower() for o in OPTIONS})
    for option, row in zip(OPTIONS, rows, strict=True):
        assert option.help and row.startswith(f"| `{option.name}` | {option.type} |")
        if option.type == "spin":
            assert f"| {option.minimum}-{option.maximum} |" in row


def test_the_docs_table_is_the_options_table() -> None:
    """docs/architecture.md lists the options exactly as the table declares them."""
    table = "\n".join(markdown_table(OPTIONS))
    assert table in DOCS.read_text(encoding="utf-8")
