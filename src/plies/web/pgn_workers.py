"""Worker processes that read PGNs for the server, each killed when its time is up.

A worker is ``python -m plies.web.pgn``: one JSON request per line on its stdin, one
answer per line on its stdout. It stays alive between requests (starting Python and
python-chess takes a few hundred milliseconds); one that runs over its deadline is
killed and replaced on the next request. At most ``size`` read at once; the rest wait.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import sys
import threading
import time
from typing import Any

from plies.web.pgn import MAX_PLIES, MainLine, PgnError

#: Longest answer a worker may send (1,000 plies of FEN and SAN take about 100 kB).
MAX_ANSWER = 4_000_000
#: Longest a new worker may take to start (Python and python-chess on a busy machine);
#: not counted in a request's time.
START_TIMEOUT_S = 60.0


class PgnWorker:
    """One worker process; :meth:`read` blocks, so call it from a thread."""

    def __init__(self) -> None:
        """Start the process."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plies.web.pgn"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # a crash in the worker is worth seeing in the server's log
        )
        self._ready = False
        self._buffer = b""

    @property
    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def read(self, text: str, max_plies: int, timeout_s: float) -> MainLine:
        """The main line of ``text``; ``PgnError`` if bad or slower than ``timeout_s``."""
        assert self.process.stdin is not None
        if not self._ready:
            if self._line(time.monotonic() + START_TIMEOUT_S) != b"ready\n":
                self.kill()
                raise PgnError("could not read the PGN (the reader did not start)")
            self._ready = True
        deadline = time.monotonic() + timeout_s
        try:
            self.process.stdin.write(
                json.dumps({"text": text, "max_plies": max_plies}).encode() + b"\n"
            )
            self.process.stdin.flush()
        except OSError:
            self.kill()
            raise PgnError("could not read the PGN (the reader stopped)") from None
        line = self._line(deadline)
        if line is None:
            raise PgnError(f"the PGN took too long to read (more than {timeout_s:g} s)")
        if not line:
            raise PgnError("could not read the PGN (the reader stopped)")
        answer: dict[str, Any] = json.loads(line)
        if not answer["ok"]:
            raise PgnError(answer["error"])
        return MainLine(tuple(answer["moves"]), tuple(answer["sans"]), tuple(answer["fens"]))

    def _line(self, deadline: float) -> bytes | None:
        """The worker's next line; None (worker killed) past ``deadline``, b"" if it died."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.kill()
                return None
            chunk = os.read(fd, 65536)
            if not chunk or len(self._buffer) + len(chunk) > MAX_ANSWER:
                self.kill()
                return b""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line + b"\n"

    def kill(self) -> None:
        """End the process now."""
        if self.alive:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


class PgnWorkers:
    """A few PGN workers shared by the whole server (all methods but ``close`` async)."""

    def __init__(self, size: int, timeout_s: float) -> None:
        """Keep up to ``size`` workers; each read may take ``timeout_s``."""
        self.size = size
        self.timeout_s = timeout_s
        self._idle: list[PgnWorker] = []
        self._lock = threading.Lock()
        self._semaphore: asyncio.Semaphore | None = None

    def _take(self) -> PgnWorker:
        """An idle live worker, or a new one (in a thread: starting one blocks)."""
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive:
                    return worker
        return PgnWorker()

    def _give_back(self, worker: PgnWorker) -> None:
        """Keep ``worker`` for the next request, or start its replacement if it was killed."""
        if not worker.alive:
            worker = PgnWorker()  # it starts while nobody waits for it
        with self._lock:
            self._idle.append(worker)

    def _read_blocking(self, text: str, max_plies: int) -> MainLine:
        """Take a worker, read, give it back (in a thread)."""
        worker = self._take()
        try:
            return worker.read(text, max_plies, self.timeout_s)
        finally:
            self._give_back(worker)

    async def read(self, text: str, max_plies: int = MAX_PLIES) -> MainLine:
        """The main line of ``text``, read in a worker; waits for one to be free."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.size)
        async with self._semaphore:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(None, self._read_blocking, text, max_plies)
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                # The tab has gone, but its worker is still busy: keep its place until the
                # worker is done, or tabs opened and closed in a loop would start many.
                await asyncio.wait([future])
                raise

    def warm(self) -> None:
        """Start one worker ahead of the first request (blocking; call in a thread)."""
        self._give_back(PgnWorker())

    def close(self) -> None:
        """End every idle worker."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
