"""Fixtures for the UCI tests: ``plies uci`` as a real subprocess, raw or through python-chess."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import chess.engine
import pytest
from tests.waiting import HANG_S

UCI_COMMAND = [sys.executable, "-m", "plies", "uci"]

# The first start may compile the engine (a minute or more on a busy machine);
# later starts load numba's cache in seconds.  Generous, because this is a
# shared machine: these bound hangs, they do not measure speed.
START_TIMEOUT_S = 600.0
REPLY_TIMEOUT_S = HANG_S  # a reply may wait for a compile (``eval`` compiles its trace)


def run_script(script: str) -> list[str]:
    """Run ``plies uci`` on ``script`` to its end (the end of input quits); its output lines.
    The process must exit with status 0."""
    proc = subprocess.run(UCI_COMMAND, input=script, capture_output=True, text=True,
                          timeout=START_TIMEOUT_S, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


class RawUci:
    """``plies uci`` driven line by line: write raw text, read replies with timeouts."""

    def __init__(self) -> None:
        """Start the process and a thread that queues its stdout lines."""
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        self.proc = subprocess.Popen(
            UCI_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Queue every stdout line; None marks the end of output."""
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes (no newline added)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, *lines: str) -> None:
        """Write each line followed by a newline."""
        self.send_bytes("".join(f"{line}\n" for line in lines).encode("utf-8"))

    def expect(self, prefix: str, timeout: float = REPLY_TIMEOUT_S) -> list[str]:
        """Read until a line starts with ``prefix``; return the lines read (that one last)."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout} s; got {got[-20:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"output ended before {prefix!r}; got {got[-20:]}")
            got.append(line)
            self.seen.append(line)
            if line.startswith(prefix):
                return got

    def ready(self, timeout: float = START_TIMEOUT_S) -> list[str]:
        """``isready`` and wait for ``readyok``."""
        self.send("isready")
        return self.expect("readyok", timeout)

    def close(self) -> int:
        """Send ``quit`` (if still possible) and reap the process; return its exit status."""
        with contextlib.suppress(BrokenPipeError, OSError, ValueError):
            self.send("quit")
        try:
            return self.proc.wait(timeout=REPLY_TIMEOUT_S)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):  # the pipe may be broken already
                        stream.close()


@pytest.fixture
def spawn_uci() -> Iterator[Callable[[], RawUci]]:
    """A factory of ``plies uci`` processes; every one is reaped after the test."""
    started: list[RawUci] = []

    def spawn() -> RawUci:
        """Start one more process (not yet past ``isready``)."""
        uci = RawUci()
        started.append(uci)
        return uci

    yield spawn
    for uci in started:
        uci.close()


@pytest.fixture
def raw_uci(spawn_uci: Callable[[], RawUci]) -> RawUci:
    """A fresh ``plies uci`` process, already past ``isready``."""
    uci = spawn_uci()
    uci.ready()
    return uci


@pytest.fixture(scope="module")
def shared_process() -> Iterator[RawUci]:
    """One ``plies uci`` process for a whole module (starting one costs seconds)."""
    uci = RawUci()
    try:
        uci.ready()
        yield uci
    finally:
        uci.close()


@pytest.fixture
def shared_uci(shared_process: RawUci) -> RawUci:
    """The module's process, idle and with its earlier output read (alive, or the test fails)."""
    assert shared_process.proc.poll() is None, "plies uci died in an earlier test"
    # ``ucinewgame`` returns once any search or job has stopped and printed its last line,
    # so ``readyok`` comes after everything the earlier test started, on any machine.
    shared_process.send("stop", "ucinewgame")
    shared_process.ready(REPLY_TIMEOUT_S)
    return shared_process


def open_engine() -> chess.engine.SimpleEngine:
    """``plies uci`` through python-chess, ready to search."""
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=START_TIMEOUT_S)
    engine.ping()  # waits for the compile on a first run
    engine.timeout = REPLY_TIMEOUT_S
    return engine


@pytest.fixture(scope="module")
def uci_engine() -> Iterator[chess.engine.SimpleEngine]:
    """One python-chess client of ``plies uci`` shared by a test module."""
    engine = open_engine()
    try:
        yield engine
    finally:
        engine.quit()
