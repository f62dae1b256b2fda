"""Waiting in tests for something that must happen, without measuring how fast it happens.

A test's verdict must not depend on the machine's speed or load: a test waits for an
event or a condition, and the bound on that wait is there only to turn a hang into a
failure. ``HANG_S`` is far beyond what any awaited step needs on a loaded two-core machine
(the slowest, a first use that compiles a module under a load of 15, took a minute there),
so only work that never ends, or a stop that is ignored, exceeds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

HANG_S = 300.0
"""The bound on any one wait of a test: exceeding it means a hang, never a slow machine."""

POLL_S = 0.01
"""How often ``wait_until`` looks at its condition."""


def wait_until(condition: Callable[[], object], what: str, timeout_s: float = HANG_S) -> None:
    """Return once ``condition()`` is true; fail naming ``what`` if it never becomes true."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout_s:g} s (a hang)"
        time.sleep(POLL_S)
