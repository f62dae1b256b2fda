"""Who may talk to the server: a Host allow-list, same-origin checks, and a launch token.

The server is meant for the machine it runs on. A web page elsewhere can still make a
browser send requests to ``127.0.0.1`` (or rebind its own name to it), so every request
must name an allowed host, and every websocket and state-changing request that carries
an ``Origin`` must come from the server's own origin. When the server listens beyond
loopback a token made at launch (printed with the address, as Jupyter does) is required
too: in the query (``?token=...``) or a header once, then in a cookie.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Names that always mean this machine.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
TOKEN_COOKIE = "plies_token"
TOKEN_HEADER = "x-plies-token"
#: Methods that only read: every other method must pass the Origin check.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: Websocket close code for a refused handshake (policy violation).
POLICY_CLOSE = 1008


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address) stays on this machine."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` is an any-address bind (``0.0.0.0``, ``::``, empty)."""
    host = host.strip("[]")
    if not host:
        return True
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def machine_names() -> set[str]:
    """This machine's own host names and addresses (for a server bound to every address)."""
    names = {socket.gethostname().lower(), socket.getfqdn().lower()}
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass  # a host name that does not resolve: only the names above
    return {name for name in names if name}


def split_host(value: str) -> str:
    """The host part of a ``Host`` header value (``[::1]:8000`` -> ``::1``), lowercased."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


@dataclass
class Guard:
    """The access rules of one server: which hosts it answers to, and its token (if any)."""

    hosts: set[str] = field(default_factory=lambda: set(LOOPBACK_NAMES))
    """Host names and addresses a request's ``Host`` may name (lowercase, no brackets)."""
    token: str | None = None
    """The launch token every request must carry, or None on loopback."""

    @classmethod
    def for_bind(cls, host: str, extra_hosts: Iterable[str] = ()) -> Guard:
        """The rules for a server bound to ``host``: a token unless it is loopback."""
        hosts = set(LOOPBACK_NAMES) | {h.strip("[]").lower() for h in extra_hosts}
        if is_wildcard(host):
            hosts |= machine_names()
        else:
            hosts.add(host.strip("[]").lower())
        token = None if is_loopback(host) else secrets.token_urlsafe(32)
        return cls(hosts, token)

    def host_allowed(self, header: str) -> bool:
        """Whether a ``Host`` header names this server."""
        return split_host(header) in self.hosts

    def origin_allowed(self, origin: str | None, host_header: str) -> bool:
        """Whether ``origin`` (None when the client sent none) is this server's own origin."""
        if origin is None:
            return True  # not a browser page: browsers always send Origin where it matters
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host_header.lower()

    def token_matches(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the launch token (compared in constant time)."""
        if self.token is None:
            return True
        return candidate is not None and hmac.compare_digest(
            candidate.encode(), self.token.encode()
        )


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers, lowercased names, last value wins."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _presented_token(scope: Scope, headers: dict[str, str]) -> tuple[str | None, bool]:
    """The token a request carries and whether it came by query or header (not cookie)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][-1], True
    if TOKEN_HEADER in headers:
        return headers[TOKEN_HEADER], True
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("token "):
        return authorization[6:].strip(), True
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header is simply no token
        return None, False
    morsel = cookie.get(TOKEN_COOKIE)
    return (morsel.value if morsel is not None else None), False


class GuardMiddleware:
    """ASGI middleware applying a :class:`Guard` to every HTTP request and websocket."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        """Wrap ``app``."""
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what the guard does not allow; pass the rest on (setting the cookie)."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get("host", "")
        reason = None
        if not self.guard.host_allowed(host):
            reason = "this server answers to its own address only (Host refused)"
        elif (scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS) and not (
            self.guard.origin_allowed(headers.get("origin"), host)
        ):
            reason = "requests from other web sites are refused (Origin)"
        token, fresh = _presented_token(scope, headers)
        if reason is None and not self.guard.token_matches(token):
            reason = "a token is required: open the address with ?token= that plies serve printed"
        if reason is not None:
            await _refuse(scope, receive, send, reason)
            return
        if not (fresh and self.guard.token is not None and scope["type"] == "http"):
            await self.app(scope, receive, send)
            return
        cookie = f"{TOKEN_COOKIE}={self.guard.token}; Path=/; HttpOnly; SameSite=Strict"

        async def send_with_cookie(message: Message) -> None:
            """Add the token cookie to the response, so the page's later requests carry it."""
            if message["type"] == "http.response.start":
                headers = [*message["headers"], (b"set-cookie", cookie.encode("latin-1"))]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def _refuse(scope: Scope, receive: Receive, send: Send, reason: str) -> None:
    """Answer 403 with a JSON error, or close a websocket handshake with 1008."""
    if scope["type"] == "websocket":
        await receive()  # the websocket.connect message
        await send({"type": "websocket.close", "code": POLICY_CLOSE, "reason": reason[:120]})
        return
    body = json.dumps({"error": reason}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

