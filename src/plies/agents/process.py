"""A child process spoken to line by line over pipes, in a process group of its own.

The process players (``mind:`` programs, xboard engines, a user's Python mind)
write a line and wait for the answer with a deadline.  Reading uses ``select``
on the raw pipe, so a silent process is noticed at the deadline; killing sends
SIGKILL to the whole process group, so a wrapper script's children go too.
Given a :class:`~plies.sandbox.Jail`, the program starts inside it: this is
the one place every process player's program is launched.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence

from plies.sandbox import Jail, Launch

SIGNAL_STATUS = 128
"""bwrap exits with this plus the signal's number when the program was killed by one."""


class ProcessGoneError(Exception):
    """The process ended (its output closed) or was never started."""


class NoReplyError(Exception):
    """The process printed no awaited line within the time allowed."""


class LineProcess:
    """One running program: ``send`` a line, ``read_line`` with a timeout, ``kill`` its group."""

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        stderr: int | None = None,
        jail: Jail | None = None,
    ) -> None:
        """Start ``command`` (OSError if it cannot run; SandboxError if ``jail`` is strict
        and cannot be built); ``stderr`` None inherits ours."""
        launch = (jail.wrap(command, env, cwd) if jail is not None else
                  Launch(list(command), dict(env) if env is not None else None, False))
        self.jail = jail if launch.confined else None
        """The sandbox the program runs in (None: it runs with our rights)."""
        # A process group, not a new session: a session of its own would also put the
        # program in its own scheduler autogroup, beyond the reach of the caller's nice.
        # (Inside the sandbox the program gets a session of its own all the same: without a
        # controlling terminal it cannot type into ours. The price is that our nice no
        # longer reaches it; bwrap itself stays in this group, for kill().)
        self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
            launch.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=launch.env,
            cwd=cwd,
            process_group=0,
        )
        self._buffer = b""
        self._lock = threading.Lock()

    @property
    def alive(self) -> bool:
        """True while the process has not been killed or closed (it may still have died)."""
        return self.process is not None

    @property
    def pid(self) -> int | None:
        """The process id (also its process group's), None once killed or closed."""
        process = self.process
        return None if process is None else process.pid

    @property
    def confined(self) -> bool:
        """True if the program runs in a sandbox."""
        return self.jail is not None

    def explain(self, text: str) -> str:
        """``text`` (why the program failed) with the sandbox's part in it, if any."""
        return text if self.jail is None else self.jail.explain(text)

    def worn(self) -> bool:
        """True once a sandboxed program has used half its CPU limit (see Jail.worn)."""
        process = self.process
        return self.jail is not None and process is not None and self.jail.worn(process.pid)

    def send(self, text: str) -> None:
        """Write ``text`` and a newline, flushed; ProcessGoneError if the process is gone."""
        process = self.process
        if process is None or process.stdin is None:
            raise ProcessGoneError("the process is not running")
        try:
            process.stdin.write(text.encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as exc:  # ValueError: closed by kill()
            raise ProcessGoneError("the process ended") from exc

    def read_line(self, timeout_s: float | None) -> str:
        """The next line the process prints (without its newline), waiting at most ``timeout_s``."""
        process = self.process
        if process is None or process.stdout is None:
            raise ProcessGoneError("the process is not running")
        fd = process.stdout.fileno()
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                ready, _, _ = select.select([fd], [], [], wait)
            except (OSError, ValueError) as exc:  # the descriptor was closed by kill()
                raise ProcessGoneError("the process ended") from exc
            if not ready:
                raise NoReplyError(f"no answer within {timeout_s:g}s")
            try:
                chunk = os.read(fd, 65536)
            except OSError as exc:
                raise ProcessGoneError("the process ended") from exc
            if not chunk:
                raise ProcessGoneError(self._exit_text())
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        return raw.decode(errors="replace").rstrip("\r")

    def lines(self, timeout_s: float | None) -> Iterator[str]:
        """The lines the process prints (stripped), all within ``timeout_s`` from now."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                yield self.read_line(left).strip()
            except NoReplyError:
                raise NoReplyError(f"no answer within {timeout_s:g}s") from None

    def read_until(self, last: str, timeout_s: float | None) -> list[str]:
        """The lines up to the first that is ``last`` or starts with ``last`` and a space."""
        found: list[str] = []
        lines = self.lines(timeout_s)
        while not found or not (found[-1] == last or found[-1].startswith(last + " ")):
            found.append(next(lines))
        return found

    def _exit_text(self) -> str:
        """Why the output ended: the exit status or signal, when the process has gone."""
        process = self.process
        if process is None:
            return "the process ended"
        try:
            code = process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "the process closed its output"
        if self.jail is not None and code > SIGNAL_STATUS:  # bwrap's way to pass a signal on
            code = SIGNAL_STATUS - code
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"the process was killed by {signal.Signals(-code).name}"
        return f"the process exited with status {code}"

    def signal_group(self) -> None:
        """SIGKILL the process group now (safe from another thread; the pipes stay open)."""
        process = self.process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    def kill(self) -> None:
        """Kill the process group, reap the process and close the pipes."""
        with self._lock:
            process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self, goodbye: str | None = None, grace_s: float = 1.0) -> None:
        """Send ``goodbye`` (e.g. ``quit``), give the process ``grace_s`` to exit, then kill."""
        process = self.process
        if process is None:
            return
        if goodbye is not None:
            with contextlib.suppress(ProcessGoneError):
                self.send(goodbye)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace_s)
        self.kill()
