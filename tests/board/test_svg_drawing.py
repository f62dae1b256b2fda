"""The SVG board: every square clickable by name, pieces where the board has them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from plies.board import Board, square_name
from plies.board.svg import MARGIN, SQUARE, render_board

SVG = "{http://www.w3.org/2000/svg}"


def squares(svg: str) -> dict[str, ET.Element]:
    """The square rects of a picture, by name."""
    root = ET.fromstring(svg)
    return {r.get("data-square", ""): r for r in root.iter(SVG + "rect") if r.get("data-square")}


def test_sixty_four_named_squares_and_every_piece() -> None:
    """The start position: 64 named squares, 32 pieces on their squares, White at the bottom."""
    svg = render_board(Board())
    named = squares(svg)
    assert len(named) == 64
    assert named["a1"].get("x") == str(MARGIN) and named["a1"].get("y") == str(MARGIN + 7 * SQUARE)
    placed = {at: piece for piece, at in re.findall(r'data-piece="(\w)" data-at="(\w\d)"', svg)}
    assert placed == {square_name(sq): p.symbol() for sq, p in Board().piece_map().items()}


def test_flipped_board_puts_black_at_the_bottom() -> None:
    """Flipped, h8 sits where a1 was."""
    named = squares(render_board(Board(), flipped=True))
    assert named["h8"].get("x") == str(MARGIN) and named["h8"].get("y") == str(MARGIN + 7 * SQUARE)


def test_last_move_and_check_are_marked() -> None:
    """The squares of the last move and a king in check carry their classes."""
    board = Board()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        board.push_uci(move)
    named = squares(render_board(board, last_move=board.move_stack[-1]))
    assert "lastmove" in named["d8"].get("class", "") and "lastmove" in named["h4"].get("class", "")
    assert "check" in named["e1"].get("class", "")
    assert "check" not in named["e8"].get("class", "")
