"""The Arena page of a bare ``plies serve`` (no ``--player``), in headless Chromium: the
built-in ladder is offered and plays, the move list stays within its box, and the hint
for a server offering nobody shows."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import Server

#: Plies the live game must reach before its move list is measured: thirty lines of moves,
#: far more than the list's height shows.
LONG_GAME_PLIES = 60


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


def test_the_move_list_of_a_long_game_does_not_scroll_sideways(page: Any,
                                                               server: Server) -> None:
    """Once the live game is long, its move list is no wider than its box, and it shows the
    newest move (measured in the same frame the length is seen, then the run is stopped)."""
    open_arena(page, server)
    page.check("#ar-players input[data-name=random]")
    page.check("#ar-players input[data-name=capture]")
    page.fill("#ar-games", "100")  # more games than needed, so some game grows long
    page.select_option("#ar-limit", "d1")
    page.click("#ar-start")
    page.wait_for_selector("#ar-status[data-running=true]")
    measured = page.wait_for_function(
        f"""() => {{
          const list = document.querySelector('#ar-moves');
          if (Number(document.querySelector('#ar-board').dataset.plies) < {LONG_GAME_PLIES})
            return false;
          const box = list.getBoundingClientRect();
          const last = list.lastElementChild.getBoundingClientRect();
          return {{scrollWidth: list.scrollWidth, clientWidth: list.clientWidth,
                   scrollHeight: list.scrollHeight, clientHeight: list.clientHeight,
                   lastVisible: last.bottom <= box.bottom + 1 && last.top >= box.top - 1}};
        }}""").json_value()
    page.click("#ar-stop")
    page.wait_for_selector("#ar-status[data-running=false]")
    assert measured["scrollWidth"] <= measured["clientWidth"], measured
    assert measured["scrollHeight"] > measured["clientHeight"], measured  # it scrolls down
    assert measured["lastVisible"], measured


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
