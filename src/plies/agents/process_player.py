"""What every player living in one child process shares: ending that process.

A process player (a ``mind:`` program, a Python mind's child, an xboard engine) keeps
one :class:`LineProcess`. A fault kills it hard and marks the player unhealthy, so the
next game starts a fresh one; an abandoned game signals its whole process group; closing
sends the player's goodbye line (or just closes its input) and then makes sure it is gone.
With a :class:`~plies.sandbox.Jail` the process runs in the sandbox, and a fault's
reason says what the sandbox had to do with it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from plies.agents.player import MovePlayer, PlayerError
from plies.agents.process import LineProcess, NoReplyError, ProcessGoneError
from plies.sandbox import Jail, SandboxError

#: How long a closing process may take to leave on its own before it is killed.
CLOSE_GRACE_S = 0.5


class ProcessPlayer(MovePlayer):
    """A player whose moves come from one child process."""

    #: The line that asks the process to quit; None: closing its input is the cue.
    goodbye: str | None = None

    def __init__(self, name: str, command: Sequence[str], jail: Jail | None = None) -> None:
        """A player called ``name`` that will run ``command`` (started by :meth:`_start`),
        in ``jail`` if given."""
        self.name = name
        self.command = list(command)
        self.jail = jail
        self._process: LineProcess | None = None

    def _start(self) -> None:
        """Start the process and make it ready to play (PlayerError('start') if it is not)."""
        raise NotImplementedError

    def _launch(self, command: Sequence[str], **kwargs: Any) -> LineProcess:
        """Start ``command`` as this player's process; PlayerError('start') if it cannot run."""
        try:
            self._process = LineProcess(command, jail=self.jail, **kwargs)
        except (OSError, SandboxError) as exc:
            raise PlayerError("start", f"{self.name} did not start: {exc}") from None
        return self._process

    @property
    def sandboxed(self) -> bool:
        """True if the running process is in the sandbox."""
        return self._process is not None and self._process.confined

    def _explain(self, text: str) -> str:
        """``text`` with the sandbox's part in it (a limit met, a write refused), if any."""
        process = self._process
        return text if process is None else process.explain(text)

    @contextlib.contextmanager
    def _starting(self, what: str = "did not start") -> Iterator[None]:
        """Around a handshake: a silent or dead process is PlayerError('start'), and any
        failure (a refused option, Ctrl-C) leaves no process behind."""
        try:
            yield
        except (NoReplyError, ProcessGoneError) as exc:
            detail = self._explain(str(exc))
            self._kill()
            raise PlayerError("start", f"{self.name} {what}: {detail}") from None
        except BaseException:
            self._kill()
            raise

    def _running(self) -> LineProcess:
        """The process; ProcessGoneError while there is none."""
        if self._process is None:
            raise ProcessGoneError("the process is not running")
        return self._process

    @property
    def pid(self) -> int | None:
        """The running process's id, None while there is none."""
        return None if self._process is None else self._process.pid

    def _restart_if_broken(self) -> None:
        """Start a fresh process if the last one broke (or there is none, or a sandboxed one
        has used half its CPU time)."""
        if self._process is None or not self.healthy or self._process.worn():
            self._kill()
            self._start()

    @contextlib.contextmanager
    def _faults(self, timeout_s: float | None) -> Iterator[None]:
        """Turn a silent or dead process, or a broken answer, into a PlayerError; kill it."""
        try:
            yield
        except NoReplyError:
            self._kill()
            raise PlayerError("hang", f"no move within {timeout_s:g}s") from None
        except ProcessGoneError as exc:
            detail = self._explain(str(exc))
            self._kill()
            raise PlayerError("crash", detail) from None
        except PlayerError as exc:
            detail = self._explain(exc.detail)
            self._kill()
            raise PlayerError(exc.kind, detail) from None

    def _kill(self) -> None:
        """End the process hard; the next game starts a new one."""
        self.healthy = False
        process, self._process = self._process, None
        if process is not None:
            process.kill()

    def abort(self) -> None:
        """Kill the process group: the game in progress is being abandoned."""
        self.healthy = False
        process = self._process
        if process is not None:
            process.signal_group()

    def close(self) -> None:
        """Say goodbye (or close the input), then make sure the process is gone."""
        process, self._process = self._process, None
        if process is not None:
            process.close(self.goodbye, grace_s=CLOSE_GRACE_S)


class EngineProcessPlayer(ProcessPlayer):
    """An outside engine (UCI or xboard) in its child process: options to set at the start,
    the name it gives itself, and ``quit`` to leave."""

    goodbye = "quit"

    def __init__(self, name: str, command: Sequence[str], options: Mapping[str, str],
                 jail: Jail | None = None) -> None:
        """An engine called ``name`` run by ``command`` (in ``jail`` if given), to be started
        with ``options``."""
        super().__init__(name, command, jail)
        self.options = dict(options)
        self.engine_name = ""
        """The name the engine gives itself (empty until it has started)."""
