"""What every player living in one child process shares: ending that process.

A process player (a ``mind:`` program, a Python mind's child, an xboard engine) keeps
one :class:`LineProcess`. A fault kills it hard and marks the player unhealthy, so the
next game starts a fresh one; an abandoned game signals its whole process group; closing
sends the player's goodbye line (or just closes its input) and then makes sure it is gone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from plies.agents.player import Player, PlayerError
from plies.agents.process import LineProcess, NoReplyError, ProcessGoneError

#: How long a closing process may take to leave on its own before it is killed.
CLOSE_GRACE_S = 0.5


class ProcessPlayer(Player):
    """A player whose moves come from one child process."""

    #: The line that asks the process to quit; None: closing its input is the cue.
    goodbye: str | None = None

    _process: LineProcess | None = None

    @contextlib.contextmanager
    def _faults(self, timeout_s: float | None) -> Iterator[None]:
        """Turn a silent or dead process, or a broken answer, into a PlayerError; kill it."""
        try:
            yield
        except NoReplyError:
            self._kill()
            raise PlayerError("hang", f"no move within {timeout_s:g}s") from None
        except ProcessGoneError as exc:
            self._kill()
            raise PlayerError("crash", str(exc)) from None
        except PlayerError:
            self._kill()
            raise

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
