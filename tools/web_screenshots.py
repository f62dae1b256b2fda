"""Screenshots of the four pages of ``plies serve`` for the README (docs/web-*.png).

Starts a real ``plies serve`` on a free port, drives the system's headless Chromium
through each page and saves one picture per page::

    python3 tools/web_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from plies.web.browser import (
    launch_chromium,
    open_page,
    play_against_engine,
    play_cells,
    race_paths,
    set_level,
)
from plies.web.launch import start_serve

# Legal's mate: a queen sacrifice, so the evaluation graph has something to show.
PGN = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"


def main() -> int:
    """Take the four screenshots."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs", help="directory for the PNG files")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    process, url = start_serve(0.5)
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            open_page(page, url, "play")
            set_level(page, "t500")
            play_against_engine(page, [("e2", "e4"), ("g1", "f3"), ("b1", "c3")])
            page.click('#board rect[data-square="f1"]')
            page.screenshot(path=str(out / "web-play.png"))

            page.goto(url + "#analyse")
            page.fill("#an-pgn", PGN)
            page.select_option("#an-movetime", "100")
            page.click("#an-run")
            page.wait_for_selector("#an-progress[data-done=true]", timeout=120_000)
            for _ in range(10):
                page.click("#an-next")
            page.wait_for_selector("#an-board[data-index='10']")
            page.screenshot(path=str(out / "web-analyse.png"))

            page.goto(url + "#paths")
            page.fill("#p-width", "41")
            page.fill("#p-height", "25")
            page.select_option("#p-method", "prim")
            page.click("#p-maze")
            race_paths(page, "astar", "bfs")
            page.screenshot(path=str(out / "web-paths.png"))

            page.goto(url + "#games")
            page.select_option("#g-ai", "-1")
            page.click("#g-new")
            play_cells(page, [4, 0, 8])
            page.click("#g-solve")
            page.wait_for_selector("#g-solution[data-verdict]")
            page.screenshot(path=str(out / "web-games.png"))
            browser.close()
    finally:
        process.terminate()
        process.wait()
    for name in ("play", "analyse", "paths", "games"):
        print(out / f"web-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
