"""Ctrl-C during a match: a flag the match loop polls instead of an exception at any bytecode.

A KeyboardInterrupt raised wherever the main thread happens to be can land inside
``concurrent.futures.wait`` while it holds some futures' locks (a worker then
blocks for ever in ``set_result`` and the executor's shutdown never returns), or
between counting a finished game and writing it to the PGN (the summary then
counts a game the file lacks).  While a :class:`CtrlC` is entered, SIGINT only
sets :attr:`CtrlC.pressed`; the match loop looks at it between games and stops
cleanly.  Further presses are ignored: the wind-down (engines killed, threads
joined) is bounded, and an exception in the middle of it would leave engine
processes and their threads behind, which keeps the interpreter from exiting.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


class CtrlC:
    """Turns SIGINT into :attr:`pressed` while entered (in the main thread only)."""

    def __init__(self) -> None:
        """Nothing pressed yet; no handler installed until entered."""
        self.pressed = False
        self._previous: Any = None
        self._installed = False

    def _press(self, signum: int, frame: FrameType | None) -> None:
        """Signal handler: remember the press."""
        self.pressed = True

    def __enter__(self) -> CtrlC:
        """Install the handler, unless this is not the main thread or SIGINT is ignored."""
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
        ):
            self._previous = signal.signal(signal.SIGINT, self._press)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        """Put the previous handler back."""
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False
