"""What every player living in one child process shares: starting, stopping and ending it.

A process player (a UCI or xboard engine, a ``mind:`` program, a Python mind's child)
keeps one :class:`LineProcess`, started by :mod:`plies.agents.process` (in the sandbox
when given a :class:`~plies.sandbox.Jail`). A fault kills it hard and marks the player
unhealthy, so the next game starts a fresh one. ``stop()`` from another thread asks the
program to answer now (an engine's ``stop``); a program that cannot be asked, or does not
answer within :attr:`ProcessPlayer.stop_grace_s`, is killed with its process group and
``play`` raises PlayerError('hang'). Closing sends the player's goodbye line (or just
closes its input) and then makes sure the process is gone.
"""

from __future__ import annotations

import contextlib
import threading
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from plies.agents.player import Player, PlayerError
from plies.agents.process import LineProcess, NoReplyError, ProcessGoneError
from plies.sandbox import Jail, SandboxError

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine.limits import Info, Limit

#: How long a closing process may take to leave on its own before it is killed.
CLOSE_GRACE_S = 0.5


class ProcessPlayer(Player):
    """A player whose moves come from one child process."""

    #: The line that asks the process to quit; None: closing its input is the cue.
    goodbye: str | None = None
    #: How long a stopped program may take to answer before it is killed (0: at once).
    stop_grace_s: float = 0.0

    def __init__(self, name: str, command: Sequence[str], jail: Jail | None = None) -> None:
        """A player called ``name`` that will run ``command`` (started by :meth:`_start`),
        in ``jail`` if given."""
        self.name = name
        self.command = list(command)
        self.jail = jail
        self._process: LineProcess | None = None
        self._move_lock = threading.Lock()
        self._move_id = 0
        self._playing = False
        self._stopped = False

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

    def play(self, board: Board, limit: Limit) -> Info:
        """The move for ``board`` within ``limit``; only ``stop()`` ends a silent program."""
        return self.play_within(board, limit, None)

    @abstractmethod
    def play_within(self, board: Board, limit: Limit, timeout_s: float | None) -> Info:
        """``play``, failing with PlayerError('hang') once ``timeout_s`` has passed."""

    @contextlib.contextmanager
    def _answering(self, timeout_s: float | None) -> Iterator[None]:
        """Around one move: ``stop()`` may interrupt it; a silent or dead process, or a
        broken answer, becomes a PlayerError and the process is killed."""
        with self._move_lock:
            self._move_id += 1
            self._playing, self._stopped = True, False
        try:
            yield
        except NoReplyError:
            self._kill()
            raise PlayerError("hang", f"no move within {timeout_s:g}s") from None
        except ProcessGoneError as exc:
            stopped = self._stopped
            detail = self._explain(str(exc))
            self._kill()
            if stopped:
                raise PlayerError("hang", "no move when told to stop (killed)") from None
            raise PlayerError("crash", detail) from None
        except PlayerError as exc:
            detail = self._explain(exc.detail)
            self._kill()
            raise PlayerError(exc.kind, detail) from None
        finally:
            with self._move_lock:
                self._playing = False

    def _interrupt(self) -> None:
        """Ask the program to answer now (nothing, for a program that cannot be asked)."""
        return None

    def stop(self) -> None:
        """Ask for the move now; kill the program if it cannot answer within the grace."""
        with self._move_lock:
            if not self._playing:
                return
            self._stopped = True
            move_id = self._move_id
        if self.stop_grace_s <= 0:
            self._overdue(move_id)
            return
        with contextlib.suppress(ProcessGoneError):
            self._interrupt()
        timer = threading.Timer(self.stop_grace_s, self._overdue, (move_id,))
        timer.daemon = True
        timer.start()

    def _overdue(self, move_id: int) -> None:
        """Kill the process group if move ``move_id`` is still waiting for its answer."""
        with self._move_lock:
            waiting = self._playing and self._move_id == move_id
        process = self._process
        if waiting and process is not None:
            self.healthy = False
            process.signal_group()

    def _kill(self) -> None:
        """End the process hard; the next game starts a new one."""
        self.healthy = False
        process, self._process = self._process, None
        if process is not None:
            process.kill()

    def abandon(self) -> None:
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
    the name it gives itself, ``quit`` to leave, and a command that makes it move now."""

    goodbye = "quit"
    stop_grace_s = 1.0

    def __init__(self, name: str, command: Sequence[str], options: Mapping[str, str],
                 jail: Jail | None = None) -> None:
        """An engine called ``name`` run by ``command`` (in ``jail`` if given), to be started
        with ``options``."""
        super().__init__(name, command, jail)
        self.options = dict(options)
        self.engine_name = ""
        """The name the engine gives itself (empty until it has started)."""
