"""Ctrl-C that never lands inside numba's glue.

Python turns SIGINT into a KeyboardInterrupt at the main thread's next bytecode.
Compiled code that hands a structure back to Python runs numba's
``_numba_unpickle``; a KeyboardInterrupt raised there comes out of the compiled
call as a SystemError or a TypeError. A caller takes that for a crash: a datagen
run scored the game as an engine crash, left it out of the file and went on, the
key press lost. :func:`install` puts in a SIGINT handler that raises as Python's
own does, except in that one function: there it hands the press to a helper
thread, which delivers it again a moment later, once the glue has returned.
"""

from __future__ import annotations

import _thread
import signal
import threading
import time
from types import FrameType

GLUE = "_numba_unpickle"
"""The numba function a KeyboardInterrupt must not be raised in."""

RETRY_S = 0.002
"""How long a deferred press waits before it is delivered again."""

_redeliver = threading.Event()
_helper: list[threading.Thread] = []


def in_glue(frame: FrameType | None) -> bool:
    """Whether ``frame`` (where a signal landed) is numba's unpickling glue."""
    return frame is not None and frame.f_code.co_name == GLUE and (
        "numba" in frame.f_code.co_filename
    )


def _handler(signum: int, frame: FrameType | None) -> None:
    """SIGINT: KeyboardInterrupt, unless it landed in numba's glue (then a moment later)."""
    if in_glue(frame):
        _redeliver.set()
        return
    raise KeyboardInterrupt


def _deliver_later() -> None:
    """Helper thread: send each deferred press to the main thread again."""
    while True:
        _redeliver.wait()
        _redeliver.clear()
        time.sleep(RETRY_S)
        _thread.interrupt_main(signal.SIGINT)


def install() -> None:
    """Handle SIGINT with :func:`_handler`; only on the main thread, and only while SIGINT
    has Python's default handler (an ignored or custom one is kept); once per process."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    if not _helper:
        _helper.append(threading.Thread(target=_deliver_later, name="plies-sigint", daemon=True))
        _helper[0].start()
    signal.signal(signal.SIGINT, _handler)
