"""The Starlette application: the page, its static files, the JSON API and the tab websocket.

Every JSON route answers ``{"error": "..."}`` with status 400 for a bad request and
changes nothing. Requests must come from this machine's own pages (see
:mod:`plies.web.security`); CPU-heavy routes wait for one of the server's search slots
and run in the thread pool, so the event loop stays free for everyone else.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

import plies
from plies.web import games, paths
from plies.web.arena import ArenaRoom
from plies.web.errors import ApiError
from plies.web.fields import require_object
from plies.web.limits import ServerLimits
from plies.web.pgn_workers import PgnWorkers
from plies.web.readiness import EngineReadiness
from plies.web.security import Guard, GuardMiddleware
from plies.web.slots import BusyError, SearchSlots
from plies.web.socket import Tabs, tab_socket

if TYPE_CHECKING:
    from plies.agents.spec import PlayerSpec

STATIC = Path(__file__).parent / "static"
#: How long an HTTP request waits for a search slot before it is told the server is busy.
SLOT_WAIT_S = 5.0
#: What a client hears about a bug (the detail goes to the server's log).
INTERNAL_ERROR = "internal error (the server's log has the details)"

Handler = Callable[[dict[str, Any]], dict[str, Any]]
_log = logging.getLogger(__name__)


def error_response(message: str, status: int = 400) -> JSONResponse:
    """The one shape of every error: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


def _is_json(request: Request) -> bool:
    """Whether the request says its body is JSON (``application/json``, any parameters)."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media_type == "application/json"


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) past ``limit`` bytes before more is read."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 18:
            raise ApiError("bad Content-Length")
        if int(declared) > limit:
            raise ApiError(f"request too large ({declared} bytes, at most {limit})", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(f"request too large (more than {limit} bytes)", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request body as a JSON object, or ``ApiError``."""
    if not _is_json(request):
        raise ApiError("requests must be sent as JSON (Content-Type: application/json)", 415)
    body = await read_body(request, limit)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, a number of 5,000 digits
        raise ApiError("the request body must be valid JSON") from None
    return require_object(data)


def json_route(handler: Handler, heavy: bool = True) -> Callable[[Request], Any]:
    """Wrap ``handler`` (JSON object in, JSON object out) as a POST endpoint in the thread pool.

    A ``heavy`` handler runs only once it holds one of the server's search slots.
    """

    async def endpoint(request: Request) -> Response:
        """Read, compute off the event loop, answer; errors as JSON."""
        limits: ServerLimits = request.app.state.limits
        slots: SearchSlots = request.app.state.slots
        try:
            data = await _read_json(request, limits.max_body)
            if not heavy:
                return JSONResponse(await run_in_threadpool(handler, data))
            try:
                lease = await asyncio.wait_for(slots.acquire(), SLOT_WAIT_S)
            except TimeoutError:
                raise BusyError("the server is busy with other searches: try again") from None
            try:
                return JSONResponse(await run_in_threadpool(handler, data))
            finally:
                lease.release()
        except ApiError as exc:
            return error_response(str(exc), exc.status)
        except Exception:  # a bug must not take the server down: log it, say little
            _log.exception("%s %s failed", request.method, request.url.path)
            return error_response(INTERNAL_ERROR, 500)

    return endpoint


async def index(request: Request) -> Response:
    """The single page."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def status(request: Request) -> Response:
    """The engine's state (``engine``: compiling, ready or failed), open tabs, searches."""
    readiness: EngineReadiness = request.app.state.readiness
    tabs: Tabs = request.app.state.tabs
    slots: SearchSlots = request.app.state.slots
    return JSONResponse(
        {
            **readiness.snapshot(),
            "tabs": tabs.open,
            "searching": tabs.searching(),
            "slots": slots.limit,
            "slots_busy": slots.active,
            "slots_peak": slots.peak,
            "waiting": slots.waiting,
            "version": plies.__version__,
        }
    )


async def path_options(request: Request) -> Response:
    """Algorithms and maze generators the Paths page offers."""
    return JSONResponse(paths.options())


async def arena_state(request: Request) -> Response:
    """The Arena page's state: the configured players, the run and its games."""
    room: ArenaRoom = request.app.state.arena
    return JSONResponse(await run_in_threadpool(room.state))


async def arena_pgn(request: Request) -> Response:
    """Every finished game of the arena run, as a PGN file to download."""
    room: ArenaRoom = request.app.state.arena
    return PlainTextResponse(
        room.pgn(), media_type="application/x-chess-pgn",
        headers={"Content-Disposition": 'attachment; filename="arena.pgn"'},
    )  # fmt: skip


async def http_error(request: Request, exc: Exception) -> Response:
    """Unknown URLs and wrong methods as JSON errors."""
    code = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    return error_response(f"{detail}: {request.method} {request.url.path}", code)


async def server_error(request: Request, exc: Exception) -> Response:
    """Any other exception: logged with its traceback, a generic answer to the client."""
    _log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error_response(INTERNAL_ERROR, 500)


def create_app(limits: ServerLimits | None = None, guard: Guard | None = None,
               players: Sequence[PlayerSpec] = ()) -> Starlette:
    """The application; the chess engine starts compiling in the background when it starts.

    ``guard`` says who may connect (default: this machine's loopback names, no token);
    ``players`` are offered on the Play and Arena pages (from ``plies serve --player``).
    """
    limits = limits if limits is not None else ServerLimits()
    guard = guard if guard is not None else Guard()
    readiness = EngineReadiness()
    pgn_workers = PgnWorkers(limits.search_slots, limits.pgn_timeout_s)
    arena = ArenaRoom(players)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """Start compiling the engine (and a PGN reader) when the server starts."""
        readiness.start()
        warming = asyncio.get_running_loop().run_in_executor(None, pgn_workers.warm)
        try:
            yield
        finally:
            await asyncio.wait([warming])
            pgn_workers.close()
            await run_in_threadpool(arena.close)

    move = partial(games.computer_move, cap_s=limits.game_search_s)
    routes = [
        Route("/", index),
        Route("/api/status", status),
        Route("/api/paths/options", path_options),
        Route("/api/paths/generate", json_route(paths.generate), methods=["POST"]),
        Route("/api/paths/map", json_route(paths.load_map_text), methods=["POST"]),
        Route("/api/paths/search", json_route(paths.search), methods=["POST"]),
        Route("/api/games/state", json_route(games.state, heavy=False), methods=["POST"]),
        Route("/api/games/move", json_route(move), methods=["POST"]),
        Route("/api/games/solve", json_route(games.solve), methods=["POST"]),
        Route("/api/arena/state", arena_state),
        Route("/api/arena/pgn", arena_pgn),
        Route("/api/arena/start", json_route(arena.start, heavy=False), methods=["POST"]),
        Route("/api/arena/stop", json_route(arena.stop, heavy=False), methods=["POST"]),
        WebSocketRoute("/ws", tab_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(GuardMiddleware, guard=guard)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.readiness = readiness
    app.state.limits = limits
    app.state.guard = guard
    app.state.slots = SearchSlots(limits.search_slots, limits.max_waiting)
    app.state.pgn_workers = pgn_workers
    app.state.tabs = Tabs()
    app.state.arena = arena
    return app
