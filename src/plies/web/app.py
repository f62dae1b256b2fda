"""The Starlette application: the page, its static files, the JSON API and the tab websocket.

Every JSON route answers ``{"error": "..."}`` with status 400 for a bad request and
changes nothing; CPU-heavy routes run in the thread pool so the event loop stays free.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

import plies
from plies.web import games, paths
from plies.web.errors import ApiError
from plies.web.fields import require_object
from plies.web.readiness import EngineReadiness
from plies.web.socket import Tabs, tab_socket

STATIC = Path(__file__).parent / "static"
#: Largest request body accepted (a Moving AI map of 512 x 512 is about 270 kB).
MAX_BODY = 1_000_000

Handler = Callable[[dict[str, Any]], dict[str, Any]]
_log = logging.getLogger(__name__)


def error_response(message: str, status: int = 400) -> JSONResponse:
    """The one shape of every error: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


async def _read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or ``ApiError``."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(f"request too large ({len(body)} bytes, at most {MAX_BODY})", 413)
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ApiError("the request body must be valid JSON") from None
    return require_object(data)


def json_route(handler: Handler) -> Callable[[Request], Any]:
    """Wrap ``handler`` (JSON object in, JSON object out) as a POST endpoint in the thread pool."""

    async def endpoint(request: Request) -> Response:
        """Read, compute off the event loop, answer; errors as JSON."""
        try:
            data = await _read_json(request)
            return JSONResponse(await run_in_threadpool(handler, data))
        except ApiError as exc:
            return error_response(str(exc), exc.status)
        except Exception as exc:  # a bug must not take the server down: report it
            _log.exception("request failed")
            return error_response(f"internal error: {exc}", 500)

    return endpoint


async def index(request: Request) -> Response:
    """The single page."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def status(request: Request) -> Response:
    """The engine's state (``engine``: compiling, ready or failed), open tabs, searches."""
    readiness: EngineReadiness = request.app.state.readiness
    tabs: Tabs = request.app.state.tabs
    return JSONResponse(
        {
            **readiness.snapshot(),
            "tabs": tabs.open,
            "searching": tabs.searching(),
            "version": plies.__version__,
        }
    )


async def path_options(request: Request) -> Response:
    """Algorithms and maze generators the Paths page offers."""
    return JSONResponse(paths.options())


async def not_found(request: Request, exc: Exception) -> Response:
    """Unknown URLs and wrong methods as JSON errors."""
    code = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    return error_response(f"{detail}: {request.method} {request.url.path}", code)


def create_app() -> Starlette:
    """The application; the chess engine starts compiling in the background when it starts."""
    readiness = EngineReadiness()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """Start compiling the engine when the server starts."""
        readiness.start()
        yield

    routes = [
        Route("/", index),
        Route("/api/status", status),
        Route("/api/paths/options", path_options),
        Route("/api/paths/generate", json_route(paths.generate), methods=["POST"]),
        Route("/api/paths/map", json_route(paths.load_map_text), methods=["POST"]),
        Route("/api/paths/search", json_route(paths.search), methods=["POST"]),
        Route("/api/games/state", json_route(games.state), methods=["POST"]),
        Route("/api/games/move", json_route(games.computer_move), methods=["POST"]),
        Route("/api/games/solve", json_route(games.solve), methods=["POST"]),
        WebSocketRoute("/ws", tab_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found})
    app.state.readiness = readiness
    app.state.tabs = Tabs()
    return app
