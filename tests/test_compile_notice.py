"""Compile notices: printed while numba really compiles a plies function, never for a load."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import Any

import numba
from tests.waiting import HANG_S

from plies.compile_notice import compile_notice, quiet, watching_compiles


class WatchedStream(io.StringIO):
    """A text buffer that tells when something was written to it."""

    def __init__(self) -> None:
        """An empty buffer, not yet written."""
        super().__init__()
        self.written = threading.Event()

    def write(self, text: str) -> int:
        """Keep ``text`` and signal the write."""
        count = super().write(text)
        self.written.set()
        return count


def plies_function() -> Callable[[int], int]:
    """A new compiled function of a plies module: its first call compiles it (no cache)."""
    namespace: dict[str, Any] = {"__name__": "plies.notice_probe"}
    exec("def bump(x):\n    return x + 1\n", namespace)
    compiled: Callable[[int], int] = numba.njit(namespace["bump"])
    return compiled


def test_a_compile_in_the_block_prints_the_notice() -> None:
    shown = WatchedStream()
    bump = plies_function()
    with compile_notice("compiling", delay=0.0, stream=shown):
        assert bump(1) == 2
        assert shown.written.wait(HANG_S)
    assert shown.getvalue() == "compiling\n"


def test_a_block_that_compiles_nothing_says_nothing_however_long_it_runs() -> None:
    bump = plies_function()
    bump(1)  # compiled before the block: inside, only called
    out = io.StringIO()
    with compile_notice("compiling", delay=0.0, stream=out):
        assert bump(2) == 3
        time.sleep(0.2)  # outlast the delay (the notice once went by the clock alone)
    assert out.getvalue() == ""


def test_a_compile_in_another_thread_is_not_this_blocks() -> None:
    out = io.StringIO()
    bump = plies_function()
    other = threading.Thread(target=bump, args=(1,))
    with compile_notice("compiling", delay=0.0, stream=out):
        other.start()
        other.join()
    assert out.getvalue() == ""


def test_watching_compiles_reports_only_plies_functions() -> None:
    called: list[bool] = []
    outside = numba.njit(lambda x: x * 2)
    with watching_compiles(lambda: called.append(True)) as compiling:
        assert outside(2) == 4
        assert not compiling.is_set()
        plies_function()(1)
        assert compiling.is_set()
        plies_function()(1)
    assert called == [True]


def test_quiet_silences_notices_only_while_it_runs() -> None:
    silenced, shown = io.StringIO(), WatchedStream()
    with quiet(), compile_notice("first", delay=0.0, stream=silenced):
        plies_function()(1)
    with compile_notice("second", delay=0.0, stream=shown):
        plies_function()(1)
        # The block outlasts the zero delay until the notice is written, on any machine.
        assert shown.written.wait(HANG_S)
    assert silenced.getvalue() == ""
    assert shown.getvalue() == "second\n"
