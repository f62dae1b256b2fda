"""The access rules: which Host and Origin headers name this server, and when a token is due."""

from __future__ import annotations

import pytest

from plies.web.security import Guard, is_loopback, is_wildcard, split_host


@pytest.mark.parametrize(
    ("header", "host"),
    [("127.0.0.1:8000", "127.0.0.1"), ("[::1]:8000", "::1"), ("LocalHost", "localhost"),
     ("::1", "::1"), ("example.org:80", "example.org")],
)  # fmt: skip
def test_split_host(header: str, host: str) -> None:
    """The host part of a Host header, lowercased, without brackets or port."""
    assert split_host(header) == host


def test_loopback_and_wildcard_addresses() -> None:
    """Loopback names and addresses stay here; any-address binds are told apart."""
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "::", "192.168.1.5", "example.org"):
        assert not is_loopback(host), host
    assert is_wildcard("0.0.0.0") and is_wildcard("::") and not is_wildcard("127.0.0.1")


def test_a_token_only_beyond_loopback() -> None:
    """Loopback binds need no token; any other bind gets a fresh one each launch."""
    assert Guard.for_bind("127.0.0.1").token is None
    first, second = Guard.for_bind("192.168.1.5"), Guard.for_bind("192.168.1.5")
    assert first.token and second.token and first.token != second.token
    assert first.host_allowed("192.168.1.5:8000") and first.host_allowed("localhost:8000")
    assert not first.host_allowed("rebind.attacker.example:8000")
    assert Guard.for_bind("192.168.1.5", ["plies.lan"]).host_allowed("plies.lan")
    assert first.token_matches(first.token) and not first.token_matches("guess")
    assert not first.token_matches(None) and Guard().token_matches(None)


def test_only_the_own_origin_is_allowed() -> None:
    """An Origin must be this very server (scheme http(s), same host and port)."""
    guard = Guard()
    assert guard.origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert guard.origin_allowed(None, "127.0.0.1:8000")  # not a browser
    assert not guard.origin_allowed("http://evil.example", "127.0.0.1:8000")
    assert not guard.origin_allowed("http://127.0.0.1:9999", "127.0.0.1:8000")
    assert not guard.origin_allowed("null", "127.0.0.1:8000")
