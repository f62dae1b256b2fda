"""Make first-use compilation visible: a notice when loading the core takes a while."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


@contextmanager
def compile_notice(
    message: str = "compiling the chess core (first run only, a few seconds)...",
    delay: float = 0.8,
    stream: TextIO | None = None,
) -> Iterator[None]:
    """Print ``message`` to stderr if the enclosed block runs longer than ``delay`` s."""
    out = sys.stderr if stream is None else stream
    done = threading.Event()

    def announce() -> None:
        """Print the notice unless the block finished first."""
        if not done.wait(delay):
            print(message, file=out, flush=True)

    thread = threading.Thread(target=announce, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
