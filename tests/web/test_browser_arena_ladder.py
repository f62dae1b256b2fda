"""The Arena page of a bare ``plies serve`` (no ``--player``), in headless Chromium: the
built-in ladder is offered and plays, and the hint for a server offering nobody shows."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import Server


def open_arena(tab: Any, server: Server) -> None:
    """Open the Arena page and wait until its first poll has been drawn."""
    tab.goto(server.url + "#arena")
    tab.wait_for_function("document.querySelector('#ar-status').textContent !== ''")


def offered(tab: Any) -> list[str]:
    """The names of the players the page offers, in order."""
    names: list[str] = tab.eval_on_selector_all(
        "#ar-players input", "inputs => inputs.map((i) => i.dataset.name)")
    return names


def test_a_bare_server_offers_the_ladder_and_plays_it(page: Any, server: Server) -> None:
    """Without --player the page offers the ladder; two rungs picked play a game of moves."""
    open_arena(page, server)
    names = offered(page)
    assert names[:4] == ["random", "capture", "minimax:depth=2", "alphabeta:depth=3"]
    assert "engine:depth=1" in names and names[-1] == "engine"
    assert page.locator("#ar-none").is_hidden()
    page.check("#ar-players input[data-name=random]")
    page.check("#ar-players input[data-name='engine:depth=1']")
    page.fill("#ar-games", "1")
    page.select_option("#ar-limit", "d1")
    page.click("#ar-start")
    page.wait_for_selector("#ar-status[data-running=false][data-played='1']")
    status = page.text_content("#ar-status")
    assert "random, engine:depth=1: 1 of 1 games" in status and "—" not in status
    assert int(page.get_attribute("#ar-board", "data-plies")) > 0
    assert page.locator("#ar-moves li").count() > 0
    assert page.locator("#ar-games-list li").count() == 1


def test_a_server_offering_nobody_says_how_to_offer_players(page: Any, server: Server) -> None:
    """The hint shows when the list is empty (the state answer is replaced: the real server
    always offers the ladder)."""
    page.route("**/api/arena/state", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({"players": [], "run": None})))
    open_arena(page, server)
    assert page.locator("#ar-players input").count() == 0
    assert page.locator("#ar-none").is_visible()
    assert "plies serve --player" in page.text_content("#ar-none")
