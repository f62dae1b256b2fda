"""``mind+http://HOST:PORT/PATH``: a mind served over HTTP, maybe on another machine.

For every move the FEN is POSTed to the URL as ``text/plain``; the response
body is the action (``from,to``, ``0,0`` resigns; see :mod:`plies.agents.mind`).
A server that cannot be reached, answers with an error status, garbage or an
illegal move, or takes longer than the move's time (``stop()`` cuts the connection)
loses that game.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from plies.agents.mind_program import resolve_action
from plies.agents.player import Player, PlayerError

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Info, Limit

# The longest answer read from a server: an action is a few bytes.
MAX_ANSWER_BYTES = 4096


class HttpMindPlayer(Player):
    """A mind behind an HTTP URL: one POST per move, on a kept-alive connection."""

    def __init__(self, name: str, url: str) -> None:
        """Remember the server (``url`` is ``http://`` or ``https://``); nothing connects yet."""
        self.name = name
        self.url = url
        parts = urlsplit(url)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._conn: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._stopped = False

    def _connection(self, timeout_s: float | None) -> http.client.HTTPConnection:
        """The open connection (made now if there is none), with ``timeout_s`` on its socket."""
        conn = self._conn
        if conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            conn = cls(self._host, self._port, timeout=timeout_s)
            with self._lock:
                self._conn = conn
        conn.timeout = timeout_s
        if conn.sock is not None:
            conn.sock.settimeout(timeout_s)
        return conn

    def new_game(self, seed: int | None = None) -> None:
        """Nothing to prepare: a mind is asked one position at a time."""
        self.last = None
        self.healthy = True

    def play(self, board: Board, limit: Limit) -> Info:
        """POST the FEN and read the action; only ``stop()`` ends a silent server's wait."""
        return self.play_within(board, limit, None)

    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """POST the FEN and read the action within ``timeout_s``."""
        self._stopped = False
        conn = self._connection(timeout_s)
        try:
            conn.request("POST", self._path, body=board.fen().encode(),
                         headers={"Content-Type": "text/plain; charset=utf-8"})
            response = conn.getresponse()
            body = response.read(MAX_ANSWER_BYTES)
            if not response.will_close:
                response.read()  # drain, so the connection can carry the next request
        except TimeoutError:
            self._drop()
            raise PlayerError("hang", f"no answer within {timeout_s:g}s") from None
        except (OSError, http.client.HTTPException) as exc:
            self._drop()
            if self._stopped:
                raise PlayerError("hang", f"{self.url}: no answer when told to stop") from None
            raise PlayerError("crash", f"{self.url}: {exc or type(exc).__name__}") from None
        if response.status != 200:
            self._drop()
            raise PlayerError("crash", f"{self.url} answered HTTP {response.status}")
        info = resolve_action(board, body.decode(errors="replace"))
        self.last = info
        return info

    def _drop(self) -> None:
        """Close the connection; the next move opens a new one."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def stop(self) -> None:
        """Cut the connection under a waiting request: ``play`` raises PlayerError('hang')."""
        self._stopped = True
        self.abandon()

    def abandon(self) -> None:
        """Cut the connection under a waiting request (wakes it at once)."""
        conn = self._conn
        sock = conn.sock if conn is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Close the connection."""
        self._drop()
