"""Pictures: PNG pixels where they should be, sheets, GIF frames, graph drawings, terminal."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from rich.console import Console

from plies.pathfinding import (
    Grid,
    GridProblem,
    astar_search,
    breadth_first_search,
    load_graph,
    run_algorithm,
)
from plies.pathfinding.graph_problem import GraphProblem
from plies.pathfinding.render import (
    Panel,
    compose,
    draw_graph,
    draw_grid,
    palette,
    render_text,
    result_lines,
    save_gif,
)


def small_problem() -> GridProblem:
    """A 12x8 grid with a wall to go round."""
    rows = ["............"] * 8
    rows = [r if y in (0, 7) else r[:6] + "#" + r[7:] for y, r in enumerate(rows)]
    return GridProblem(Grid.from_rows(rows), (1, 4), (10, 4))


def test_png_shows_walls_expansion_path_and_marks(tmp_path: Path) -> None:
    problem = small_problem()
    result = astar_search(problem)
    img = draw_grid(problem.grid, result, problem.initial, problem.goal, cell_size=20)
    assert img.size == (240, 160)
    img.save(tmp_path / "a.png")
    again = Image.open(tmp_path / "a.png").convert("RGB")

    def centre(cell: tuple[int, int]) -> tuple[int, int, int]:
        r, g, b = again.getpixel((cell[0] * 20 + 10, cell[1] * 20 + 10))  # type: ignore[misc]
        return (r, g, b)

    assert centre((6, 4)) == palette.WALL
    assert centre((1, 4)) == palette.START
    assert centre((10, 4)) == palette.GOAL
    assert result.path is not None
    assert centre(result.path[len(result.path) // 2]) == palette.PATH
    untouched = [c for c in problem.grid.free_cells()
                 if c not in set(result.expansion_order) | set(result.frontier)]
    assert untouched and centre(untouched[0]) == palette.FREE
    assert centre(result.frontier[0]) == palette.FRONTIER
    shaded = [c for c in result.expansion_order if c not in result.path][:1]
    assert shaded and centre(shaded[0]) not in (palette.FREE, palette.WALL, palette.FRONTIER)


def test_large_grid_picture_fits_and_colours_path_cells() -> None:
    grid = Grid(1000, 300)
    result = astar_search(GridProblem(grid, (0, 0), (999, 299)))
    img = draw_grid(grid, result, (0, 0), (999, 299))
    assert max(img.size) <= 1000 and img.size == (1000, 300)


def test_sheet_has_a_panel_per_result() -> None:
    problem = small_problem()
    results = [breadth_first_search(problem), astar_search(problem)]
    panels = [Panel(draw_grid(problem.grid, r, cell_size=10), r.algorithm, result_lines(r))
              for r in results]
    sheet = compose(panels, heading="two searches")
    assert sheet.width > 2 * 120 and sheet.height > 80
    assert result_lines(results[1])[0].startswith("cost 15")


def test_gif_frames(tmp_path: Path) -> None:
    problem = small_problem()
    results = [breadth_first_search(problem), astar_search(problem)]
    n = save_gif(tmp_path / "a.gif", problem.grid, results, problem.initial, problem.goal,
                 titles=["bfs", "astar"], frames=12)
    with Image.open(tmp_path / "a.gif") as gif:
        assert gif.n_frames == n == 12
        assert gif.info.get("loop") == 0
    single = save_gif(tmp_path / "b.gif", problem.grid, results[1:], problem.initial,
                      problem.goal, frames=500)
    assert single == len(results[1].expansion_order)


def test_graph_drawing(data_dir: Path) -> None:
    graph = load_graph(data_dir / "cities.json")
    result = run_algorithm("astar", GraphProblem(graph, "A", "G"))
    img = draw_graph(graph, result, "A", "G", size=(400, 300))
    assert img.size == (400, 300)
    colours = {c for _, c in img.getcolors(100000) or []}
    assert palette.PATH in colours and palette.START in colours and palette.GOAL in colours
    roads = load_graph(data_dir / "roads.txt")  # no coordinates: spring layout
    assert draw_graph(roads, None).size == (640, 480)


def test_terminal_picture_reads_without_colour() -> None:
    problem = small_problem()
    result = astar_search(problem)
    text = render_text(problem.grid, result, problem.initial, problem.goal)
    console = Console(width=200, no_color=True, record=True)
    console.print(text, end="", soft_wrap=True)
    lines = console.export_text().splitlines()
    assert len(lines) == 8 and all(len(line) == 24 for line in lines)
    assert lines[4][2:4] == " S" and lines[4][20:22] == " G"
    assert lines[3][12:14] == "██"
    assert " o" in "".join(lines)
