"""Jupyter pictures of the built-in games' states and of a search tree."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from plies.games.alphabeta import alphabeta
from plies.games.connect4 import Connect4
from plies.games.minimax import minimax
from plies.games.searchtree import search_tree
from plies.games.spec import load_game, play_line
from plies.games.tictactoe import TicTacToe

SVG = "{http://www.w3.org/2000/svg}"


def test_tictactoe_state_shows_its_marks() -> None:
    """Two crosses (two strokes each in one path) and one nought, on a 4 x 3 board."""
    game = TicTacToe(4, 3, 3)
    state = play_line(game, "a1 b2 d3")
    root = ET.fromstring(state._repr_svg_())
    assert len(list(root.iter(f"{SVG}path"))) == 2
    assert len(list(root.iter(f"{SVG}circle"))) == 1
    cells = [r for r in root.iter(f"{SVG}rect") if r.get("stroke")]
    assert len(cells) == 12
    labels = {t.text for t in root.iter(f"{SVG}text")}
    assert {"a", "d", "1", "3"} <= labels


def test_connect4_state_shows_its_discs() -> None:
    """Every cell a circle; X's discs in one colour, O's in another, on a 6 x 5 board."""
    game = Connect4(6, 5)
    state = play_line(game, "1 1 2")
    fills = [c.get("fill") for c in ET.fromstring(state._repr_svg_()).iter(f"{SVG}circle")]
    assert len(fills) == 30
    assert fills.count("white") == 27
    assert len({f for f in fills if f != "white"}) == 2
    assert fills[0] == fills[5] != fills[1]  # column 1 bottom (X), column 2 bottom (X), 1 up (O)


@pytest.mark.parametrize("line", ["a1 b2 c3 a3 c1", "b2 a1 c1", "a1 b2 c3 a3"])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_recorded_tree_matches_the_library_search(line: str, algorithm: str) -> None:
    """The drawn search visits the same nodes and finds the same value as the library's."""
    game = TicTacToe()
    state = play_line(game, line)
    tree = search_tree(game, state, algorithm)
    library = minimax(game, state) if algorithm == "minimax" else alphabeta(game, state)
    assert tree.nodes == library.nodes
    assert tree.value == library.value
    if algorithm == "minimax":
        assert tree.pruned == 0


def test_tree_picture_greys_the_pruned_branches_and_labels_edges() -> None:
    """One dashed grey edge per pruned branch; each searched edge carries a value."""
    game = TicTacToe()
    state = play_line(game, "a1 b2 c3 a3 c1")
    tree = search_tree(game, state, "alphabeta")
    assert tree.pruned > 0
    root = ET.fromstring(tree._repr_svg_())
    lines = list(root.iter(f"{SVG}line"))
    dashed = [e for e in lines if e.get("stroke-dasharray")]
    assert len(dashed) == tree.pruned
    assert all(e.get("stroke") == "#bbbbbb" for e in dashed)
    values = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert len(values) == len(lines) - len(dashed) + 1  # every searched edge, and the root


def test_reader_game_tree_and_limits() -> None:
    """Any game draws; a tree too big for a picture is refused in one line."""
    nim = load_game("tictactoe")
    with pytest.raises(ValueError, match="more than 100 nodes"):
        search_tree(nim, nim.initial_state(), "minimax", max_nodes=100)
    tree = search_tree(nim, nim.initial_state(), "alphabeta", depth=2)
    assert tree.root.children and all(c.children for c in tree.root.children)
    with pytest.raises(ValueError, match="tree of mcts cannot be drawn"):
        search_tree(nim, nim.initial_state(), "mcts")
    with pytest.raises(ValueError, match="unknown algorithm 'bogus'"):
        search_tree(nim, nim.initial_state(), "bogus")
