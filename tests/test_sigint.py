"""Ctrl-C handling: a press that lands in numba's glue comes back as KeyboardInterrupt later."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from types import FrameType

import pytest
from tests.waiting import HANG_S

from plies import sigint


def _frame(name: str, filename: str) -> FrameType:
    """A live frame of a function called ``name`` defined in ``filename``."""
    namespace = {"sys": sys}
    exec(compile(f"def {name}():\n    return sys._getframe()\n", filename, "exec"), namespace)
    frame = namespace[name]()  # type: ignore[operator]
    assert isinstance(frame, FrameType)
    return frame


@pytest.fixture
def handler() -> Iterator[signal.Handlers | object]:
    """plies's SIGINT handler, installed for the test and the previous one put back after."""
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sigint.install()
    yield signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, previous)


def test_press_in_glue_is_delivered_once_the_glue_is_left(handler: object) -> None:
    """In ``_numba_unpickle`` the handler returns; KeyboardInterrupt follows in plain code."""
    assert callable(handler) and handler is not signal.default_int_handler
    glue = _frame(sigint.GLUE, "/site-packages/numba/core/serialize.py")
    assert sigint.in_glue(glue)
    returned = False
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, glue)
        returned = True
        deadline = time.monotonic() + HANG_S  # delivered within milliseconds
        while time.monotonic() < deadline:
            time.sleep(0.001)
    assert returned


def test_press_elsewhere_raises_at_once(handler: object) -> None:
    """Anywhere else, including other numba code, the press raises as Python's own handler."""
    assert callable(handler)
    for frame in (
        _frame("wait", "/usr/lib/python3/threading.py"),
        _frame("compile_extra", "/site-packages/numba/core/compiler.py"),
        _frame(sigint.GLUE, "/somewhere/else.py"),
        None,
    ):
        assert not sigint.in_glue(frame)
        with pytest.raises(KeyboardInterrupt):
            handler(signal.SIGINT, frame)


def test_install_keeps_an_ignored_or_custom_handler() -> None:
    """SIG_IGN (a background job) and a handler of the caller's own stay as they are."""
    previous = signal.getsignal(signal.SIGINT)

    def own(signum: int, frame: FrameType | None) -> None:
        """A caller's handler."""

    try:
        for kept in (signal.SIG_IGN, own):
            signal.signal(signal.SIGINT, kept)
            sigint.install()
            assert signal.getsignal(signal.SIGINT) is kept
    finally:
        signal.signal(signal.SIGINT, previous)
