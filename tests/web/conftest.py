"""Fixtures for the web app: a real ``plies serve`` subprocess and headless Chromium.

The browser is the system's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``);
Playwright's own browser download is not used. Without Chromium or Playwright the
browser tests skip, saying why, unless ``PLIES_REQUIRE_BROWSER=1`` (set in CI) makes
that a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
from tests.waiting import HANG_S

from plies.web.browser import CHROMIUM, chromium_path, launch_chromium

if TYPE_CHECKING:
    from starlette.testclient import TestClient

T = TypeVar("T")
#: Where the in-process app believes it is served (a loopback address its guard accepts).
BASE_URL = "http://127.0.0.1:8000"
#: A cold first run compiles the chess engine (about a minute, more on a busy machine).
READY_TIMEOUT_S = 600.0


def _missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    return None


def get_json(url: str) -> Any:
    """GET ``url`` and decode its JSON answer."""
    with urllib.request.urlopen(url, timeout=HANG_S) as response:
        return json.loads(response.read())


#: A server with chosen limits and token (argv: limits as JSON, token or ""), on a free
#: loopback port; it prints its address like ``plies serve`` does.
APP_SERVER = """
import json, logging, socket, sys
import uvicorn
from plies.web.app import create_app
from plies.web.limits import ServerLimits
from plies.web.security import Guard
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
app = create_app(ServerLimits(**json.loads(sys.argv[1])), Guard(token=sys.argv[2] or None))
listener = socket.create_server(("127.0.0.1", 0))
print(f"listening on http://127.0.0.1:{listener.getsockname()[1]}/", flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=1 << 20)).run(
    sockets=[listener]
)
"""


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a fresh event loop in its own thread.

    A thread of its own, because a browser test before may leave an event loop running
    in this one (Playwright's synchronous API does).
    """
    outcome: list[Any] = []

    def run() -> None:
        """Run and keep the result or the exception."""
        try:
            outcome.append(asyncio.run(coroutine))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    result: T = outcome[0]
    return result


class Server:
    """A running server subprocess: its address and its log."""

    def __init__(self, process: subprocess.Popen[str], url: str, log: Path) -> None:
        """Remember the process, its address and where its stderr goes."""
        self.process = process
        self.url = url
        self.log = log

    @property
    def ws_url(self) -> str:
        """The address of the tab websocket."""
        return self.url.replace("http://", "ws://") + "ws"


@contextlib.contextmanager
def running_server(command: list[str], log: Path, wait_ready: bool = True) -> Iterator[Server]:
    """Start ``command`` (a server printing ``listening on URL``); stop it afterwards."""
    with log.open("w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + HANG_S
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on (http://\S+/)", line)
            if match:
                url = match.group(1)
        assert url is not None, f"the server did not report its address: {log.read_text()}"
        if wait_ready:
            deadline = time.monotonic() + READY_TIMEOUT_S
            while get_json(url + "api/status")["engine"] == "compiling":
                assert time.monotonic() < deadline, "the engine did not become ready in time"
                time.sleep(0.2)
            assert get_json(url + "api/status")["engine"] == "ready"
        yield Server(process, url, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def app_server(
    limits: dict[str, Any], log: Path, token: str = "", wait_ready: bool = True
) -> contextlib.AbstractContextManager[Server]:
    """A server with the given :class:`~plies.web.limits.ServerLimits` fields and token."""
    command = [sys.executable, "-c", APP_SERVER, json.dumps(limits), token]
    return running_server(command, log, wait_ready)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Start ``plies serve --port 0`` (a free port), wait until the engine is ready."""
    log = tmp_path_factory.mktemp("serve") / "stderr.log"
    with running_server([sys.executable, "-m", "plies", "serve", "--port", "0"], log) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium driven by Playwright (skips or fails when it is missing)."""
    reason = _missing_browser()
    if reason is not None:
        if os.environ.get("PLIES_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required (PLIES_REQUIRE_BROWSER=1) but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@contextlib.contextmanager
def new_tab(browser: Any, **options: Any) -> Iterator[Any]:
    """A fresh page in a context of its own (``options`` for the context); page errors fail
    the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, **options)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.set_default_timeout(HANG_S * 1000)  # any one step: only a hang reaches it
    yield tab
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture()
def page(browser: Any, server: Server) -> Iterator[Any]:
    """A fresh page (its own tab, its own game) on the server."""
    with new_tab(browser) as tab:
        yield tab


def in_process(limits: dict[str, Any]) -> contextlib.AbstractContextManager[TestClient]:
    """The app in process with the given limits, its lifespan (engine warm-up) running."""
    from starlette.testclient import TestClient

    from plies.web.app import create_app
    from plies.web.limits import ServerLimits

    return TestClient(create_app(ServerLimits(**limits)), base_url=BASE_URL)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app in process with the default limits, one per test module."""
    with in_process({}) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def uncapped_client() -> Iterator[TestClient]:
    """The app in process without a cap on search time: a search until Move now ends only
    when it is stopped, so a test sees what stops it."""
    with in_process({"search_cap_ms": None}) as test_client:
        yield test_client
