"""The Arena API in process: players only from the server's list, runs off the event loop,
standings and PGN of the finished games; bad requests get one-line 4xx errors."""

from __future__ import annotations

import io
import json
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from tests.waiting import wait_until

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[dev]')")

with warnings.catch_warnings():  # Starlette's notice about its test client's HTTP library
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from plies.agents.registry import AGENT_NAMES
from plies.agents.spec import parse_player
from plies.web.app import create_app
from plies.web.arena import ArenaRoom

BASE_URL = "http://127.0.0.1:8000"
TOY = Path(__file__).resolve().parents[1] / "arena" / "toy_uci.py"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app offering a random mover, a capturer and an outside UCI engine."""
    players = [parse_player(t) for t in
               ("random", "capture", f"uci:{sys.executable} {TOY}:name=toy")]
    with TestClient(create_app(players=players), base_url=BASE_URL) as test_client:
        yield test_client


def wait_finished(client: TestClient) -> dict[str, Any]:
    """Wait until the run has finished (the server answering its status all along); return
    its run part."""

    def finished() -> bool:
        """The run has ended; the server still answers its status while one is played."""
        assert client.get("/api/status").status_code == 200
        run = client.get("/api/arena/state").json()["run"]
        return run is not None and not run["running"]

    wait_until(finished, "the run finishes")
    run: dict[str, Any] = client.get("/api/arena/state").json()["run"]
    return run


def test_players_are_offered_by_index(client: TestClient) -> None:
    """The configured players first, then the ladder's rungs they do not repeat."""
    state = client.get("/api/arena/state").json()
    names = ["random", "capture", "toy", "minimax:depth=2", "alphabeta:depth=3",
             "engine:depth=1", "engine:depth=4", "engine:depth=8", "engine"]
    assert state["players"] == [{"index": i, "name": n, "builtin": i >= 3}
                                for i, n in enumerate(names)]


def test_a_bare_room_offers_every_agent_of_the_registry() -> None:
    """Without configured players the ladder is there: every registry agent, weakest first."""
    players = ArenaRoom([]).players()["players"]
    assert all(p["builtin"] for p in players)
    agents = [p["name"].partition(":")[0] for p in players]
    assert list(dict.fromkeys(agents)) == list(AGENT_NAMES)
    assert ArenaRoom([]).state()["run"] is None


@pytest.mark.parametrize(("body", "message"), [
    ({"players": [0], "depth": 1}, "at least two"),
    ({"players": [0, 99], "depth": 1}, "no player number 99 (the server offers 9"),
    ({"players": ["random", "capture"], "depth": 1}, "list of player numbers"),
    ({"players": ["uci:/bin/sh", 0], "depth": 1}, "list of player numbers"),
    ({"players": [0, 0], "depth": 1}, "once"),
    ({"players": [0, 1]}, "give one limit"),
    ({"players": [0, 1], "depth": 1, "movetime": 5}, "give one limit"),
    ({"players": [0, 1], "tc": "fast"}, "bad time control"),
    ({"players": [0, 1], "depth": 1, "games": 1000}, "games"),
    ({"players": True, "depth": 1}, "list of player numbers"),
])
def test_bad_requests_are_one_line_errors(client: TestClient, body: dict[str, Any],
                                          message: str) -> None:
    answer = client.post("/api/arena/start", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert message in error and "\n" not in error


def test_a_league_runs_to_the_end_with_standings_and_pgn(client: TestClient) -> None:
    answer = client.post("/api/arena/start", json={"players": [0, 1, 2], "games": 2,
                                                   "depth": 1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["scheduled"] == 6
    run = wait_finished(client)
    assert run["played"] == 6 and run["error"] == ""
    assert len(run["games"]) == 6
    assert "<table" in run["standings"] and "toy" in run["standings"]
    assert run["live"]["svg"].startswith("<svg")
    pgn = client.get("/api/arena/pgn")
    assert "attachment" in pgn.headers["content-disposition"]
    games = []
    fh = io.StringIO(pgn.text)
    while (game := chess.pgn.read_game(fh)) is not None:
        games.append(game)
    assert len(games) == 6
    assert {g.headers["White"] for g in games} == {"random", "capture", "toy"}
    assert client.post("/api/arena/stop", json={}).status_code == 400  # nothing to stop


def test_a_mate_in_3_is_shown_as_mate_in_3() -> None:
    """A UCI engine's ``score mate 3`` is ``#3`` on the live board and ``+M3`` in the PGN."""
    room = ArenaRoom([parse_player(f"uci:{sys.executable} {TOY}:Mate=3,name=mater"),
                      parse_player("random")])
    try:
        room.start({"players": [0, 1], "depth": 1, "games": 1})
        wait_until(lambda: not room.state()["run"]["running"], "the run finishes")
        live = room.state()["run"]["live"]
        assert (live["white"], live["scores"]) == ("mater", ["#3", ""])
        game = chess.pgn.read_game(io.StringIO(room.pgn()))
        assert game is not None and game.next() is not None
        assert game.next().comment.startswith("+M3/1 ")  # type: ignore[union-attr]
    finally:
        room.close()


def test_one_run_at_a_time_and_stop(client: TestClient) -> None:
    answer = client.post("/api/arena/start", json={"players": [0, 2], "games": 100,
                                                   "movetime": 20})
    assert answer.status_code == 200, answer.text
    again = client.post("/api/arena/start", json={"players": [0, 1], "depth": 1})
    assert again.status_code == 409 and "already" in again.json()["error"]
    assert client.post("/api/arena/stop", json={}).status_code == 200
    run = wait_finished(client)
    assert run["played"] < 100


def test_random_arena_requests_never_break_the_server(client: TestClient) -> None:
    """Seeded random bodies to start and stop: 200, 400 or 409, never a 500; the server
    then still plays a run to its end."""
    from tests.web.test_fuzz import random_message, random_value

    rng = random.Random(41)
    for _ in range(120):
        path = rng.choice(["/api/arena/start", "/api/arena/stop"])
        body = random_value(rng) if rng.random() < 0.3 else random_message(rng)
        if isinstance(body, dict) and rng.random() < 0.5:
            body["players"] = [rng.randint(-1, 9) for _ in range(rng.randint(0, 4))]
        response = client.post(path, content=json.dumps(body),
                               headers={"Content-Type": "application/json"})
        assert response.status_code in (200, 400, 409), (path, body, response.text)
        assert isinstance(response.json(), dict)
    client.post("/api/arena/stop", json={})
    if client.get("/api/arena/state").json()["run"] is not None:
        wait_finished(client)
    answer = client.post("/api/arena/start", json={"players": [1, 0], "games": 1, "depth": 1})
    assert answer.status_code == 200, answer.text
    assert wait_finished(client)["played"] == 1


def receive_until(ws: Any, kind: str) -> dict[str, Any]:
    """Read play messages until one of type ``kind`` arrives (an error fails)."""
    while True:
        message = ws.receive_json()
        if message.get("channel", "play") != "play":
            continue
        if message.get("type") == kind:
            return message
        assert message.get("type") != "error" or kind == "error", message


def test_play_page_opponent_is_a_configured_player(client: TestClient) -> None:
    """The tab picks configured player 2 (an outside UCI engine) by index; it answers."""
    with client.websocket_connect("ws://127.0.0.1:8000/ws") as ws:
        state = receive_until(ws, "state")
        assert state["opponents"] == ["random", "capture", "toy"] and state["opponent"] is None
        ws.send_json({"type": "opponent", "index": "uci:/bin/sh"})
        assert "configured player" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "opponent", "index": 7})
        receive_until(ws, "error")
        ws.send_json({"type": "opponent", "index": 2})
        assert receive_until(ws, "state")["opponent"] == 2
        ws.send_json({"type": "move", "uci": "e2e4"})
        reply = receive_until(ws, "engine_move")
        state = receive_until(ws, "state")
        assert state["moves"][0] == "e4" and state["moves"][1] == reply["san"]
        assert '[Black "toy"]' in state["pgn"]
        # Back to the plies engine: the tab's game goes on against it.
        ws.send_json({"type": "opponent", "index": None})
        assert receive_until(ws, "state")["opponent"] is None
