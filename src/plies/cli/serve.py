"""the browser app: play, analyse, path finding and games.

Start a local web server with five pages: Play (a game against the engine, its thinking
shown live, or against a --player), Analyse (a PGN or FEN, evaluated position by position),
Paths (draw a maze, watch the searches explore it), Games (tic-tac-toe and connect four
against the generic searches) and Arena (matches and leagues between the built-in ladder
and the --player players, watched live). Needs the 'web' extra: pip install 'plies[web]'.
Listens on 127.0.0.1 only, unless --host says otherwise; then a token made at launch is
required (printed with the address).
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import threading
import time
import webbrowser
from typing import TYPE_CHECKING, Any

from plies.cli import match_options
from plies.cli.common import CliError, Command

if TYPE_CHECKING:
    import uvicorn

    from plies.agents.spec import PlayerSpec
    from plies.web.readiness import EngineReadiness

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Largest websocket message accepted by the server (a long PGN fits).
WS_MAX_BYTES = 1 << 20
#: The server's log lines: time, level, where, what.
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_DATE = "%Y-%m-%d %H:%M:%S"
#: Say that the engine is compiling (never when it only loads) once that takes longer than this.
NOTICE_AFTER_S = 2.0


COMMAND = Command("serve", __doc__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``plies serve``."""
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0 picks a free one)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME",
        help="another host name the server may be reached by (e.g. behind a proxy); repeatable",
    )  # fmt: skip
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    parser.add_argument(
        "--player", action="append", default=[], metavar="SPEC",
        help="a player to offer on the Play and Arena pages, in any form plies arena takes "
             "(e.g. random, minimax:depth=2, uci:/usr/games/stockfish); repeatable. Only these "
             "and the built-in ladder run: the page picks among them, it never names code or "
             "programs itself",
    )  # fmt: skip
    match_options.add_sandbox_options(parser)


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
    players = _players(args)
    listener = _listen(args.host, args.port)  # before the slower imports: fail fast
    from plies.web.app import create_app
    from plies.web.security import Guard, is_wildcard

    host, port = listener.getsockname()[:2]
    # The name as given (it may be a host name) and the address it resolved to both count.
    guard = Guard.for_bind(host, [args.host, *args.allow_host])
    shown = [socket.gethostname(), "127.0.0.1"] if is_wildcard(host) else [host]
    query = "" if guard.token is None else f"?token={guard.token}"
    urls = [f"http://{f'[{name}]' if ':' in name else name}:{port}/{query}" for name in shown]
    if guard.token is not None:
        print(
            f"plies serve: WARNING: listening on {host}, beyond this machine. Anyone who can "
            "reach it and has the token can use it; the token is in the address below. "
            "Other names for this machine need --allow-host NAME. "
            "Use the default --host 127.0.0.1 unless you need this.",
            file=sys.stderr,
            flush=True,
        )
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, datefmt=LOG_DATE)
    app = create_app(guard=guard, players=players)
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=WS_MAX_BYTES, log_config=_uvicorn_logging()
    )
    server = uvicorn.Server(config)
    announcer = threading.Thread(
        target=_announce, args=(server, urls, app.state.readiness, args.open), daemon=True
    )
    announcer.start()
    with listener:
        server.run(sockets=[listener])
    return 0 if server.started else 2


def _players(args: argparse.Namespace) -> list[PlayerSpec]:
    """Load every ``--player`` once (started and closed), so a bad one fails before serving;
    minds in the sandbox the options ask for, each hidden from the others."""
    from plies.cli.match_options import confined, parse_spec, sandbox_policy, try_players

    specs = confined([parse_spec(text) for text in args.player], sandbox_policy(args))
    for player in try_players(specs, False, [(f"player {s.text!r}", "") for s in specs]):
        player.close()
    return specs


def _uvicorn_logging() -> dict[str, Any]:
    """uvicorn's loggers on stderr with timestamps, like the server's own."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": LOG_FORMAT, "datefmt": LOG_DATE}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "plain",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": "WARNING", "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a one-line CliError saying why not."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _announce(
    server: uvicorn.Server, urls: list[str], readiness: EngineReadiness, open_browser: bool
) -> None:
    """Once the server runs, print its addresses (and open a browser if asked)."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    print(f"plies serve: listening on {urls[0]} (Ctrl-C stops)", flush=True)
    for url in urls[1:]:
        print(f"plies serve:           or {url}", flush=True)
    if open_browser:
        webbrowser.open(urls[-1])
    readiness.decided.wait()
    if readiness.compiling.is_set() and not readiness.wait(NOTICE_AFTER_S):
        print(
            "plies serve: compiling the chess engine (first run only, about a minute); "
            "the page shows when it is ready",
            file=sys.stderr,
            flush=True,
        )
        readiness.wait()
    print(f"plies serve: {readiness.snapshot()['message']}", file=sys.stderr, flush=True)
