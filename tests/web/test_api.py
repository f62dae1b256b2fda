"""The JSON API and the tab websocket, in process (Starlette's TestClient): bad input gets
a clear JSON error and changes nothing; good input gets the library's own answers."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import chess
import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[dev]')")

with warnings.catch_warnings():  # Starlette's notice about its test client's HTTP library
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient, WebSocketTestSession

from tests.waiting import HANG_S
from tests.web.conftest import BASE_URL

from plies.board import Board, Move
from plies.games import Solver, TicTacToe
from plies.pathfinding import Grid, GridProblem, perfect_maze, run_algorithm
from plies.web.app import create_app

#: The websocket the test client pretends to use: one the server answers to.
WS_URL = "ws://127.0.0.1:8000/ws"
# A three-cell corridor from one end to the other.
_LINE = '"rows": ["..."], "start": [0, 0], "goal": [2, 0]'


def receive_until(ws: WebSocketTestSession, kind: str, channel: str = "play") -> dict[str, Any]:
    """Read messages until one of type ``kind`` on ``channel`` arrives; return it."""
    while True:
        message = ws.receive_json()
        if message.get("type") == kind and message.get("channel", channel) == channel:
            return message


def open_tab(client: TestClient) -> Any:
    """A websocket like a browser tab opens; returns the context manager."""
    return client.websocket_connect(WS_URL)


# -- HTTP -------------------------------------------------------------------------------


def test_status_reports_the_engine(client: TestClient) -> None:
    """/api/status says whether the engine is compiled."""
    answer = client.get("/api/status").json()
    assert answer["engine"] in ("compiling", "ready")
    assert "seconds" in answer


@pytest.mark.parametrize(
    ("path", "body", "fragment"),
    [
        ("/api/paths/search", "{not json", "valid JSON"),
        ("/api/paths/search", "[1, 2]", "JSON object"),
        ("/api/paths/search", '{"rows": ["..x"], "start": [0,0], "goal": [1,0]}', "'#'"),
        ("/api/paths/search", '{"rows": ["...", ".."], "start": [0,0], "goal": [1,0]}', "length"),
        ("/api/paths/search", '{"rows": ["#.."], "start": [0,0], "goal": [2,0]}', "wall"),
        ("/api/paths/search", '{"rows": ["..."], "start": [0,5], "goal": [2,0]}', "outside"),
        ("/api/paths/search", '{"rows": ["..."], "start": "a", "goal": [2,0]}', "cell"),
        ("/api/paths/search", "{" + _LINE + ', "algorithm": "magic"}', "one of"),
        ("/api/paths/search", "{" + _LINE + ', "algorithm": "jps"}', "diagonal"),
        ("/api/paths/search", '{"rows": 5}', "rows"),
        ("/api/paths/generate", '{"width": 100000}', "between"),
        ("/api/paths/generate", '{"width": true}', "integer"),
        ("/api/paths/map", '{"text": "type octile\\nheight 1"}', "map"),
        ("/api/games/move", '{"game": "chess"}', "one of"),
        ("/api/games/move", '{"game": "tictactoe", "moves": [4, 4]}', "not legal"),
        ("/api/games/move", '{"game": "tictactoe", "moves": [true]}', "integer"),
        ("/api/games/move", '{"game": "tictactoe", "moves": [0, 3, 1, 4, 2]}', "over"),
        ("/api/games/move", '{"game": "connect4", "algorithm": "minimax", "depth": 30}', "depth"),
        ("/api/games/solve", '{"game": "connect4"}', "tic-tac-toe"),
        ("/api/games/state", '{"game": "connect4", "moves": [9]}', "not legal"),
    ],
)
def test_bad_requests_get_a_clear_json_error(
    client: TestClient, path: str, body: str, fragment: str
) -> None:
    """Each malformed request gets status 400 and a one-line reason naming the problem."""
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert fragment in message and "\n" not in message


def test_unknown_urls_and_methods_answer_json(client: TestClient) -> None:
    """A wrong URL or method gets a JSON error, not a crash or an HTML page."""
    assert client.get("/api/nothing").status_code == 404
    assert "error" in client.get("/api/nothing").json()
    response = client.get("/api/paths/search")
    assert response.status_code == 405 and "error" in response.json()


def test_oversized_body_is_refused(client: TestClient) -> None:
    """A request body beyond the limit is refused with a JSON error."""
    response = client.post(
        "/api/paths/map", content=b"x" * 1_100_000, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and "too large" in response.json()["error"]


def test_json_routes_want_json_content_type(client: TestClient) -> None:
    """A body sent as text/plain (what a foreign page can send without asking) is refused."""
    body = '{"game": "tictactoe", "moves": [4]}'
    response = client.post("/api/games/state", content=body, headers={"Content-Type": "text/plain"})
    assert response.status_code == 415 and "application/json" in response.json()["error"]
    ok = client.post("/api/games/state", content=body, headers={"Content-Type": "application/json"})
    assert ok.status_code == 200 and ok.json()["cells"][1][1] == 1


def test_a_huge_number_is_a_bad_request_not_a_crash(client: TestClient) -> None:
    """A number too long for Python to convert is a 400 with no exception text."""
    body = '{"game": "tictactoe", "moves": [' + "9" * 5000 + "]}"
    headers = {"Content-Type": "application/json"}
    response = client.post("/api/games/state", content=body, headers=headers)
    assert response.status_code == 400
    assert response.json()["error"] == "the request body must be valid JSON"


def test_astar_on_a_maze_matches_the_library(client: TestClient) -> None:
    """The path search answers exactly what the library computes for the same grid."""
    maze = client.post("/api/paths/generate", json={"width": 21, "height": 15, "seed": 7}).json()
    grid = Grid.from_rows(maze["rows"])
    assert grid == perfect_maze(21, 15, "backtracker", 7)
    start, goal = (1, 1), (19, 13)
    answer = client.post(
        "/api/paths/search",
        json={"rows": maze["rows"], "start": list(start), "goal": list(goal), "algorithm": "astar"},
    ).json()
    expected = run_algorithm("astar", GridProblem(grid, start, goal))
    assert answer["steps"] == expected.steps and answer["cost"] == pytest.approx(expected.cost)
    assert answer["expanded"] == expected.expanded
    assert [tuple(c) for c in answer["path"]] == expected.path
    assert len(answer["order"]) == len(expected.expansion_order)


def test_tictactoe_solve_matches_the_solver(client: TestClient) -> None:
    """Solving a position over HTTP gives the library solver's value and best moves."""
    game = TicTacToe()
    moves = [0, 4, 8]
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    solver = Solver(game)
    value, _ = solver.solve(state)
    answer = client.post("/api/games/solve", json={"moves": moves}).json()
    assert answer["value"] == value and sorted(answer["best"]) == sorted(solver.best_actions(state))


def test_computer_move_is_legal_and_counted(client: TestClient) -> None:
    """The computer's connect-four move is legal, and the search's node count is reported."""
    answer = client.post(
        "/api/games/move",
        json={"game": "connect4", "moves": [3, 3], "algorithm": "alphabeta", "depth": 4},
    ).json()
    assert 0 <= answer["action"] < 7 and answer["nodes"] > 0


# -- websocket ------------------------------------------------------------------------------


def test_bad_messages_change_nothing(client: TestClient) -> None:
    """Malformed, unknown and illegal messages get an error; the game is untouched."""
    with open_tab(client) as ws:
        fen = receive_until(ws, "state")["fen"]
        bad = [
            "not json",
            "[1, 2, 3]",
            '{"type": "move"}',
            '{"type": "move", "uci": "e2e5"}',
            '{"type": "move", "uci": "zz99"}',
            '{"type": "move", "uci": 42}',
            '{"type": "fen", "fen": "8/8/8/8 w - - 0 1"}',
            '{"type": "fen", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}',
            '{"type": "fen", "fen": "4k3/8/8/8/8/8/8/4K2P w - - 0 1"}',
            '{"channel": "analyse", "type": "analyse", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}',
            '{"type": "teleport"}',
            '{"type": "new", "chess960": 960}',
            '{"type": "new", "chess960": "first"}',
            '{"type": "settings", "movetime": -5}',
            '{"type": "undo"}',
            '{"channel": "nowhere", "type": "state"}',
            '{"channel": "analyse", "type": "analyse", "pgn": "1. e4 e5 2. Ke3 *"}',
            '{"channel": "analyse", "type": "view", "index": 99}',
            '{"type": "settings", "depth": ' + "9" * 5000 + "}",
        ]
        for text in bad:
            ws.send_text(text)
            error = ws.receive_json()  # the very next message: nothing else happened
            assert error["type"] == "error", (text, error)
            assert error["message"] and "\n" not in error["message"], text
        ws.send_bytes(b"\x00\x01")
        assert receive_until(ws, "error")["message"] == "messages must be JSON text"
        ws.send_json({"type": "state"})
        assert receive_until(ws, "state")["fen"] == fen


def test_each_tab_has_its_own_game(client: TestClient) -> None:
    """A move in one tab does not appear in another."""
    with open_tab(client) as first, open_tab(client) as second:
        receive_until(first, "state")
        receive_until(second, "state")
        first.send_json({"type": "new", "engine": "none"})
        receive_until(first, "state")
        first.send_json({"type": "move", "uci": "e2e4"})
        assert receive_until(first, "state")["moves"] == ["e4"]
        second.send_json({"type": "state"})
        assert receive_until(second, "state")["moves"] == []


def test_engine_replies_with_live_info_and_undo(client: TestClient) -> None:
    """After a move the engine thinks aloud (info), plays a legal reply; undo takes both back."""
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"type": "settings", "depth": 4, "movetime": None})
        receive_until(ws, "state")
        ws.send_json({"type": "move", "uci": "d2d4"})
        receive_until(ws, "state")
        info = receive_until(ws, "info")
        assert info["depth"] >= 1 and info["pv"]
        reply = receive_until(ws, "engine_move")
        board = Board()
        board.push_uci("d2d4")
        assert board.is_legal(Move.from_uci(reply["uci"]))
        state = receive_until(ws, "state")
        assert state["moves"][0] == "d4" and len(state["moves"]) == 2
        ws.send_json({"type": "undo"})
        assert receive_until(ws, "state")["moves"] == []


def test_playing_black_the_engine_opens_and_each_side_is_named(client: TestClient) -> None:
    """The person takes Black: the engine plays White's first move at once, the board is
    turned, and the page is told whose turn it is after each move of either side."""
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"type": "settings", "depth": 2, "movetime": None})
        receive_until(ws, "state")
        ws.send_json({"type": "new", "engine": "white"})
        state = receive_until(ws, "state")
        assert (state["engine"], state["turn"], state["flipped"]) == ("white", "white", True)
        board = chess.Board()
        for _ in range(2):
            engine_move = chess.Move.from_uci(receive_until(ws, "engine_move")["uci"])
            assert board.color_at(engine_move.from_square) == chess.WHITE
            board.push(engine_move)
            state = receive_until(ws, "state")
            assert state["turn"] == "black" and state["fen"] == board.fen()
            mine = chess.Move.from_uci(sorted(state["legal"])[0])
            assert board.color_at(mine.from_square) == chess.BLACK
            ws.send_json({"type": "move", "uci": mine.uci()})
            board.push(mine)
            state = receive_until(ws, "state")
            assert state["turn"] == "white" and state["fen"] == board.fen()


def think_until_stopped(ws: Any) -> None:
    """Ask the tab's engine to think about 1. e4 until Move now; wait until it thinks."""
    receive_until(ws, "state")
    ws.send_json({"type": "settings", "infinite": True})
    receive_until(ws, "state")
    ws.send_json({"type": "move", "uci": "e2e4"})
    receive_until(ws, "thinking")


def search_threads() -> list[threading.Thread]:
    """The engine search threads alive in this process."""
    return [t for t in threading.enumerate() if t.name == "plies-search"]


def test_one_search_at_a_time_and_closing_stops_it(uncapped_client: TestClient) -> None:
    """A move while the engine thinks is refused; closing the tab ends its search (which
    nothing else ends: no cap, no limit)."""
    before = set(search_threads())
    with open_tab(uncapped_client) as ws:
        think_until_stopped(ws)
        ws.send_json({"type": "move", "uci": "d2d4"})
        assert "thinking" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "go"})
        assert "already" in receive_until(ws, "error")["message"]
        ours = set(search_threads()) - before
        assert len(ours) == 1  # exactly one search for this tab
    for thread in ours:
        thread.join(timeout=HANG_S)
        assert not thread.is_alive(), "the search outlived its tab"


def test_stop_plays_the_best_move_so_far(uncapped_client: TestClient) -> None:
    """Move now: the engine stops a search that nothing else ends and plays its move."""
    before = set(search_threads())
    with open_tab(uncapped_client) as ws:
        think_until_stopped(ws)
        receive_until(ws, "info")
        ours = set(search_threads()) - before
        ws.send_json({"type": "stop"})
        for thread in ours:
            thread.join(timeout=HANG_S)
            assert not thread.is_alive(), "Move now did not stop the search"
        board = Board()
        board.push_uci("e2e4")
        assert board.is_legal(Move.from_uci(receive_until(ws, "engine_move")["uci"]))


def test_analysis_of_a_pgn_evaluates_every_position(client: TestClient) -> None:
    """Every position of the game gets a verdict; mate at the end is the game's result."""
    pgn = '[Event "x"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"channel": "analyse", "type": "analyse", "pgn": pgn, "movetime": 50})
        head = receive_until(ws, "analysis", "analyse")
        assert head["moves"] == ["f3", "e5", "g4", "Qh4#"]
        evals = {}
        while len(evals) < 5:
            message = receive_until(ws, "eval", "analyse")
            evals[message["index"]] = message
        assert evals[4]["score"] == "0-1"
        assert evals[3]["score"] == "#-1" and evals[3]["best"] == "Qh4#"


def test_tabs_hear_that_the_engine_compiles_then_get_their_game() -> None:
    """Until the engine is ready a tab gets status messages (and /api/status says so)."""
    app = create_app()
    # No lifespan: the warm-up waits until it is started below.
    client = TestClient(app, base_url=BASE_URL)
    assert client.get("/api/status").json()["engine"] == "compiling"
    with client.websocket_connect(WS_URL) as ws:
        first = ws.receive_json()
        assert first["type"] == "status" and first["engine"] == "compiling"
        ws.send_json({"type": "move", "uci": "e2e4"})  # queued until the engine is ready
        app.state.readiness.start()
        assert receive_until(ws, "status")["engine"] in ("compiling", "ready")
        assert receive_until(ws, "state")["moves"] == []
        assert receive_until(ws, "state")["moves"] == ["e4"]
    assert client.get("/api/status").json()["engine"] == "ready"


def test_moving_ai_map_text_loads() -> None:
    """A Moving AI map sent as text comes back as rows ('@' and 'T' are walls)."""
    text = "type octile\nheight 3\nwidth 4\nmap\n....\n.@T.\n....\n"
    with TestClient(create_app(), base_url=BASE_URL) as client:
        answer = client.post("/api/paths/map", json={"text": text}).json()
    assert answer == {"width": 4, "height": 3, "rows": ["....", ".##.", "...."]}


def test_analysis_of_a_fen(client: TestClient) -> None:
    """A single position from FEN: one verdict, with the mate the engine finds."""
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8 mates
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"channel": "analyse", "type": "analyse", "fen": fen, "movetime": 200})
        assert receive_until(ws, "analysis", "analyse")["fens"] == [fen]
        verdict = receive_until(ws, "eval", "analyse")
        assert verdict["best"] == "Rd8#" and verdict["score"] == "#1"


@pytest.mark.parametrize(
    ("fen", "score", "mate", "graph"),
    [("k7/8/8/3K4/8/8/8/7R w - - 0 1", "#3", 3, 1000),
     ("7r/8/8/8/3k4/8/8/K7 b - - 0 1", "#-3", -3, -1000)],
    ids=["white-mates", "black-mates"],
)  # fmt: skip
def test_analysis_shows_a_mate_in_three_as_mate_in_three(
    client: TestClient, fen: str, score: str, mate: int, graph: int
) -> None:
    """The verdict is White's view in moves: mate 3 (#3) when White mates, -3 when Black does;
    the graph puts it at its edge."""
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"channel": "analyse", "type": "analyse", "fen": fen, "movetime": 1000})
        receive_until(ws, "analysis", "analyse")
        verdict = receive_until(ws, "eval", "analyse")
        assert (verdict["score"], verdict["score_mate"], verdict["score_cp"]) == (score, mate, None)
        assert verdict["graph_cp"] == graph


def test_status_counts_tabs_and_searches(uncapped_client: TestClient) -> None:
    """/api/status counts the open tabs and their running searches."""
    assert uncapped_client.get("/api/status").json()["tabs"] == 0
    with open_tab(uncapped_client) as ws:
        think_until_stopped(ws)
        status = uncapped_client.get("/api/status").json()
        assert status["tabs"] == 1 and status["searching"] == 1
    status = uncapped_client.get("/api/status").json()
    assert status["tabs"] == 0 and status["searching"] == 0


def test_engine_castles_king_takes_rook_in_chess960(client: TestClient) -> None:
    """In a Chess960 game the engine's castling arrives as the king taking its rook."""
    with open_tab(client) as ws:
        receive_until(ws, "state")
        ws.send_json({"type": "settings", "depth": 3, "movetime": None})
        receive_until(ws, "state")
        ws.send_json({"type": "fen", "fen": "2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1",
                      "chess960": True})
        assert receive_until(ws, "state")["chess960"]
        ws.send_json({"type": "go"})
        assert receive_until(ws, "engine_move")["uci"] == "b1a1"
        state = receive_until(ws, "state")
        assert state["moves"] == ["O-O-O#"] and state["last_move"] == "b1a1"


def test_an_illegal_move_says_which_rule_it_breaks(client: TestClient) -> None:
    """The Play page's error for an illegal move names the rule, as the board does."""
    with open_tab(client) as ws:
        receive_until(ws, "state")
        for uci, reason in (("e2e5", "a pawn cannot move from e2 to e5"),
                            ("e3e4", "no piece on e3"), ("e7e5", "not White's")):  # fmt: skip
            ws.send_json({"type": "move", "uci": uci})
            message = receive_until(ws, "error")["message"]
            assert message.startswith(f"illegal move {uci}: ") and reason in message, message
