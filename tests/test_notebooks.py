"""The notebooks in notebooks/: saved executed, listed in the docs, and still running today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# Longest a single cell may run (seconds) before the run counts as hung.
_CELL_TIMEOUT = 300

nbformat = pytest.importorskip("nbformat")


def _kinds(cell: dict[str, object]) -> list[str]:
    """Return what a code cell's outputs are: stream names, mime types, errors."""
    out = []
    for output in cell.get("outputs", []):  # type: ignore[attr-defined]
        kind = output["output_type"]
        if kind == "stream":
            continue  # stderr notices (a first compile) come and go
        if kind == "error":
            out.append(f"error {output['ename']}")
        else:
            out.append(" ".join(sorted(output["data"])))
    return out


def test_there_are_notebooks() -> None:
    """The chapters exist."""
    names = {p.stem for p in NOTEBOOKS}
    assert {"pathfinding", "game-search", "engine", "chess-ladder"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_saved_executed_without_errors_and_in_the_docs(path: Path) -> None:
    """Every code cell ran (the docs show the saved outputs) and none failed; the page is in nav."""
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code
    assert all(c.execution_count is not None for c in code), "save the notebook executed"
    assert not any(k.startswith("error") for c in code for k in _kinds(c))
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(rf":\s*notebooks/{re.escape(path.name)}\s*$", nav, re.M)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_shows_what_it_was_saved_with(path: Path) -> None:
    """Run afresh: no cell fails, and each cell's outputs are of the kinds saved (pictures stay)."""
    nbclient = pytest.importorskip("nbclient")
    saved = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        fresh, timeout=_CELL_TIMEOUT, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    for before, after in zip(saved.cells, fresh.cells, strict=True):
        if before.cell_type == "code":
            assert _kinds(after) == _kinds(before), before.source
