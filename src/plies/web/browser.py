"""Driving the app's pages in headless Chromium (Playwright): the steps the browser tests
and the screenshot tool share.

Playwright is a development dependency (the ``dev`` extra); only :func:`launch_chromium`
imports it. The page helpers take Playwright's ``Page`` and rely on the ``data-``
attributes the pages set for exactly this purpose (``data-plies``, ``data-done``...).
"""

from __future__ import annotations

import os
import shutil
from typing import Any

#: The system's Chromium (installed by ``.ci/run``); Playwright's own download is not used.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str | None:
    """Where Chromium is installed, None when it is not."""
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


def launch_chromium(playwright: Any) -> Any:
    """Headless Chromium from a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


def open_page(page: Any, url: str, name: str) -> None:
    """Open page ``name`` (play, analyse, paths, games, arena) and wait for the engine."""
    page.goto(url + "#" + name)
    page.wait_for_selector("body[data-engine=ready]")


def set_level(page: Any, level: str) -> None:
    """Choose a Play level (``d3``: depth 3, ``t500``: 500 ms, ``inf``: until Move now) and
    wait until the server has it."""
    page.select_option("#level", level)
    page.wait_for_selector(f"#board[data-level='{level}']")


def click_square(page: Any, name: str) -> None:
    """Click a square of the Play board."""
    page.click(f'#board rect[data-square="{name}"]')


def wait_plies(page: Any, plies: int) -> None:
    """Wait until the Play board shows ``plies`` moves and the engine is idle."""
    page.wait_for_function(
        "n => { const b = document.querySelector('#board');"
        " return b.dataset.plies === String(n) && b.dataset.thinking === 'false'; }",
        arg=plies,
    )


def play_against_engine(page: Any, moves: list[tuple[str, str]]) -> None:
    """Play ``moves`` (from, to) by clicking, waiting after each for the engine's answer."""
    for played, (start, end) in enumerate(moves, 1):
        click_square(page, start)
        click_square(page, end)
        wait_plies(page, 2 * played)


def race_paths(page: Any, left: str, right: str) -> None:
    """Run path-finding algorithms ``left`` and ``right`` side by side to their end."""
    page.wait_for_function("document.querySelector('#p-alg-a').options.length > 0")
    page.select_option("#p-alg-a", left)
    page.select_option("#p-alg-b", right)
    page.click("#p-run")
    page.wait_for_selector("#stats-a:not(:empty)")
    page.click("#p-finish")
    page.wait_for_selector("#stats-a[data-done=true]")
    page.wait_for_selector("#stats-b[data-done=true]")


def play_cells(page: Any, cells: list[int]) -> None:
    """Click tic-tac-toe cells in order on the Games page, waiting for each to show its mark."""
    for i, cell in enumerate(cells):
        page.click(f'#g-board button[data-cell="{cell}"]')
        page.wait_for_selector(f'#g-board button[data-cell="{cell}"][data-mark="{"XO"[i % 2]}"]')
