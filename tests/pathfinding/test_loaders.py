"""Loaders: Moving AI maps and scenarios, text mazes, edge lists and JSON, good and broken."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from tests.pathfinding.cases import DATA

from plies.pathfinding import (
    FormatError,
    Graph,
    GridProblem,
    UnknownNodeError,
    astar_search,
    load_graph,
    load_map,
    load_maze,
    load_scenarios,
    parse_edge_list,
    parse_graph_json,
    parse_map,
    parse_maze,
    parse_scenarios,
    save_map,
    save_maze,
)
from plies.pathfinding.graph_io import graph_to_data, save_graph_json
from plies.pathfinding.scenario import check_against_map, format_scenarios


def test_map_loads_with_terrain_and_octile_moves(data_dir: Path) -> None:
    grid = load_map(data_dir / "rooms.map")
    assert (grid.width, grid.height, grid.diagonal) == (40, 24, True)
    assert grid.is_free((2, 2))  # S is passable
    assert grid.is_free((36, 20))  # G is passable
    assert not grid.is_free((0, 0))  # @
    assert not grid.is_free((13, 1))  # T
    assert not grid.is_free((14, 11))  # W
    assert not grid.is_free((18, 2))  # O


def test_map_round_trip(tmp_path: Path, data_dir: Path) -> None:
    grid = load_map(data_dir / "rooms.map")
    save_map(grid, tmp_path / "copy.map")
    assert load_map(tmp_path / "copy.map") == grid


PARSERS = {"map": parse_map, "scenarios": parse_scenarios, "maze": parse_maze,
           "edges": parse_edge_list}
"""The parsers the broken texts are fed to, by the name ``broken_texts.json`` gives them."""
BROKEN_TEXTS = json.loads((DATA / "broken_texts.json").read_text(encoding="utf-8"))
"""Broken maps, scenarios, mazes and edge lists: each with its parser, file name, line and
the message its error must give."""


@pytest.mark.parametrize("case", BROKEN_TEXTS, ids=lambda case: case["message"])
def test_broken_texts_name_file_and_line(case: dict[str, Any]) -> None:
    source = case["file"]
    with pytest.raises(FormatError) as info:
        PARSERS[case["parser"]](case["text"], source)
    assert str(info.value).startswith(f"{source}:{case['line']}: ")
    assert case["message"] in str(info.value)
    assert "\n" not in str(info.value)


def test_broken_map_files(data_dir: Path) -> None:
    with pytest.raises(FormatError, match=r"broken_row\.map:6: row has 3 cells, expected 4"):
        load_map(data_dir / "broken_row.map")
    with pytest.raises(FormatError, match=r"broken_terrain\.map:6: unknown terrain 'X'"):
        load_map(data_dir / "broken_terrain.map")
    with pytest.raises(FormatError, match=r"missing\.map: No such file"):
        load_map(data_dir / "missing.map")


def test_scenarios_load_and_match_astar(data_dir: Path) -> None:
    grid = load_map(data_dir / "rooms.map")
    scenarios = load_scenarios(data_dir / "rooms.map.scen")
    assert len(scenarios) == 60
    first = scenarios[0]
    assert (first.map_name, first.width, first.height) == ("rooms.map", 40, 24)
    assert first.line == 2
    for s in scenarios:
        check_against_map(s, grid)
        assert astar_search(GridProblem(grid, s.start, s.goal)).cost == pytest.approx(
            s.optimal, abs=1e-6)


def test_scenario_round_trip(data_dir: Path) -> None:
    scenarios = load_scenarios(data_dir / "rooms.map.scen")
    again = parse_scenarios(format_scenarios(scenarios), str(data_dir / "rooms.map.scen"))
    assert again == scenarios


def test_scenario_files_broken_or_not_fitting_the_map(data_dir: Path) -> None:
    with pytest.raises(FormatError, match=r"broken_fields\.scen:3: expected 9 fields"):
        load_scenarios(data_dir / "broken_fields.scen")
    grid = load_map(data_dir / "rooms.map")
    bad = load_scenarios(data_dir / "wall_start.scen")
    check_against_map(bad[0], grid)
    with pytest.raises(FormatError, match=r"wall_start\.scen:3: start 0,0 is on a wall"):
        check_against_map(bad[1], grid)


def test_scenario_for_another_map_size(data_dir: Path) -> None:
    scen = parse_scenarios("version 1\n0\tm\t5\t5\t0\t0\t1\t1\t1.41421356\n", "x.scen")
    with pytest.raises(FormatError, match=r"x\.scen:2: scenario is for a 5x5 map"):
        check_against_map(scen[0], load_map(data_dir / "rooms.map"))


def test_maze_file_with_marks_and_weights(data_dir: Path, tmp_path: Path) -> None:
    maze = load_maze(data_dir / "maze.txt")
    assert maze.start == (1, 1) and maze.goal == (11, 11)
    assert maze.grid.weight((5, 5)) == 9.0 and maze.grid.weighted
    result = astar_search(GridProblem(maze.grid, maze.start, maze.goal))
    # The weighted short cut (5,5)-(7,7) costs more than the long way round.
    assert result.path is not None and (6, 7) not in result.path
    save_maze(maze.grid, tmp_path / "copy.txt", maze.start, maze.goal)
    again = load_maze(tmp_path / "copy.txt")
    assert again.grid == maze.grid and (again.start, again.goal) == (maze.start, maze.goal)


def test_maze_errors() -> None:
    with pytest.raises(FormatError, match="no maze rows"):
        parse_maze("; only a comment\n\n", "m.txt")
    # Short rows (trailing spaces stripped by an editor) are padded with free cells.
    assert parse_maze("#.\n#\n").grid.is_free((1, 1))


def test_edge_list(data_dir: Path) -> None:
    graph = load_graph(data_dir / "roads.txt")
    assert not graph.directed and len(graph) == 8 and graph.edge_count() == 10
    assert graph.weight("Crane", "Ashford") == 9.0
    directed = load_graph(data_dir / "roads.txt", directed=True)
    assert "Ashford" not in directed.successors("Crane")


def test_edge_list_errors(data_dir: Path) -> None:
    with pytest.raises(FormatError, match=r"broken_weight\.txt:2: weight 'heavy' is not a number"):
        load_graph(data_dir / "broken_weight.txt")
    with pytest.raises(FormatError, match="no edges"):
        parse_edge_list("# nothing\n", "e")


def test_json_graphs(data_dir: Path, tmp_path: Path) -> None:
    graph = load_graph(data_dir / "cities.json")
    assert graph.has_coordinates and graph.pos("G") == (6.0, 4.0)
    oneway = load_graph(data_dir / "oneway.json")
    assert oneway.directed and oneway.successors("s") == {"a": 1.0}
    save_graph_json(graph, tmp_path / "copy.json")
    again = load_graph(tmp_path / "copy.json")
    assert graph_to_data(again) == graph_to_data(graph)


def test_json_errors(data_dir: Path) -> None:
    with pytest.raises(FormatError, match=r"broken\.json:3: invalid JSON"):
        load_graph(data_dir / "broken.json")
    bad = {"nodes": [{"name": "a"}], "edges": []}
    with pytest.raises(FormatError, match=r"g\.json: nodes\[0\]: missing 'id'"):
        parse_graph_json(json.dumps(bad), "g.json")
    bad = {"nodes": ["a"], "edges": [["a", "b", "x"]]}
    with pytest.raises(FormatError, match=r"g\.json: edges\[0\]: weight must be a number"):
        parse_graph_json(json.dumps(bad), "g.json")
    bad = {"nodes": ["a"], "edges": [["a", "b", -2]]}
    with pytest.raises(FormatError, match=r"edges\[0\]: .*must be finite and >= 0"):
        parse_graph_json(json.dumps(bad), "g.json")
    with pytest.raises(FormatError, match="top level must be an object"):
        parse_graph_json("[1, 2]", "g.json")


def test_networkx_round_trip() -> None:
    nxg = nx.grid_2d_graph(3, 3)
    for i, node in enumerate(nxg.nodes):
        nxg.nodes[node]["pos"] = node
        for nbr in nxg[node]:
            nxg.edges[node, nbr]["weight"] = 1.0 + i
    graph = Graph.from_networkx(nxg)
    assert len(graph) == 9 and graph.pos((1, 2)) == (1.0, 2.0)
    back = graph.to_networkx()
    assert {frozenset(e) for e in back.edges} == {frozenset(e) for e in nxg.edges}
    assert dict(back.nodes(data="pos")) == {n: (float(n[0]), float(n[1])) for n in nxg}
    for u, v, w in graph.edges():
        assert back.edges[u, v]["weight"] == w == nxg.edges[u, v]["weight"]
    directed = Graph.from_networkx(nx.DiGraph([(1, 2)]))
    assert directed.directed and directed.weight(1, 2) == 1.0


def test_unknown_nodes_are_named() -> None:
    graph = parse_edge_list("a b 1\n")
    with pytest.raises(UnknownNodeError, match="unknown start node 'zz'"):
        graph.resolve("zz", "start node")
    assert math.isfinite(graph.weight("b", "a"))
