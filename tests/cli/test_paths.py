"""The ``plies maze``, ``plies graph`` and ``plies pathbench`` commands, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from tests.cli.runs import RunCli, one_line_error

DATA = Path(__file__).resolve().parents[1] / "data" / "pathfinding"


def test_maze_default_runs_every_algorithm(cli: RunCli) -> None:
    code, out, _ = cli(["maze", "--seed", "4"])
    assert code == 0
    assert "41x21 perfect maze (backtracker)" in out
    for name in ("dfs", "bfs", "iddfs", "ucs", "greedy", "astar", "bidirectional"):
        assert any(line.startswith(name + " ") for line in out.splitlines()), name
    assert "jps            n/a (needs diagonal moves)" in out


def test_maze_on_a_map_with_pictures(tmp_path: Path, cli: RunCli) -> None:
    png, gif = tmp_path / "m.png", tmp_path / "m.gif"
    code, out, _ = cli(["maze", "--map", str(DATA / "rooms.map"), "--from", "2,2",
                        "--to", "36,20", "--algorithm", "astar,jps", "--png", str(png),
                        "--gif", str(gif)])
    assert code == 0
    assert "engine: python (readable Python versions, used for pictures)" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:5]}
    assert rows["astar"][2] == rows["jps"][2]  # same optimal cost
    assert Image.open(png).size[0] > 500
    assert Image.open(gif).n_frames > 1


def test_maze_text_file_with_terminal_picture(cli: RunCli) -> None:
    code, out, _ = cli(["maze", "--map", str(DATA / "maze.txt"), "--algorithm", "astar",
                        "--show"])
    assert code == 0
    assert "from 1,1 to 11,11" in out
    assert " S" in out and " G" in out and "██" in out


def test_maze_generated_random_grid_and_unreachable_goal(tmp_path: Path, cli: RunCli) -> None:
    maze = tmp_path / "boxed.txt"
    maze.write_text("S.#..\n..#.G\n", encoding="utf-8")
    code, out, _ = cli(["maze", "--map", str(maze), "--algorithm", "all"])
    assert code == 0
    assert out.count("no path") == 8
    code, out, _ = cli(["maze", "--size", "30x20", "--density", "0.2", "--seed", "1",
                        "--diagonal", "--algorithm", "jps,astar"])
    assert code == 0 and "8-connected" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "9x9", "--perfect", "--from", "0,0"], "start 0,0 is on a wall"),
        (["--size", "9x9", "--perfect", "--to", "40,1"], "goal 40,1 is off the 9x9 grid"),
        (["--size", "9by9"], "--size must be WxH"),
        (["--from", "1;1"], "--from must be X,Y"),
        (["--algorithm", "quantum"], "unknown algorithm 'quantum'"),
        (["--algorithm", "jps"], "jps cannot run here: needs diagonal moves"),
        (["--perfect", "wilson"], "unknown maze method 'wilson'"),
        (["--heuristic", "psychic"], "unknown heuristic 'psychic'"),
        (["--size", "9x9", "--density", "2"], "density must be between 0 and 1"),
        (["--map", "x.map", "--perfect"], "they do not go with --map"),
    ],
)
def test_maze_errors_are_one_line(argv: list[str], message: str, cli: RunCli) -> None:
    code, _, err = cli(["maze", *argv])
    line = one_line_error(code, err)
    assert line.startswith("plies maze: error: ") and message in line


def test_maze_broken_map_names_file_and_line(cli: RunCli) -> None:
    code, _, err = cli(["maze", "--map", str(DATA / "broken_row.map")])
    assert "broken_row.map:6: row has 3 cells, expected 4" in one_line_error(code, err)
    code, _, err = cli(["maze", "--map", str(DATA / "nothing.map")])
    assert "nothing.map" in one_line_error(code, err)


def test_graph_command(tmp_path: Path, cli: RunCli) -> None:
    png = tmp_path / "g.png"
    code, out, _ = cli(["graph", str(DATA / "roads.txt"), "--from", "Ashford", "--to",
                        "Dover", "--png", str(png)])
    assert code == 0
    assert "ucs: Ashford -> Crane -> Dover" in out
    ucs = next(line for line in out.splitlines() if line.startswith("ucs "))
    assert ucs.split()[2] == "20.0000"
    assert png.exists()
    code, out, _ = cli(["graph", str(DATA / "cities.json"), "--from", "A", "--to", "G",
                        "--algorithm", "astar"])
    assert code == 0 and "heuristic euclidean" in out and "astar: A -> B -> E -> G" in out


def test_graph_unreachable_and_errors(cli: RunCli) -> None:
    code, out, _ = cli(["graph", str(DATA / "roads.txt"), "--from", "Ashford", "--to",
                        "Glen", "--algorithm", "astar"])
    assert code == 0 and "no path" in out
    code, _, err = cli(["graph", str(DATA / "roads.txt"), "--from", "Ashford", "--to",
                        "Atlantis"])
    assert "unknown goal node 'Atlantis'" in one_line_error(code, err)
    code, _, err = cli(["graph", str(DATA / "broken.json"), "--from", "a", "--to", "b"])
    assert "broken.json:3: invalid JSON" in one_line_error(code, err)
    code, _, err = cli(["graph", str(DATA / "roads.txt"), "--from", "Ashford", "--to",
                        "Dover", "--algorithm", "jps"])
    assert "jps cannot run here: grids only" in one_line_error(code, err)


def test_maze_engines_expand_the_same_cells(cli: RunCli) -> None:
    tables = {}
    for engine in ("compiled", "python"):
        code, out, _ = cli(["maze", "--map", str(DATA / "arena.map"), "--algorithm",
                            "bfs,ucs,astar,bidir-astar,jps", "--engine", engine])
        assert code == 0 and f"engine: {engine}" in out
        # Columns: algorithm, steps, cost, expanded, max frontier (time differs).
        tables[engine] = [line.split()[:5] for line in out.splitlines()[3:8]]
    assert tables["compiled"] == tables["python"]
    assert [row[0] for row in tables["python"]] == ["bfs", "ucs", "astar", "bidir-astar", "jps"]


def test_pathbench_counts_optimal_scenarios(cli: RunCli) -> None:
    for algorithm in ("astar", "jps", "ucs", "bidirectional", "bidir-astar"):
        code, out, _ = cli(["pathbench", str(DATA / "rooms.map"),
                            str(DATA / "rooms.map.scen"), "--algorithm", algorithm])
        assert code == 0
        assert out.splitlines()[-1] == "optimal: 60/60 scenarios", algorithm
        assert f"{algorithm} by bucket" in out and "expanded" in out
    code, out, _ = cli(["pathbench", str(DATA / "rooms.map"),
                        str(DATA / "rooms.map.scen"), "--algorithm", "greedy",
                        "--limit", "20"])
    last = out.splitlines()[-1]
    assert last.startswith("optimal: ") and last.endswith("/20 scenarios")
    assert int(last.split()[1].split("/")[0]) < 20
    assert "not optimal (greedy): " in out


def test_pathbench_whole_moving_ai_set_per_bucket(cli: RunCli) -> None:
    code, out, _ = cli(["pathbench", str(DATA / "arena.map"),
                        str(DATA / "arena.map.scen"), "--repeat", "2"])
    assert code == 0
    lines = out.splitlines()
    assert "130 scenarios in 13 buckets" in lines[0]
    table = lines.index("astar by bucket (time per query)")
    assert lines[table + 1].split() == ["bucket", "optimal", "mean", "p50", "p95", "p99", "max",
                                        "expanded"]
    assert [line.split()[0] for line in lines[table + 2: table + 15]] == [str(b)
                                                                         for b in range(13)]
    assert any(line.startswith("jps ") and "130/130" in line for line in lines)
    assert any(line.startswith("JPS speed-up over A*: ") for line in lines)
    assert lines[-1] == "optimal: astar 130/130, jps 130/130 scenarios"
    code, out, _ = cli(["pathbench", str(DATA / "den312d.map"),
                        str(DATA / "den312d.map.scen"), "--algorithm", "all",
                        "--no-buckets", "--engine", "python", "--limit", "12"])
    assert code == 0 and "by bucket (time per query)" not in out
    assert "bfs 12/12" in out.splitlines()[-1] and "bidir-astar 12/12" in out


def test_pathbench_errors(cli: RunCli) -> None:
    code, _, err = cli(["pathbench", str(DATA / "rooms.map"),
                        str(DATA / "wall_start.scen")])
    assert "wall_start.scen:3: start 0,0 is on a wall" in one_line_error(code, err)
    code, _, err = cli(["pathbench", str(DATA / "rooms.map"),
                        str(DATA / "broken_fields.scen")])
    assert "broken_fields.scen:3: expected 9 fields" in one_line_error(code, err)
    code, _, err = cli(["pathbench", str(DATA / "broken_terrain.map"),
                        str(DATA / "rooms.map.scen")])
    assert "broken_terrain.map:6" in one_line_error(code, err)
    code, _, err = cli(["pathbench", str(DATA / "rooms.map"),
                        str(DATA / "rooms.map.scen"), "--algorithm", "dfs"])
    assert "not dfs" in one_line_error(code, err)
    code, _, err = cli(["pathbench", str(DATA / "rooms.map"),
                        str(DATA / "rooms.map.scen"), "--repeat", "0"])
    assert "--repeat must be at least 1" in one_line_error(code, err)
