"""The UCI byte streams: a line reader that survives hostile input and a locked line writer.

The search thread prints ``info`` lines while the main thread answers
commands; the writer's lock keeps every line (and every multi-line block such
as the ``uci`` reply) whole.  The reader decodes bytes as UTF-8 with
replacement, so no input can raise, and caps line length, so no input can
exhaust memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

# No UCI command comes near this: a position with 600 moves is ~3,000 bytes.
MAX_LINE_BYTES = 1 << 16


@dataclass(frozen=True)
class OverlongLine:
    """Stands for a line longer than the cap: its length in bytes; its text is dropped."""

    length: int


def read_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[str | OverlongLine]:
    """Yield decoded lines (without the newline) until end of input."""
    while True:
        raw = stream.readline(max_bytes + 1)
        if not raw:
            return
        if len(raw) > max_bytes and not raw.endswith(b"\n"):
            length = len(raw)
            # Swallow the rest of the line in bounded pieces.
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(max_bytes)
                length += len(raw)
            yield OverlongLine(length)
            continue
        yield raw.decode("utf-8", errors="replace").rstrip("\r\n")


class Output:
    """Writes whole lines to a text stream under a lock, flushing after each write."""

    def __init__(self, stream: TextIO) -> None:
        """Wrap ``stream`` (stdout, or a StringIO in tests)."""
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False
        """True once the reader went away (a broken pipe): further output is dropped."""

    def send(self, line: str) -> None:
        """Write one line."""
        self.send_block((line,))

    def send_block(self, lines: Iterable[str]) -> None:
        """Write several lines with nothing from another thread in between."""
        text = "".join(f"{line}\n" for line in lines)
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(text)
                self._stream.flush()
            except (BrokenPipeError, ValueError):
                # ValueError: the stream was closed under us during shutdown.
                self.closed = True

    def info_string(self, text: str) -> None:
        """Write ``info string TEXT`` (one line, whatever ``text`` holds)."""
        self.send("info string " + " ".join(text.split()))
