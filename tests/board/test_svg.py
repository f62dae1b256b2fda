"""The board's own SVG: what Jupyter shows for a ``Board`` and what the web app draws."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

from plies.board import Board

SVG = "{http://www.w3.org/2000/svg}"


def test_repr_svg_is_a_standalone_picture_of_the_position() -> None:
    """Well-formed SVG with a size, its colours, one piece per piece and the last move marked."""
    board = Board()
    board.push_san("e4")
    root = ET.fromstring(board._repr_svg_())
    assert root.get("width") and root.get("height")
    assert "fill:#f0d9b5" in "".join(s.text or "" for s in root.iter(f"{SVG}style"))
    pieces = [u for u in root.iter(f"{SVG}use") if u.get("class") == "piece"]
    assert len(pieces) == 32
    assert {u.get("data-at") for u in pieces if u.get("data-piece") == "P"} >= {"e4"}
    marked = [r.get("data-square") for r in root.iter(f"{SVG}rect")
              if "lastmove" in (r.get("class") or "")]
    assert sorted(marked) == ["e2", "e4"]


def test_web_drawing_has_no_style_of_its_own() -> None:
    """The web app's board takes its colours from the page, as before."""
    from plies.board.svg import render_board

    assert "<style>" not in render_board(Board())


def test_importing_the_board_loads_no_drawing_or_notebook_code() -> None:
    """``import plies.board`` stays light: the SVG module and IPython load only when drawn."""
    code = (
        "import sys, plies.board; "
        "print(any(m in sys.modules for m in ('plies.board.svg', 'chess.svg', 'IPython')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
