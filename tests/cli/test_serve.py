"""``plies serve`` on the command line: help, and one-line errors for addresses it cannot use."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tests.cli.runs import one_line_error, plies
from tests.waiting import HANG_S, wait_until

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``plies serve`` with ``args`` and collect its output."""
    return plies("serve", *args)


def test_help_names_the_pages_and_the_default_address() -> None:
    """--help describes the pages and the loopback default."""
    result = run_serve("--help")
    assert result.returncode == 0
    for word in ("Play", "Analyse", "Paths", "Games", "Arena", "--player", "127.0.0.1"):
        assert word in result.stdout


def test_a_port_in_use_is_a_one_line_error() -> None:
    """A taken port gets one line on stderr and exit status 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve("--port", str(port))
    one_line_error(result.returncode, result.stderr, "cannot listen")


def test_a_player_that_cannot_load_is_one_line_before_serving(tmp_path: Path) -> None:
    """A bad --player names the spec and the reason, exit 2, before the server listens."""
    for spec, reason in (("wizard", "unknown player"),
                         (f"uci:{tmp_path / 'missing-engine'}", "missing-engine")):
        result = run_serve("--port", "0", "--player", "random", "--player", spec)
        one_line_error(result.returncode, result.stderr, spec, reason)
        assert "listening" not in result.stdout


def test_a_bad_port_number_is_refused() -> None:
    """A port outside 0..65535 is refused before anything starts."""
    result = run_serve("--port", "70000")
    one_line_error(result.returncode, result.stderr, "--port")


def test_beyond_loopback_a_token_is_printed_and_required(tmp_path: Path) -> None:
    """--host 0.0.0.0: a warning, an address with a token; without the token nothing answers."""
    httpx = pytest.importorskip("httpx")
    stderr_path = tmp_path / "stderr.log"
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "plies", "serve", "--host", "0.0.0.0", "--port", "0"],
            stdout=subprocess.PIPE, stderr=stderr, text=True,
        )  # fmt: skip
    try:
        assert process.stdout is not None
        local = None
        while local is None:
            line = process.stdout.readline()
            assert line, f"no loopback address printed: {stderr_path.read_text()}"
            match = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", line)
            if match:
                local, token = match.groups()
        assert "WARNING" in stderr_path.read_text() and "token" in stderr_path.read_text()
        assert httpx.get(local, timeout=HANG_S).status_code == 403
        assert httpx.get(f"{local}?token={token}", timeout=HANG_S).status_code == 200
        assert httpx.get(local, headers={"X-Plies-Token": token}, timeout=HANG_S).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)


def _start_serve(env: dict[str, str], stderr_path: Path) -> tuple[subprocess.Popen[str], str]:
    """``plies serve`` on a free port, its stderr going to ``stderr_path``; and its address."""
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "plies", "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=stderr, text=True, env=env,
        )  # fmt: skip
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        assert line, f"no address printed: {stderr_path.read_text()}"
        match = re.search(r"listening on (http://\S+/)", line)
        if match:
            return process, match.group(1)


def test_a_warm_start_does_not_speak_of_compiling(tmp_path: Path) -> None:
    """With the engine and path kernels in the cache, neither compile notice is printed."""
    httpx = pytest.importorskip("httpx")
    from plies.engine import Engine
    from plies.web.paths import OFFERED
    from plies.web.readiness import _exercise_paths

    Engine(hash_mb=1).warm_up()
    _exercise_paths()  # the caches the server loads from are complete
    stderr_path = tmp_path / "stderr.log"
    process, url = _start_serve(dict(os.environ), stderr_path)
    try:
        wait_until(lambda: "engine ready" in stderr_path.read_text(), "the engine loaded")
        for name in OFFERED:  # each kernel's first use in the server
            body = {"rows": ["...", "...", "..."], "start": [0, 0], "goal": [2, 2],
                    "algorithm": name, "diagonal": name == "jps"}  # fmt: skip
            answer = httpx.post(f"{url}api/paths/search", json=body, timeout=HANG_S)
            assert answer.status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=HANG_S)
    assert "compiling" not in stderr_path.read_text(), stderr_path.read_text()


@pytest.mark.long  # the server compiles from an empty cache until it says so
def test_a_cold_start_says_it_compiles(tmp_path: Path) -> None:
    """With an empty cache the server says that the engine compiles (and is stopped then)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PLIES_NO_COMPILE_WORKERS": "1"}  # fmt: skip
    stderr_path = tmp_path / "stderr.log"
    process, _ = _start_serve(env, stderr_path)
    try:
        wait_until(lambda: any(part in stderr_path.read_text()
                               for part in ("compiling the chess engine", "engine ready")),
                   "a word on the engine")  # fmt: skip
    finally:
        process.terminate()
        process.wait(timeout=HANG_S)
    assert "compiling the chess engine (first run only" in stderr_path.read_text()
