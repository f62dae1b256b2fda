"""The Arena page and the Play page's configured opponents, in headless Chromium against a
real ``plies serve --player ...`` subprocess."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from tests.web.conftest import Server, new_tab, running_server

TOY = Path(__file__).resolve().parents[1] / "arena" / "toy_uci.py"


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``plies serve`` offering a random mover, a capturer and three outside UCI engines: one
    that answers at once, one that plays a move a game and then never answers again, and one
    that reports a mate in three on every move."""
    log = tmp_path_factory.mktemp("serve-arena") / "stderr.log"
    command = [sys.executable, "-m", "plies", "serve", "--port", "0", "--player", "random",
               "--player", "capture", "--player", f"uci:{sys.executable} {TOY}:name=toy",
               "--player", f"uci:{sys.executable} {TOY}:Mode=hang,After=1,name=stalling",
               "--player", f"uci:{sys.executable} {TOY}:Mate=3,name=mater"]
    with running_server(command, log) as running:
        yield running


@pytest.fixture()
def tab(browser: Any, arena_server: Server) -> Iterator[Any]:
    """A fresh page on the arena server (downloads allowed)."""
    with new_tab(browser, accept_downloads=True) as page:
        yield page


def test_a_league_is_watched_to_its_end(tab: Any, arena_server: Server) -> None:
    """Pick three players, start; the board, standings and games fill in; PGN downloads."""
    tab.goto(arena_server.url + "#arena")
    tab.wait_for_selector("#ar-players input[data-name=toy]")
    assert tab.locator("#ar-none").is_hidden()
    for name in ("random", "capture", "toy"):
        tab.check(f"#ar-players input[data-name={name}]")
    tab.fill("#ar-games", "2")
    tab.select_option("#ar-limit", "d1")
    tab.click("#ar-start")
    tab.wait_for_selector("#ar-status[data-running=false][data-played='6']")
    assert "6 of 6 games" in tab.text_content("#ar-status")
    assert tab.locator("#ar-board svg").count() == 1
    assert tab.locator("#ar-games-list li").count() == 6
    rows = tab.locator("#ar-standings table").first.locator("tbody tr")
    assert rows.count() == 3
    assert sorted(rows.nth(i).locator("td").nth(1).text_content() for i in range(3)) == [
        "capture", "random", "toy"]
    with tab.expect_download() as info:
        tab.click("#ar-pgn")
    text = Path(info.value.path()).read_text()
    games = []
    fh = io.StringIO(text)
    while (game := chess.pgn.read_game(fh)) is not None:
        games.append(game)
    assert len(games) == 6


def test_a_bad_choice_shows_one_line_and_a_run_can_be_stopped(tab: Any,
                                                             arena_server: Server) -> None:
    """Starting with one player is refused in one line; a run that cannot end by itself
    stops when Stop is pressed."""
    tab.goto(arena_server.url + "#arena")
    tab.wait_for_selector("#ar-players input[data-name=toy]")
    tab.check("#ar-players input[data-name=random]")
    tab.click("#ar-start")  # one player only
    tab.wait_for_selector("#error:not([hidden])")
    assert "at least two" in tab.text_content("#error")
    # Every game stalls on the engine's second move until its minute on the clock is gone:
    # the run cannot end by itself before any wait of this test would fail.
    tab.check("#ar-players input[data-name=stalling]")
    tab.fill("#ar-games", "100")
    tab.select_option("#ar-limit", "c60+0.5")
    tab.click("#ar-start")
    tab.wait_for_selector("#ar-status[data-running=true]")
    tab.wait_for_function("Number(document.querySelector('#ar-board').dataset.plies) > 1")
    tab.click("#ar-stop")
    tab.wait_for_selector("#ar-status[data-running=false]")
    assert int(tab.get_attribute("#ar-status", "data-played")) < 100


def test_a_mate_in_3_is_shown_as_mate_in_3(tab: Any, arena_server: Server) -> None:
    """An engine's ``score mate 3`` is ``#3`` beside its name on the live board."""
    tab.goto(arena_server.url + "#arena")
    tab.wait_for_selector("#ar-players input[data-name=mater]")
    for name in ("random", "mater"):  # random is offered first, so it plays White
        tab.check(f"#ar-players input[data-name={name}]")
    tab.fill("#ar-games", "1")
    tab.select_option("#ar-limit", "d1")
    tab.click("#ar-start")
    tab.wait_for_selector("#ar-status[data-running=false][data-played='1']")
    assert tab.get_attribute("#ar-black", "data-score") == "#3"
    assert tab.text_content("#ar-black").endswith(" #3")
    assert tab.get_attribute("#ar-white", "data-score") == ""


def test_play_page_against_a_configured_player(tab: Any, arena_server: Server) -> None:
    """The Play page offers the configured players; the toy engine answers a move."""
    tab.goto(arena_server.url + "#play")
    tab.wait_for_selector("body[data-engine=ready]")
    tab.wait_for_selector("#opponent-row:not([hidden])")
    tab.select_option("#opponent", label="toy")
    tab.wait_for_selector("#board[data-opponent='2']")
    tab.click('#board rect[data-square="e2"]')
    tab.click('#board rect[data-square="e4"]')
    tab.wait_for_selector("#board[data-plies='2'][data-thinking=false]")
    assert '[Black "toy"]' in tab.input_value("#pgn")
