"""End to end: headless Chromium clicking through a real ``plies serve`` subprocess.

Each test opens its own tab (its own game). The engine gets small limits (depth 3) so
that the suite stays quick; the fixture waits for the server's engine to be ready.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.waiting import wait_until
from tests.web.conftest import Server, app_server, get_json

from plies.board import Board, Move
from plies.games import Solver, TicTacToe
from plies.pathfinding import Grid, GridProblem, load_map, run_algorithm
from plies.web.browser import (
    click_square,
    open_page,
    play_cells,
    race_paths,
    set_level,
    wait_plies,
)


def test_server_binds_to_localhost(server: Any) -> None:
    """By default the server listens on 127.0.0.1 only."""
    assert server.url.startswith("http://127.0.0.1:")


def test_play_a_short_game_by_clicking(page: Any, server: Any) -> None:
    """Click and drag moves; the engine answers legally with a live info line; undo works."""
    open_page(page, server.url, "play")
    page.wait_for_selector('#board rect[data-square="e2"]')
    set_level(page, "d3")
    click_square(page, "e2")
    assert page.locator("#board .marks circle").count() == 2  # e3 and e4 offered
    click_square(page, "e4")
    wait_plies(page, 2)
    assert re.search(r"depth \d+/\d+ +[-+#][\d.]+ +\d+ nodes", page.inner_text("#info"))
    board = Board()
    board.push_uci("e2e4")
    reply = page.get_attribute("#info", "data-last-engine-move")
    assert board.is_legal(Move.from_uci(reply))
    board.push_uci(reply)
    assert page.get_attribute("#board", "data-fen") == board.fen()

    # The second move by dragging the knight from g1 to f3.
    drag(page, "g1", "f3")
    wait_plies(page, 4)
    moves = page.locator("#moves li").all_inner_texts()
    assert moves[0].startswith("e4") and moves[1].startswith("Nf3")
    assert "1. e4" in page.input_value("#pgn")

    page.click("#undo")
    wait_plies(page, 2)
    assert page.get_attribute("#board", "data-fen") == board.fen()

    # The game so far goes to the Analyse page in one click.
    page.click("#pgn-analyse")
    page.wait_for_selector("#an-progress[data-done=true]")
    assert page.locator("#an-moves span[data-index]").count() == 2


def load_fen(page: Any, fen: str) -> None:
    """Ask the Play page to set up ``fen``."""
    page.fill("#fen-input", fen)
    page.click("#fen-load")


def new_game_numbered(page: Any, number: str) -> None:
    """Ask the Play page for a new game from Chess960 start position ``number``."""
    page.fill("#start-number", number)
    page.click("#new")


def test_fen_promotion_choice_and_bad_fen(page: Any, server: Any) -> None:
    """Load a FEN, promote to a knight through the dialog; a broken FEN changes nothing."""
    open_page(page, server.url, "play")
    set_level(page, "d3")
    fen = "8/P6k/7p/8/8/8/8/K7 w - - 0 1"
    load_fen(page, fen)
    page.wait_for_selector(f'#board[data-fen="{fen}"]')
    load_fen(page, "8/8/8 w - - 0 1")
    page.wait_for_selector("#error:not([hidden])")
    assert "FEN" in page.inner_text("#error")
    assert page.get_attribute("#board", "data-fen") == fen
    click_square(page, "a7")
    click_square(page, "a8")
    page.wait_for_selector("#promo:not([hidden])")
    page.click('#promo button[data-piece="n"]')
    wait_plies(page, 2)
    assert page.locator("#moves li").first.inner_text().startswith("a8=N")
    assert page.locator('#board use[data-at="a8"][data-piece="N"]').count() == 1


def test_each_tab_has_its_own_game(browser: Any, page: Any, server: Any) -> None:
    """A second tab starts from the start position, whatever the first has played."""
    open_page(page, server.url, "play")
    page.select_option("#engine-side", "none")
    page.click("#new")
    page.wait_for_selector("#board[data-engine-side=none]")
    wait_plies(page, 0)
    click_square(page, "d2")
    click_square(page, "d4")
    wait_plies(page, 1)
    other = browser.new_page()
    try:
        open_page(other, server.url, "play")
        other.wait_for_selector("#board[data-plies='0']")
        assert page.get_attribute("#board", "data-plies") == "1"
    finally:
        other.close()


def draw_cells(page: Any, cells: list[tuple[int, int]]) -> None:
    """Drag the pointer over ``cells`` (in order) on the left grid canvas."""
    canvas = page.locator("#grid-a")
    box = canvas.bounding_box()
    width = int(canvas.get_attribute("data-width"))
    height = int(canvas.get_attribute("data-height"))

    def point(cell: tuple[int, int]) -> tuple[float, float]:
        """The pixel at the middle of ``cell``."""
        return (
            box["x"] + (cell[0] + 0.5) * box["width"] / width,
            box["y"] + (cell[1] + 0.5) * box["height"] / height,
        )

    page.mouse.move(*point(cells[0]))
    page.mouse.down()
    for cell in cells[1:]:
        page.mouse.move(*point(cell), steps=2)
    page.mouse.up()


def test_astar_on_a_drawn_maze_matches_the_library(page: Any, server: Any) -> None:
    """Draw walls by dragging, run A* and BFS side by side; counts match the library's."""
    open_page(page, server.url, "paths")
    width, height = 15, 9
    page.fill("#p-width", str(width))
    page.fill("#p-height", str(height))
    page.click("#p-clear")
    walls = [(4, y) for y in range(0, height - 1)] + [(9, y) for y in range(1, height)]
    draw_cells(page, walls[: height - 1])
    draw_cells(page, walls[height - 1 :])
    race_paths(page, "astar", "bfs")

    rows = ["".join("#" if (x, y) in walls else "." for x in range(width)) for y in range(height)]
    problem = GridProblem(Grid.from_rows(rows), (0, 0), (width - 1, height - 1))
    astar = run_algorithm("astar", problem)
    bfs = run_algorithm("bfs", problem)
    assert astar.steps is not None and astar.steps > width + height  # the walls made it wind
    assert int(page.get_attribute("#stats-a", "data-steps")) == astar.steps
    assert float(page.get_attribute("#stats-a", "data-cost")) == astar.cost
    assert int(page.get_attribute("#stats-a", "data-expanded")) == astar.expanded
    assert int(page.get_attribute("#stats-b", "data-steps")) == bfs.steps
    assert f"path {astar.steps} steps" in page.inner_text("#stats-a")


def new_game(page: Any) -> None:
    """Start a new game on the Games page and wait until the empty board is drawn."""
    page.click("#g-new")
    page.wait_for_selector("#g-board[data-busy=false][data-moves='']")


def test_tictactoe_positions_are_solved(page: Any, server: Any) -> None:
    """Set up positions by clicking; Solve shows the exact solver's verdict and best moves."""
    open_page(page, server.url, "games")
    page.select_option("#g-ai", "-1")
    game = TicTacToe()
    solver = Solver(game)
    for cells in ([], [0, 4, 8], [0, 3, 1, 4], [4, 0, 8]):
        new_game(page)
        play_cells(page, cells)
        page.click("#g-solve")
        page.wait_for_selector("#g-solution[data-verdict]")
        state = game.initial_state()
        for cell in cells:
            state = game.result(state, cell)
        value, _ = solver.solve(state)
        verdict = "win" if value > 0 else "loss" if value < 0 else "draw"
        assert page.get_attribute("#g-solution", "data-verdict") == verdict
        best = page.get_attribute("#g-solution", "data-best")
        assert sorted(int(c) for c in best.split(",")) == sorted(solver.best_actions(state))
        assert page.locator("#g-board .best").count() == len(solver.best_actions(state))


def test_computer_answers_with_node_counts(page: Any, server: Any) -> None:
    """Against the computer (O), a click brings its reply and the search's node count."""
    open_page(page, server.url, "games")
    page.select_option("#g-ai", "1")
    new_game(page)
    page.click('#g-board button[data-cell="0"]')
    page.wait_for_selector("#g-board[data-moves^='0,']")
    assert int(page.get_attribute("#g-stats", "data-nodes")) > 0
    assert page.locator("#g-board button[data-mark=O]").count() == 1


def test_analyse_a_game(page: Any, server: Any) -> None:
    """A pasted PGN is evaluated position by position, graphed, and can be stepped through."""
    open_page(page, server.url, "analyse")
    page.fill("#an-pgn", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
    page.select_option("#an-movetime", "100")
    page.click("#an-run")
    page.wait_for_selector("#an-progress[data-done=true]")
    assert page.get_attribute("#an-graph", "data-points") == "8"
    page.click("#an-last")
    page.wait_for_selector("#an-board[data-index='7']")
    assert page.inner_text("#an-eval").startswith("1-0")
    page.click("#an-prev")
    page.wait_for_selector("#an-board[data-index='6']")
    assert "Qxf7#" in page.inner_text("#an-eval") and "#1" in page.inner_text("#an-eval")


def test_connect_four_against_alpha_beta(page: Any, server: Any) -> None:
    """A click on a column drops a disc; the computer answers in a legal column."""
    open_page(page, server.url, "games")
    page.select_option("#g-game", "connect4")
    page.fill("#g-depth", "4")
    page.select_option("#g-ai", "1")
    new_game(page)
    page.wait_for_selector("#g-board.c4")
    page.click('#g-board button[data-cell="3"]')  # top row, middle column
    page.wait_for_selector("#g-board[data-moves^='3,']")
    bottom = [b.get_attribute("data-mark") for b in page.locator("#g-board button").all()[-7:]]
    assert bottom[3] == "X"  # the disc fell to the bottom
    assert page.locator("#g-board button[data-mark=O]").count() == 1
    assert int(page.get_attribute("#g-stats", "data-nodes")) > 0


def test_playing_black_flips_the_board_and_the_engine_opens(page: Any, server: Any) -> None:
    """With the engine on White, the board turns round and the engine makes the first move."""
    open_page(page, server.url, "play")
    set_level(page, "d3")
    page.select_option("#engine-side", "white")
    page.click("#new")
    wait_plies(page, 1)
    assert page.get_attribute("#board svg", "data-flipped") == "true"
    assert page.input_value("#engine-side") == "white"
    page.click("#flip")
    page.wait_for_selector("#board svg[data-flipped=false]")


ROOMS_MAP = Path(__file__).resolve().parents[1] / "data" / "pathfinding" / "rooms.map"


def test_moving_ai_map_astar_beside_jump_point_search(page: Any, server: Any) -> None:
    """Load a Moving AI map; A* and JPS (diagonal moves) find the library's cost."""
    open_page(page, server.url, "paths")
    page.wait_for_function("document.querySelector('#p-alg-a').options.length > 0")
    page.set_input_files("#p-map", str(ROOMS_MAP))
    grid = load_map(ROOMS_MAP)
    page.wait_for_selector(f"#grid-a[data-width='{grid.width}'][data-height='{grid.height}']")
    page.check("#p-diagonal")
    race_paths(page, "astar", "jps")
    free = grid.free_cells()
    ordered = sorted(free, key=lambda c: (c[1], c[0]))  # the page starts at the first free
    problem = GridProblem(grid.with_diagonal(True), ordered[0], ordered[-1])  # cell, ends at last
    expected = run_algorithm("astar", problem).cost
    assert float(page.get_attribute("#stats-a", "data-cost")) == pytest.approx(expected, abs=1e-5)
    assert float(page.get_attribute("#stats-b", "data-cost")) == pytest.approx(expected, abs=1e-5)


def server_status(server: Any) -> dict[str, Any]:
    """The server's /api/status answer."""
    status: dict[str, Any] = get_json(server.url + "api/status")
    return status


@pytest.fixture(scope="module")
def uncapped_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server without a cap on search time: a search until Move now runs until stopped."""
    log = tmp_path_factory.mktemp("uncapped") / "stderr.log"
    with app_server({"search_cap_ms": None}, log) as running:
        yield running


def test_closing_a_tab_stops_its_search(browser: Any, uncapped_server: Server) -> None:
    """A tab closed while its engine thinks until Move now (no cap, so nothing else can end
    the search) leaves no search running on the server."""
    tab = browser.new_page()
    open_page(tab, uncapped_server.url, "play")
    set_level(tab, "inf")
    click_square(tab, "e2")
    click_square(tab, "e4")
    tab.wait_for_selector("#board[data-thinking=true]")
    wait_until(lambda: server_status(uncapped_server)["searching"] == 1, "the search starts")
    tab.close()
    # A closed tab leaves the count of tabs' searches at once; the slot its search holds is
    # free only once the search has ended.
    wait_until(lambda: server_status(uncapped_server)["slots_busy"] == 0,
               "the closed tab's search stops")


def drag(page: Any, start: str, end: str) -> None:
    """Drag the piece on square ``start`` of the Play board to square ``end``."""
    a = page.locator(f'#board rect[data-square="{start}"]').bounding_box()
    b = page.locator(f'#board rect[data-square="{end}"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()


def test_chess960_start_and_castling_by_dragging_the_king(page: Any, server: Any) -> None:
    """A Chess960 game from a numbered start; castling by dragging the king onto its rook,
    and (king on e1) two squares over; a bad number is refused and changes nothing."""
    open_page(page, server.url, "play")
    page.select_option("#engine-side", "none")
    page.select_option("#start", "number")
    new_game_numbered(page, "0")
    start = Board.from_chess960_pos(0).fen()
    page.wait_for_selector(f'#board[data-fen="{start}"][data-chess960=true]')
    new_game_numbered(page, "960")
    page.wait_for_selector("#error:not([hidden])")
    assert "0-959" in page.inner_text("#error")
    assert page.get_attribute("#board", "data-fen") == start
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    load_fen(page, fen)
    page.wait_for_selector(f'#board[data-fen="{fen}"]')
    drag(page, "e1", "h1")
    wait_plies(page, 1)
    assert page.locator("#moves li").first.inner_text().startswith("O-O")
    assert page.locator('#board use[data-at="g1"][data-piece="K"]').count() == 1
    page.click("#undo")
    wait_plies(page, 0)
    click_square(page, "e1")
    click_square(page, "c1")
    wait_plies(page, 1)
    assert page.locator("#moves li").first.inner_text().startswith("O-O-O")
    assert page.locator('#board use[data-at="d1"][data-piece="R"]').count() == 1
