"""The websocket of one browser tab: its own game and analysis, gone when the tab closes.

Every message is a JSON object with a ``channel`` (``play`` or ``analyse``) and a
``type``. Replies carry the same channel. A bad message gets ``{"type": "error"}`` with a
one-line reason and changes nothing; closing the tab stops the tab's searches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from plies.web.analysis import AnalysisSession
from plies.web.errors import ApiError
from plies.web.fields import get_choice, require_object
from plies.web.play import PlaySession
from plies.web.readiness import READY, EngineReadiness

#: Longest message a tab may send (a long PGN fits comfortably).
MAX_MESSAGE = 500_000
#: Open tabs at once; each holds two engines' tables.
MAX_TABS = 16
#: How often a tab waiting for the compiler hears that it is still going on.
STATUS_EVERY_S = 1.0
CHANNELS = ("play", "analyse")

_log = logging.getLogger(__name__)


class Tabs:
    """The open tabs' sessions: bounded in number, counted for ``/api/status``."""

    def __init__(self, limit: int = MAX_TABS) -> None:
        """Allow at most ``limit`` tabs at once."""
        self.limit = limit
        self.sessions: list[dict[str, PlaySession | AnalysisSession]] = []
        self.waiting = 0
        """Tabs connected but waiting for the engine to compile."""

    @property
    def open(self) -> int:
        """Number of tabs connected."""
        return len(self.sessions) + self.waiting

    def searching(self) -> int:
        """Number of engine searches running for tabs."""
        return sum(s.searching for tab in self.sessions for s in tab.values())


async def _wait_for_engine(
    readiness: EngineReadiness, send: Callable[[dict[str, Any]], None]
) -> None:
    """Tell the tab the engine's state until it is compiled (or has failed)."""
    loop = asyncio.get_running_loop()
    last = -STATUS_EVERY_S
    while not readiness.wait(0):
        if loop.time() - last >= STATUS_EVERY_S:
            send({"type": "status", **readiness.snapshot()})
            last = loop.time()
        await asyncio.sleep(0.1)
    send({"type": "status", **readiness.snapshot()})


async def tab_socket(websocket: WebSocket) -> None:
    """Serve one tab until it closes."""
    readiness: EngineReadiness = websocket.app.state.readiness
    tabs: Tabs = websocket.app.state.tabs
    await websocket.accept()
    if tabs.open >= tabs.limit:
        await websocket.send_json(
            {"type": "error", "message": f"too many open tabs ({tabs.limit})"}
        )
        await websocket.close(code=1013)
        return
    tabs.waiting += 1
    loop = asyncio.get_running_loop()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(message: dict[str, Any]) -> None:
        """Queue ``message`` for the tab (event-loop thread only)."""
        outbox.put_nowait(message)

    def post(func: Callable[[], None]) -> None:
        """Run ``func`` on the event loop's thread (callable from any thread)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is listening
            loop.call_soon_threadsafe(func)

    async def pump() -> None:
        """Send queued messages in order."""
        while True:
            await websocket.send_json(await outbox.get())

    sender = asyncio.create_task(pump())
    sessions: dict[str, PlaySession | AnalysisSession] = {}
    try:
        await _wait_for_engine(readiness, send)
        if readiness.state != READY:
            return
        sessions["play"] = PlaySession(lambda m: send({"channel": "play", **m}), post)
        sessions["analyse"] = AnalysisSession(lambda m: send({"channel": "analyse", **m}), post)
        tabs.waiting -= 1
        tabs.sessions.append(sessions)
        sessions["play"].handle({"type": "state"})
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            channel = "play"
            try:
                text = received.get("text")
                if text is None:
                    raise ApiError("messages must be JSON text")
                if len(text) > MAX_MESSAGE:
                    raise ApiError(f"message too long ({len(text)} characters)")
                try:
                    message = require_object(json.loads(text), "a message")
                except (json.JSONDecodeError, RecursionError):
                    raise ApiError("a message must be valid JSON") from None
                channel = get_choice(message, "channel", CHANNELS, "play")
                sessions[channel].handle(message)
            except ApiError as exc:
                send({"channel": channel, "type": "error", "message": str(exc)})
            except Exception as exc:  # a bug must not take the tab down: report and go on
                _log.exception("message failed")
                send({"channel": channel, "type": "error", "message": f"internal error: {exc}"})
    except WebSocketDisconnect:
        pass
    finally:
        for session in sessions.values():
            session.close()
        if any(tab is sessions for tab in tabs.sessions):
            tabs.sessions = [tab for tab in tabs.sessions if tab is not sessions]
        else:
            tabs.waiting -= 1
        # Let the last messages out when the tab is still there, then stop sending.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(_drain(outbox), timeout=0.5)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _drain(outbox: asyncio.Queue[dict[str, Any]]) -> None:
    """Wait until the queue is empty."""
    while not outbox.empty():
        await asyncio.sleep(0.01)
