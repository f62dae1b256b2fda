"""A real server on a loopback port, probed as a foreign page and careless clients would.

The server runs in its own process with small limits (two search slots, a short cap on
every search, a small outbox) so that each bound is reached quickly; its PGN deadline is
generous (a loaded machine reads a long game slowly: the cut-off itself is tested in
test_pgn with a deadline no read can meet). Where the point is that one client cannot
freeze the others, ``/api/status`` is polled during the attack and must answer every time,
within a bound only a stalled server exceeds (a loaded machine may delay any one answer
by a good fraction of a second).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[dev]')")
websockets_client = pytest.importorskip("websockets.sync.client")
from tests.waiting import HANG_S, wait_until  # noqa: E402
from tests.web.conftest import Server, app_server  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402

LIMITS = {
    "search_slots": 2,
    "search_cap_ms": 1500,
    "outbox_bytes": 300_000,
    "pgn_timeout_s": 60.0,
}
#: The bound on waiting for any one reply: only a hang reaches it.
REPLY_TIMEOUT_S = HANG_S
TOKEN = "a-test-token-made-for-this-run"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server with small limits, its engine ready."""
    log = tmp_path_factory.mktemp("live") / "stderr.log"
    with app_server(LIMITS, log) as running:
        yield running


def status(server: Server, **headers: str) -> httpx.Response:
    """GET /api/status."""
    return httpx.get(server.url + "api/status", headers=headers, timeout=REPLY_TIMEOUT_S)


def receive(ws: Any, kind: str, channel: str = "play") -> dict[str, Any]:
    """The next message of type ``kind`` on ``channel``."""
    while True:
        message = json.loads(ws.recv(timeout=REPLY_TIMEOUT_S))
        if message.get("type") == kind and message.get("channel", channel) == channel:
            return message


def receive_first(ws: Any, kinds: tuple[str, ...], channel: str = "play") -> dict[str, Any]:
    """The next message of any type in ``kinds`` on ``channel``."""
    while True:
        message = json.loads(ws.recv(timeout=REPLY_TIMEOUT_S))
        if message.get("type") in kinds and message.get("channel", channel) == channel:
            return message


def open_tab(server: Server, **kwargs: Any) -> Any:
    """A websocket like the page opens (no Origin unless given)."""
    return websockets_client.connect(
        server.ws_url, max_size=None, open_timeout=REPLY_TIMEOUT_S, **kwargs
    )


class StatusWatch:
    """Polls ``/api/status`` in a thread; records every answer, and every failure (an error
    status, or no answer within ``REPLY_TIMEOUT_S``: only a stalled server takes that long)."""

    def __init__(self, server: Server, every_s: float = 0.02) -> None:
        """Start polling ``server``."""
        self.url = server.url + "api/status"
        self.every_s = every_s
        self.answers: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        """Poll until stopped, over one kept-alive connection."""
        with httpx.Client(timeout=REPLY_TIMEOUT_S) as client:
            while not self._stop.is_set():
                try:
                    response = client.get(self.url)
                except httpx.HTTPError as exc:
                    self.failures.append(f"no answer: {exc!r}")
                    return
                if response.status_code != 200:
                    self.failures.append(response.text)
                else:
                    self.answers.append(response.json())
                self._stop.wait(self.every_s)

    def __enter__(self) -> StatusWatch:
        """Start."""
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop and wait for the thread."""
        self._stop.set()
        self._thread.join()


def raw_handshake(
    server: Server, host: str | None = None, rcvbuf: int = 0
) -> tuple[socket.socket, str]:
    """A websocket opened by hand (any Host header): the socket and the answer's status line."""
    parts = urlsplit(server.url)
    sock = socket.socket()
    if rcvbuf:  # set before connecting, so the window stays small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws HTTP/1.1\r\nHost: {host or parts.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    return sock, head.split(b"\r\n", 1)[0].decode()


def text_frame(text: str) -> bytes:
    """One masked websocket text frame, as a client must send it."""
    payload = text.encode()
    mask = os.urandom(4)
    if len(payload) < 126:
        header = struct.pack("!BB", 0x81, 0x80 | len(payload))
    else:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, len(payload))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# -- who may connect ------------------------------------------------------------------------


def test_a_foreign_host_is_refused(live: Server) -> None:
    """DNS rebinding: the page and the websocket refuse a Host that is not this server."""
    port = urlsplit(live.url).port
    foreign = f"rebind.attacker.example:{port}"
    response = httpx.get(live.url, headers={"Host": foreign}, timeout=REPLY_TIMEOUT_S)
    assert response.status_code == 403 and "Host" in response.json()["error"]
    local = httpx.get(live.url, headers={"Host": f"localhost:{port}"}, timeout=REPLY_TIMEOUT_S)
    assert local.status_code == 200
    sock, answer = raw_handshake(live, host=foreign)
    sock.close()
    assert " 403 " in answer
    sock, answer = raw_handshake(live)
    sock.close()
    assert " 101 " in answer


def test_a_foreign_origin_is_refused(live: Server) -> None:
    """Another site's page can neither open a tab nor change anything; our own page can."""
    with pytest.raises(InvalidStatus) as refused, open_tab(live, origin="http://evil.example"):
        pass
    assert refused.value.response.status_code == 403
    own = live.url.rstrip("/")
    with open_tab(live, origin=own) as ws:
        assert receive(ws, "state")["moves"] == []
    body = {"game": "tictactoe", "moves": [4]}
    evil = httpx.post(
        live.url + "api/games/state", json=body, headers={"Origin": "http://evil.example"}
    )
    assert evil.status_code == 403 and "Origin" in evil.json()["error"]
    ok = httpx.post(live.url + "api/games/state", json=body, headers={"Origin": own})
    assert ok.status_code == 200
    text = httpx.post(
        live.url + "api/games/state", content=json.dumps(body),
        headers={"Content-Type": "text/plain"},
    )  # fmt: skip
    assert text.status_code == 415


# -- one client cannot freeze the others ------------------------------------------------------


def nested_variations(depth: int) -> str:
    """A short game whose second move has ``depth`` nested alternatives."""
    return "1. Nf3 Nf6 2. Ng1 " + "(2. Nc3 " * depth + ")" * depth + " Ng8 *"


def test_hostile_pgns_are_bounded_and_status_keeps_answering(live: Server) -> None:
    """Nested variations, a slow-to-parse PGN and a too-long game: errors or the main line,
    while /api/status keeps answering throughout (the slow PGN is read, or cut
    off on a slow enough machine; the server stays responsive either way)."""
    slow = "1. e4 (1. d4 " + "{}" * 190_000 + ") *"  # quadratic comment scanning
    too_long = "1. Nf3 Nf6 2. Ng1 Ng8 " * 301 + "*"
    with StatusWatch(live) as watch, open_tab(live) as ws:
        receive(ws, "state")
        ws.send(json.dumps({"channel": "analyse", "type": "analyse",
                            "pgn": nested_variations(1200), "movetime": 10}))  # fmt: skip
        head = receive(ws, "analysis", "analyse")
        assert head["moves"] == ["Nf3", "Nf6", "Ng1", "Ng8"]
        receive(ws, "analysis_done", "analyse")
        ws.send(json.dumps({"channel": "analyse", "type": "analyse", "pgn": slow}))
        # Read within the deadline, or cut off on a machine slow enough (the cut itself is
        # tested with a zero deadline in test_pgn): either way one answer comes.
        answer = receive_first(ws, ("error", "analysis"), "analyse")
        if answer["type"] == "error":
            assert "too long to read" in answer["message"]
        else:
            assert answer["moves"] == ["e4"]
            receive(ws, "analysis_done", "analyse")
        ws.send(json.dumps({"channel": "analyse", "type": "analyse", "pgn": too_long}))
        assert "more than 1000 plies" in receive(ws, "error", "analyse")["message"]
    assert not watch.failures and watch.answers


def test_a_slow_reader_is_disconnected_and_status_keeps_answering(live: Server) -> None:
    """A tab that asks for a lot and reads nothing is cut off; the rest keep answering."""
    request = text_frame(json.dumps({"type": "state"}))
    sock, answer = raw_handshake(live, rcvbuf=4096)
    assert " 101 " in answer
    with StatusWatch(live) as watch, sock:
        sock.settimeout(5)
        for _ in range(2000):  # about 20 kB of reply each: far beyond the outbox
            try:
                sock.sendall(request)
            except OSError:
                break  # the server has closed the connection
        wait_until(lambda: status(live).json()["tabs"] == 0, "the slow reader disconnected")
    assert not watch.failures and watch.answers
    assert "did not read" in Path(live.log).read_text()


# -- bounded work ---------------------------------------------------------------------------


def test_a_search_until_move_now_still_ends_by_the_cap(live: Server) -> None:
    """A search that only Move now would end (no move time, no depth) still ends, by the
    server's cap: nothing else could end it, on any machine."""
    with open_tab(live) as ws:
        receive(ws, "state")
        ws.send(json.dumps({"type": "settings", "infinite": True}))
        state = receive(ws, "state")
        assert state["depth"] is None and state["movetime"] is None
        ws.send(json.dumps({"type": "go"}))
        assert receive(ws, "engine_move")["uci"]


def test_sixteen_tabs_searching_stay_within_the_slots(live: Server) -> None:
    """Sixteen tabs start a search at once: at most two engines run, the rest wait, and
    every tab gets its move."""
    wait_until(lambda: status(live).json()["tabs"] == 0, "the tabs of earlier tests gone")
    with contextlib.ExitStack() as stack:
        tabs = [stack.enter_context(open_tab(live)) for _ in range(16)]
        for ws in tabs:
            receive(ws, "state")
            ws.send(json.dumps({"type": "settings", "movetime": 300}))
            receive(ws, "state")
        with StatusWatch(live, every_s=0.01) as watch:
            for ws in tabs:
                ws.send(json.dumps({"type": "go"}))
            for ws in tabs:
                assert receive(ws, "engine_move")["uci"]
        assert max(a["searching"] for a in watch.answers) <= LIMITS["search_slots"]
        assert max(a["slots_busy"] for a in watch.answers) <= LIMITS["search_slots"]
        assert max(a["waiting"] for a in watch.answers) >= 1  # the limit was really reached
        assert status(live).json()["slots_peak"] <= LIMITS["search_slots"]


def test_a_refused_tab_is_told_why(live: Server) -> None:
    """The seventeenth tab hears that there are too many, and is closed with 1013."""
    with contextlib.ExitStack() as stack:
        tabs = [stack.enter_context(open_tab(live)) for _ in range(16)]
        for ws in tabs:
            receive(ws, "state")
        with open_tab(live) as extra:
            refusal = json.loads(extra.recv(timeout=REPLY_TIMEOUT_S))
            assert "too many open tabs" in refusal["message"]


# -- the token of a server reachable from elsewhere ------------------------------------------------


def test_the_token_flow(tmp_path: Path) -> None:
    """Without the token nothing answers; with it once (query or header) a cookie carries on."""
    with app_server(LIMITS, tmp_path / "stderr.log", token=TOKEN, wait_ready=False) as server:
        assert httpx.get(server.url, timeout=REPLY_TIMEOUT_S).status_code == 403
        assert status(server).status_code == 403
        assert httpx.get(server.url + "?token=wrong", timeout=REPLY_TIMEOUT_S).status_code == 403
        with httpx.Client(timeout=REPLY_TIMEOUT_S) as browser:
            page = browser.get(server.url + f"?token={TOKEN}")
            assert page.status_code == 200 and "<html" in page.text.lower()
            cookie = page.headers["set-cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
            assert browser.get(server.url + "api/status").status_code == 200  # by cookie
            assert browser.get(server.url + "static/common.js").status_code == 200
        assert status(server, **{"X-Plies-Token": TOKEN}).status_code == 200
        assert status(server, Authorization=f"token {TOKEN}").status_code == 200
        with pytest.raises(InvalidStatus), open_tab(server):
            pass
        cookie_header = {"Cookie": f"plies_token={TOKEN}"}
        with open_tab(server, additional_headers=cookie_header) as ws:
            assert json.loads(ws.recv(timeout=REPLY_TIMEOUT_S))["type"] in ("status", "state")
