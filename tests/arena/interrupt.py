"""Ctrl-C for a command under test: sent once a condition holds, then its exit is awaited.

A command that ignores the interrupt is sent SIGABRT, so the failure shows every thread's
stack (with ``PYTHONFAULTHANDLER=1`` in its environment) instead of a bare timeout.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable

from tests.waiting import HANG_S, wait_until


def interrupt_when(
    proc: subprocess.Popen[str], condition: Callable[[], bool], what: str
) -> tuple[str, str]:
    """Wait until ``condition()`` (``what``), press Ctrl-C; the command's stdout and stderr.

    The command must still be running when the condition holds; it is killed if the test
    fails on the way.
    """
    try:
        wait_until(lambda: proc.poll() is not None or condition(), what)
        assert proc.poll() is None, f"the command ended before Ctrl-C: {proc.communicate()[1]}"
        proc.send_signal(signal.SIGINT)
        try:
            return proc.communicate(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            stderr = proc.communicate(timeout=HANG_S)[1]
            raise AssertionError(f"no exit after Ctrl-C:\n{stderr[-6000:]}") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
