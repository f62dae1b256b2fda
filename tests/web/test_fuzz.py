"""Random input, seeded: the server answers every request and message, never with an
internal error, and keeps working afterwards."""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[dev]')")

with warnings.catch_warnings():  # Starlette's notice about its test client's HTTP library
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient


TYPES = ["state", "new", "move", "undo", "fen", "settings", "flip", "go", "stop", "analyse",
         "view", "opponent", "bogus", "", None, 3]  # fmt: skip
FIELDS = ["type", "uci", "fen", "engine", "movetime", "depth", "pgn", "index", "channel",
          "game", "moves", "algorithm", "rows", "start", "goal", "width", "height", "kind",
          "method", "seed", "density", "text", "diagonal", "seconds_tenths",
          "playouts"]  # fmt: skip
ROUNDS = 150


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: small numbers, odd strings, lists, objects, nulls."""
    choice = rng.randrange(9 if depth < 2 else 6)
    if choice == 0:
        return rng.randint(-3, 5)
    if choice == 1:
        return rng.choice(["", "e2e4", "e7e8q", "x" * 300, "8/8/8/8/8/8/8/8 w - - 0 1",
                           "1. e4 *", "analyse", "play", "astar", "tictactoe", "connect4",
                           "maze", "white", "\u0000\ud7ff", "#.", "..#"])  # fmt: skip
    if choice == 2:
        return rng.choice([True, False, None])
    if choice == 3:
        return rng.random() * 1e9
    if choice in (4, 5):
        return [rng.randint(0, 8) for _ in range(rng.randint(0, 4))]
    if choice in (6, 7):
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(FIELDS): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_message(rng: random.Random) -> dict[str, Any]:
    """A message with a random type and random fields."""
    message = {rng.choice(FIELDS): random_value(rng) for _ in range(rng.randint(0, 4))}
    message["type"] = rng.choice(TYPES)
    message["channel"] = rng.choice(["play", "analyse", "play", "x"])
    if message["type"] == "analyse":
        message["movetime"] = 10  # keep any analysis that starts short
    return message


def test_random_http_bodies(client: TestClient) -> None:
    """Every random body gets 200 or a 400 JSON error, never a 500."""
    rng = random.Random(13)
    paths = ["/api/paths/search", "/api/paths/generate", "/api/paths/map", "/api/games/state",
             "/api/games/move", "/api/games/solve"]  # fmt: skip
    for _ in range(ROUNDS):
        path = rng.choice(paths)
        body = random_value(rng) if rng.random() < 0.3 else random_message(rng)
        if isinstance(body, dict) and body.get("algorithm") not in (None, "alphabeta"):
            body["algorithm"] = "alphabeta"  # keep the games' searches short
        if isinstance(body, dict):
            body["seconds_tenths"] = 1
        response = client.post(
            path, content=json.dumps(body), headers={"Content-Type": "application/json"}
        )
        assert response.status_code in (200, 400), (path, body, response.text)
        assert isinstance(response.json(), dict)


def test_random_websocket_messages(client: TestClient) -> None:
    """Random messages get answers but no internal error; the tab still plays afterwards."""
    rng = random.Random(29)
    with client.websocket_connect("ws://localhost:8000/ws") as ws:
        ws.send_json({"type": "settings", "depth": 1})
        ws.send_json({"type": "new", "engine": "black"})
        for _ in range(ROUNDS):
            ws.send_text(json.dumps(random_message(rng)))
        ws.send_json({"type": "stop"})
        ws.send_json({"type": "state", "channel": "analyse", "index": 0})
        ws.send_json({"type": "new", "engine": "none"})
        ws.send_json({"type": "move", "uci": "g1f3"})
        while True:
            message = ws.receive_json()
            assert not message.get("message", "").startswith("internal error"), message
            if message.get("type") == "state" and message.get("moves") == ["Nf3"]:
                break
