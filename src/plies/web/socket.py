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
from plies.web.limits import ServerLimits
from plies.web.play import WebPlaySession
from plies.web.readiness import READY, EngineReadiness
from plies.web.runner import SearchRunner

#: Longest message a tab may send (a long PGN fits comfortably).
MAX_MESSAGE = 500_000
#: Open tabs at once; each holds two engines' tables.
MAX_TABS = 16
#: Close code for a tab cut off because it stopped reading.
SLOW_READER_CLOSE = 1008
#: How often a tab waiting for the compiler hears that it is still going on.
STATUS_EVERY_S = 1.0
CHANNELS = ("play", "analyse")
#: What a tab hears about a bug (the detail goes to the server's log).
INTERNAL_ERROR = "internal error (the server's log has the details)"

_log = logging.getLogger(__name__)


class Tab:
    """One tab's two sessions (set once the engine is ready)."""

    def __init__(self) -> None:
        """No sessions yet."""
        self.play: WebPlaySession | None = None
        self.analyse: AnalysisSession | None = None

    def sessions(self) -> list[WebPlaySession | AnalysisSession]:
        """The sessions that exist."""
        return [s for s in (self.play, self.analyse) if s is not None]

    def close(self) -> None:
        """Stop the tab's searches."""
        for session in self.sessions():
            session.close()


class Tabs:
    """The open tabs' sessions: bounded in number, counted for ``/api/status``."""

    def __init__(self, limit: int = MAX_TABS) -> None:
        """Allow at most ``limit`` tabs at once."""
        self.limit = limit
        self.sessions: list[Tab] = []
        self.waiting = 0
        """Tabs connected but waiting for the engine to compile."""

    @property
    def open(self) -> int:
        """Number of tabs connected."""
        return len(self.sessions) + self.waiting

    def searching(self) -> int:
        """Number of engines searching for tabs right now (not those waiting for a slot)."""
        return sum(s.running for tab in self.sessions for s in tab.sessions())


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


class Outbox:
    """A tab's unsent replies, bounded in bytes: a tab that does not read is cut off."""

    def __init__(self, limit_bytes: int) -> None:
        """Hold at most ``limit_bytes`` of unsent JSON."""
        self.limit = limit_bytes
        self.queued = 0
        self.overflowed = asyncio.Event()
        self._queue: asyncio.Queue[str] = asyncio.Queue()

    def put(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (event-loop thread only); past the limit, drop it and overflow."""
        if self.overflowed.is_set():
            return
        text = json.dumps(message)
        if self.queued + len(text) > self.limit:
            self.overflowed.set()
            return
        self.queued += len(text)
        self._queue.put_nowait(text)

    async def get(self) -> str:
        """The next message to send."""
        text = await self._queue.get()
        self.queued -= len(text)
        return text

    def empty(self) -> bool:
        """Whether everything has been sent."""
        return self._queue.empty()


async def tab_socket(websocket: WebSocket) -> None:
    """Serve one tab until it closes (or stops reading what it is sent)."""
    readiness: EngineReadiness = websocket.app.state.readiness
    tabs: Tabs = websocket.app.state.tabs
    limits: ServerLimits = websocket.app.state.limits
    await websocket.accept()
    if tabs.open >= tabs.limit:
        await websocket.send_json(
            {"type": "error", "message": f"too many open tabs ({tabs.limit})"}
        )
        await websocket.close(code=1013)
        return
    tabs.waiting += 1
    loop = asyncio.get_running_loop()
    outbox = Outbox(limits.outbox_bytes)
    send = outbox.put

    def post(func: Callable[[], None]) -> None:
        """Run ``func`` on the event loop's thread (callable from any thread)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is listening
            loop.call_soon_threadsafe(func)

    async def pump() -> None:
        """Send queued messages in order."""
        while True:
            await websocket.send_text(await outbox.get())

    sender = asyncio.create_task(pump())
    tab = Tab()
    serving = asyncio.create_task(_serve(websocket, tab, readiness, tabs, send, post))
    overflow = asyncio.create_task(outbox.overflowed.wait())
    try:
        await asyncio.wait({serving, sender, overflow}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (serving, overflow):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await serving
        if serving.done() and not serving.cancelled() and serving.exception() is not None:
            _log.error("a tab failed", exc_info=serving.exception())
        tab.close()
        if any(t is tab for t in tabs.sessions):
            tabs.sessions = [t for t in tabs.sessions if t is not tab]
        else:
            tabs.waiting -= 1
        if outbox.overflowed.is_set():
            _log.warning("disconnected a tab that did not read its messages")
            sender.cancel()
        else:  # let the last messages out when the tab is still there, then stop sending
            with contextlib.suppress(Exception):
                await asyncio.wait_for(_drain(outbox), timeout=0.5)
            sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        code = SLOW_READER_CLOSE if outbox.overflowed.is_set() else 1000
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=code), timeout=1.0)


async def _serve(
    websocket: WebSocket,
    tab: Tab,
    readiness: EngineReadiness,
    tabs: Tabs,
    send: Callable[[dict[str, Any]], None],
    post: Callable[[Callable[[], None]], None],
) -> None:
    """Wait for the engine, then answer the tab's messages until it disconnects."""
    app_state = websocket.app.state
    limits: ServerLimits = app_state.limits
    try:
        await _wait_for_engine(readiness, send)
        if readiness.state != READY:
            return

        def runner() -> SearchRunner:
            """A search runner sharing the server's slots and cap."""
            return SearchRunner(post, app_state.slots, limits.search_cap_ms)

        arena = app_state.arena
        tab.play = WebPlaySession(lambda m: send({"channel": "play", **m}), post, runner(),
                               list(zip(arena.names, arena.specs, strict=True)))
        tab.analyse = AnalysisSession(
            lambda m: send({"channel": "analyse", **m}), post, runner(),
            read_pgn=app_state.pgn_workers.read, budget_ms=limits.analysis_budget_ms,
        )  # fmt: skip
        tabs.waiting -= 1
        tabs.sessions.append(tab)
        tab.play.handle({"type": "state"})
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
                except (ValueError, RecursionError):  # bad JSON, a number of 5,000 digits
                    raise ApiError("a message must be valid JSON") from None
                channel = get_choice(message, "channel", CHANNELS, "play")
                if channel == "analyse":
                    await tab.analyse.handle(message)
                else:
                    tab.play.handle(message)
            except ApiError as exc:
                send({"channel": channel, "type": "error", "message": str(exc)})
            except Exception:  # a bug must not take the tab down: log it, say little, go on
                _log.exception("a tab's message failed")
                send({"channel": channel, "type": "error", "message": INTERNAL_ERROR})
    except WebSocketDisconnect:
        pass


async def _drain(outbox: Outbox) -> None:
    """Wait until the outbox is empty."""
    while not outbox.empty():
        await asyncio.sleep(0.01)
