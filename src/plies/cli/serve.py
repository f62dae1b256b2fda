"""``plies serve``: the browser app (play, analyse, path finding, small games) on a local server."""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
import webbrowser
from typing import TYPE_CHECKING

from plies.cli.common import CliError

if TYPE_CHECKING:
    import uvicorn

    from plies.web.readiness import EngineReadiness

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Largest websocket message accepted by the server (a long PGN fits).
WS_MAX_BYTES = 1 << 20
#: Say that the engine is compiling only when loading it takes longer than this.
NOTICE_AFTER_S = 2.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="the browser app: play, analyse, path finding and games",
        description=(
            "Start a local web server with four pages: Play (a game against the engine, its "
            "thinking shown live), Analyse (a PGN or FEN, evaluated position by position), "
            "Paths (draw a maze, watch the searches explore it) and Games (tic-tac-toe and "
            "connect four against the generic searches). Needs the 'web' extra: "
            "pip install 'plies[web]'. Listens on 127.0.0.1 only, unless --host says otherwise."
        ),
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0 picks a free one)",
    )  # fmt: skip
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port must be 0..65535, not {args.port}")
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError as exc:
        raise CliError(
            f"the web app needs the 'web' extra (pip install 'plies[web]'): {exc}"
        ) from None
    listener = _listen(args.host, args.port)  # before the slower imports: fail fast
    from plies.web.app import create_app

    host, port = listener.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    app = create_app()
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_BYTES)
    server = uvicorn.Server(config)
    announcer = threading.Thread(
        target=_announce, args=(server, url, app.state.readiness, args.open), daemon=True
    )
    announcer.start()
    with listener:
        server.run(sockets=[listener])
    return 0 if server.started else 2


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a one-line CliError saying why not."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _announce(
    server: uvicorn.Server, url: str, readiness: EngineReadiness, open_browser: bool
) -> None:
    """Once the server runs, print its address (and open a browser if asked)."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    print(f"plies serve: listening on {url} (Ctrl-C stops)", flush=True)
    if open_browser:
        webbrowser.open(url)
    if not readiness.wait(NOTICE_AFTER_S):
        print(
            "plies serve: compiling the chess engine (first run only, about a minute); "
            "the page shows when it is ready",
            file=sys.stderr,
            flush=True,
        )
        readiness.wait()
    print(f"plies serve: {readiness.snapshot()['message']}", file=sys.stderr, flush=True)
